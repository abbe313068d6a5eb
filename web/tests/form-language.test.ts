// A signed-in member's form answers come in the account's language, even from a browser that asks
// for another: signing in sets the `lang` cookie from the account (form posts read only cookies),
// and a signed-in page that finds no cookie writes the account's language into it. No browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebStack, type WebStack } from './harness.js';

let stack: WebStack;

beforeAll(async () => {
  stack = await startWebStack();
});
afterAll(async () => {
  await stack?.close();
});

/** The cookies a Set-Cookie list sets (name → value; Max-Age=0 ones left out). */
function cookiesSet(response: Response): Map<string, string> {
  const set = new Map<string, string>();
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const [name, value] = pair!.split('=');
    if (!/max-age=0/i.test(line)) set.set(name!.trim(), value ?? '');
  }
  return set;
}

function formPost(path: string, fields: Record<string, string>, cookie?: string) {
  return fetch(`${stack.webUrl}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: stack.webUrl,
      'accept-language': 'en-US,en;q=0.9',
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('form answers in the account’s language', () => {
  it('signing in sets the language from the account, and a refused form then answers in it', async () => {
    const member = await stack.member({ prefix: 'formlang' });
    await stack.api.trpc(member.token).me.update.mutate({ locale: 'de' });

    const signIn = await formPost('/api/session', { email: member.email, password: member.password });
    expect(signIn.status).toBe(303);
    const cookies = cookiesSet(signIn);
    expect(cookies.get('lang')).toBe('de');
    const session = cookies.get('app_session')!;

    // An English browser, a refused handle: the settings form answers in German.
    const refused = await formPost('/app/settings/handle', { handle: 'x' }, `app_session=${session}; lang=de`);
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain('<html lang="de"');
  });

  it('a member without an account language keeps the browser’s, and no cookie is set for it', async () => {
    const member = await stack.member({ prefix: 'formnolang' });
    const signIn = await formPost('/api/session', { email: member.email, password: member.password });
    expect(signIn.status).toBe(303);
    expect(cookiesSet(signIn).has('lang')).toBe(false);
  });

  it('a signed-in page without the cookie writes the account’s language into it', async () => {
    const member = await stack.member({ prefix: 'formpage' });
    await stack.api.trpc(member.token).me.update.mutate({ locale: 'fr' });
    const page = await fetch(`${stack.webUrl}/app/settings`, {
      headers: { cookie: `app_session=${member.token}`, 'accept-language': 'en' },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html lang="fr"');
    expect(cookiesSet(page).get('lang')).toBe('fr');

    // With the cookie already there, nothing is written again.
    const again = await fetch(`${stack.webUrl}/app/settings`, {
      headers: { cookie: `app_session=${member.token}; lang=fr`, 'accept-language': 'en' },
    });
    expect(cookiesSet(again).has('lang')).toBe(false);
  });
});
