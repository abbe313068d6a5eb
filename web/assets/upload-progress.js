// Upload progress for every form that takes files (progressive enhancement: without JavaScript
// the form posts as before and the server names a refused file). With it:
//   - before anything is sent, a file that is too large or not an image is refused in the page,
//     naming the file; the typed text stays where it is (nothing was submitted);
//   - the form is sent with XMLHttpRequest, and a <progress> element beside the submit button
//     shows how much has gone up (a 10 MB photo on a slow line is no longer "13 s of nothing");
//   - the server's answer (the next page, or the form again with its message and the text kept)
//     replaces the page, at the address the server redirected to.
// Forms opt in with `data-upload-progress` (or are any multipart form on a page loading this file).
{
  // The texts come from the catalogs in the page's language (web/server/script-texts.ts), as a
  // JSON island: data, not script, so the Content-Security-Policy holds.
  const island = document.getElementById('upload-progress-texts');
  const messages = island ? JSON.parse(island.textContent || '{}') : {};
  const say = (key, values) =>
    (messages[key] || key).replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));

  const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'];
  const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp', 'heic', 'heif'];
  const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

  /** The reason a file is refused, or null (a browser that knows no type for HEIC sends none). */
  function refusal(file, maxBytes) {
    const extension = (file.name.split('.').pop() || '').toLowerCase();
    const typed = file.type && file.type !== 'application/octet-stream';
    if (typed ? !IMAGE_TYPES.includes(file.type) : !IMAGE_EXTENSIONS.includes(extension))
      return say('notImage', { name: file.name });
    if (file.size > maxBytes) return say('tooLarge', { name: file.name, size: Math.round(maxBytes / (1024 * 1024)) });
    return null;
  }

  /** The form's own message box (role=alert, read out at once), made on first use. */
  function alertBox(form) {
    let box = form.querySelector('.upload-refusal');
    if (!box) {
      box = document.createElement('p');
      box.className = 'form-error upload-refusal';
      box.setAttribute('role', 'alert');
      form.prepend(box);
    }
    return box;
  }

  function chosenFiles(form) {
    return [...form.querySelectorAll('input[type="file"]')].flatMap((input) => [...(input.files || [])]);
  }

  function enhance(form) {
    form.addEventListener('submit', (event) => {
      const files = chosenFiles(form);
      if (files.length === 0) return; // nothing to upload: the ordinary post
      const maxBytes = Number(form.dataset.maxBytes) || DEFAULT_MAX_BYTES;
      const refused = files.map((file) => refusal(file, maxBytes)).filter(Boolean);
      if (refused.length > 0) {
        event.preventDefault();
        const box = alertBox(form);
        box.textContent = refused.join(' ');
        box.hidden = false;
        return;
      }
      if (!window.XMLHttpRequest || !window.FormData) return;
      event.preventDefault();
      const submitter = event.submitter;
      const body = submitter ? new FormData(form, submitter) : new FormData(form);
      const progress = document.createElement('progress');
      progress.className = 'upload-progress';
      progress.max = 100;
      progress.value = 0;
      const status = document.createElement('p');
      status.className = 'muted';
      status.setAttribute('role', 'status');
      const anchor = submitter || form.querySelector('button[type="submit"], button:not([type])') || form.lastChild;
      anchor.after(progress, status);
      progress.setAttribute('aria-label', say('uploading', { percent: 0 }));
      const buttons = [...form.querySelectorAll('button')];
      for (const button of buttons) button.disabled = true;
      const request = new XMLHttpRequest();
      request.open((form.getAttribute('method') || 'post').toUpperCase(), form.action);
      request.upload.addEventListener('progress', (progressEvent) => {
        if (!progressEvent.lengthComputable) return;
        const percent = Math.floor((progressEvent.loaded / progressEvent.total) * 100);
        progress.value = percent;
        status.textContent = say('uploading', { percent });
      });
      request.upload.addEventListener('load', () => {
        progress.removeAttribute('value'); // indeterminate while the server checks the images
        status.textContent = say('processing', {});
      });
      const failed = () => {
        progress.remove();
        status.remove();
        for (const button of buttons) button.disabled = false;
        const box = alertBox(form);
        box.textContent = say('failed', {});
        box.hidden = false;
      };
      request.addEventListener('error', failed);
      request.addEventListener('abort', failed);
      request.addEventListener('load', () => {
        const type = request.getResponseHeader('content-type') || '';
        if (!type.startsWith('text/html')) return failed();
        // The answer replaces the page, as a normal submission would, at the redirected address.
        const address = request.responseURL || form.action;
        document.open();
        document.write(request.responseText);
        document.close();
        if (address !== location.href) history.replaceState(null, '', address);
      });
      request.send(body);
    });
  }

  for (const form of document.querySelectorAll('form[data-upload-progress], form[enctype="multipart/form-data"]'))
    enhance(form);
}
