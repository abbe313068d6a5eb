// Passkey ceremonies (WebAuthn is a browser API, so these need JavaScript): adding a passkey on
// /app/settings/passkeys, confirming a removal with one, and "Sign in with a passkey" on /login.
// Each asks this site for options, hands them to the browser (@simplewebauthn/browser, served
// from /assets/vendor/simplewebauthn/) and posts the browser's answer back as JSON; the web server
// relays both to the API. Where WebAuthn is missing, the "passkeys need JavaScript" note stays.
{
  const lib = window.SimpleWebAuthnBrowser;
  const supported = Boolean(lib?.browserSupportsWebAuthn());
  for (const note of document.querySelectorAll('[data-passkey-nojs]')) note.hidden = supported;
  for (const part of document.querySelectorAll('[data-passkey-js]')) part.hidden = !supported;

  async function postJson(url, body) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data?.error?.code ?? String(response.status));
    return data;
  }

  function showError(container) {
    const box = container.querySelector('[data-passkey-error]');
    if (!box) return;
    box.textContent = container.dataset.failed ?? '';
    box.hidden = false;
  }

  function busy(button, on) {
    button.disabled = on;
    button.setAttribute('aria-busy', on ? 'true' : 'false');
  }

  // Adding a passkey: options, the browser's registration, then the answer with the chosen name.
  const addForm = document.getElementById('passkey-add-form');
  if (supported && addForm) {
    addForm.addEventListener('submit', async (event) => {
      event.preventDefault();
      const button = addForm.querySelector('button[type="submit"]');
      busy(button, true);
      try {
        const { challengeId, options } = await postJson(addForm.dataset.options, { purpose: 'register' });
        const response = await lib.startRegistration({ optionsJSON: options });
        const name = addForm.querySelector('input[name="name"]').value;
        const done = await postJson(addForm.action, { name, challengeId, response });
        window.location.assign(done.next);
      } catch {
        showError(addForm);
        busy(button, false);
      }
    });
  }

  // Signing in, or confirming a removal: options, the browser's assertion, then the answer.
  function assertOn(container, purpose, bodyFor) {
    if (!supported || !container) return;
    const button = container.querySelector('button');
    button.addEventListener('click', async () => {
      busy(button, true);
      try {
        const { challengeId, options } = await postJson(container.dataset.options, { purpose });
        const response = await lib.startAuthentication({ optionsJSON: options });
        const done = await postJson(container.dataset.action, bodyFor(challengeId, response));
        window.location.assign(done.next);
      } catch {
        showError(container);
        busy(button, false);
      }
    });
  }

  const signIn = document.getElementById('passkey-sign-in');
  assertOn(signIn, 'sign-in', (challengeId, response) => ({ challengeId, response, next: signIn.dataset.next }));
  assertOn(document.getElementById('passkey-remove-with-passkey'), 'confirm', (challengeId, response) => ({
    passkey: { challengeId, response },
  }));
}
