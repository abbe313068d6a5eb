// The session route ({web_url}/api/session) and the cookie rules of the spec's "Web front end":
// cookie attributes read from the real Set-Cookie, the Origin check before any API call, the
// API's error envelopes passed through, `next` never an open redirect, a revoked session
// clearing the cookie, and the sign-in pages (login, register, magic link) in Chromium.
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { linkIn, SIGN_IN_SUBJECT, type TestMember } from '../../tests/setup/harness.js';
import { createWebApp } from '../server/app.js';
import { loadWebConfig } from '../server/config.js';
import {
  expectAccessible,
  newVisitor,
  signIn,
  signedInVisitor,
  useWebStackAndBrowser,
  type WebStack,
} from './harness.js';

const TTL_DAYS = 7;

let stack: WebStack;
let browser: Browser;

// A lifetime other than the default, so Max-Age is seen to follow SESSION_TTL_DAYS. Logins are
// many here and all come from 127.0.0.1: the login limits are not what this file tests.
useWebStackAndBrowser(
  (ready) => {
    stack = ready.stack;
    browser = ready.browser;
  },
  {
    apiEnv: {
      SESSION_TTL_DAYS: String(TTL_DAYS),
      RATE_LIMIT_LOGIN_PER_IP: '1000',
      RATE_LIMIT_LOGIN_PER_ACCOUNT: '1000',
      RATE_LIMIT_LOGIN_ACCOUNT_CEILING: '1000',
    },
  },
);

// ---- helpers ----

type OriginHeader = string | null | 'omit';

function headersFor(options: { origin?: OriginHeader; cookie?: string; type?: string }): Record<string, string> {
  const origin = options.origin === undefined ? stack.webUrl : options.origin;
  return {
    ...(options.type ? { 'content-type': options.type } : {}),
    ...(origin === 'omit' ? {} : { origin: origin ?? 'null' }),
    ...(options.cookie ? { cookie: `app_session=${options.cookie}` } : {}),
  };
}

function postJson(body: unknown, options: { origin?: OriginHeader; cookie?: string } = {}) {
  return fetch(`${stack.webUrl}/api/session`, {
    method: 'POST',
    redirect: 'manual',
    headers: headersFor({ ...options, type: 'application/json' }),
    body: JSON.stringify(body),
  });
}

function postForm(path: string, fields: Record<string, string>, options: { origin?: OriginHeader } = {}) {
  return fetch(`${stack.webUrl}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: headersFor({ ...options, type: 'application/x-www-form-urlencoded' }),
    body: new URLSearchParams(fields).toString(),
  });
}

interface ParsedCookie {
  value: string;
  attributes: Map<string, string | true>;
}

/** The app_session Set-Cookie of a response, split into value and (lower-cased) attributes. */
function sessionCookie(response: Response): ParsedCookie | undefined {
  const header = response.headers.getSetCookie().find((line) => line.startsWith('app_session='));
  if (!header) return undefined;
  const [pair, ...rest] = header.split(';').map((part) => part.trim());
  const attributes = new Map<string, string | true>();
  for (const attribute of rest) {
    const [key, ...value] = attribute.split('=');
    attributes.set(key!.toLowerCase(), value.length ? value.join('=') : true);
  }
  return { value: decodeURIComponent(pair!.slice('app_session='.length)), attributes };
}

async function tokenWorks(token: string): Promise<boolean> {
  return (await stack.api.request('GET', '/api/me', { token })).status === 200;
}

const OPEN_REDIRECTS = [
  '//evil.example',
  'https://evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  '%2F%2Fevil.example',
  '/%5Cevil.example',
  'javascript:alert(1)',
  '/\t/evil.example',
  '/\n/evil.example',
  '\t//evil.example',
  '/%09/evil.example',
  '/%0A/evil.example',
  'http:evil.example',
];

// ---- the cookie ----

describe('the app_session cookie', () => {
  it('login sets HttpOnly, SameSite=Lax, Path=/, Max-Age = SESSION_TTL_DAYS in seconds, no Secure on http localhost in test', async () => {
    const member = await stack.member();
    const response = await postJson({ email: member.email, password: member.password });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body)).toEqual(['user']);
    expect(body.user).toMatchObject({ handle: member.handle, email: member.email });
    const cookie = sessionCookie(response)!;
    expect(cookie.attributes.get('httponly')).toBe(true);
    expect(String(cookie.attributes.get('samesite')).toLowerCase()).toBe('lax');
    expect(cookie.attributes.get('path')).toBe('/');
    expect(cookie.attributes.get('max-age')).toBe(String(TTL_DAYS * 86_400));
    expect(cookie.attributes.has('secure')).toBe(false);
    // The value is the API token, unchanged: the API accepts it as a Bearer token.
    expect(await tokenWorks(cookie.value)).toBe(true);
    expect(JSON.stringify(body)).not.toContain(cookie.value);
  });

  it('is Secure when WEB_URL is https or NODE_ENV is production; not only on http localhost outside production', async () => {
    const member = await stack.member();
    const cases: Array<[env: Record<string, string>, secure: boolean]> = [
      [{ WEB_URL: 'https://web.example', NODE_ENV: 'test' }, true],
      [{ WEB_URL: 'https://localhost:5173', NODE_ENV: 'development' }, true],
      [{ WEB_URL: 'http://localhost:5173', NODE_ENV: 'production' }, true],
      [{ WEB_URL: 'http://web.example', NODE_ENV: 'development' }, true],
      [{ WEB_URL: 'http://localhost:5173', NODE_ENV: 'development' }, false],
      [{ WEB_URL: 'http://127.0.0.1:5173', NODE_ENV: 'test' }, false],
    ];
    for (const [env, secure] of cases) {
      const config = loadWebConfig({ API_URL: stack.apiUrl, SESSION_TTL_DAYS: String(TTL_DAYS), ...env });
      const app = createWebApp({ config });
      const response = await app.request('/api/session', {
        method: 'POST',
        headers: { origin: new URL(env.WEB_URL!).origin, 'content-type': 'application/json' },
        body: JSON.stringify({ email: member.email, password: member.password }),
      });
      expect(response.status, JSON.stringify(env)).toBe(200);
      const cookie = sessionCookie(response)!;
      expect(cookie.attributes.has('secure'), JSON.stringify(env)).toBe(secure);
      expect(cookie.attributes.get('max-age')).toBe(String(TTL_DAYS * 86_400));
      expect(cookie.attributes.get('httponly')).toBe(true);
    }
  });

  it('register ({ email, password, handle }) answers 201 { user } and sets the cookie', async () => {
    const handle = `web_reg_${Date.now().toString(36)}`;
    const response = await postJson({ email: `${handle}@example.test`, password: 'a long enough password', handle });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(Object.keys(body)).toEqual(['user']);
    expect(body.user.handle).toBe(handle);
    const cookie = sessionCookie(response)!;
    expect(await tokenWorks(cookie.value)).toBe(true);
  });

  it('magic link ({ magicToken }) answers { user } and sets the cookie; the mailed link is {web}/login/magic?token=…', async () => {
    const member = await stack.member();
    expect((await stack.api.request('POST', '/api/auth/magic-link', { body: { email: member.email } })).status).toBe(
      202,
    );
    await stack.api.settleMail();
    const link = linkIn(await stack.api.mailer.waitForMail(member.email, SIGN_IN_SUBJECT));
    expect(`${link.origin}${link.pathname}`).toBe(`${stack.webUrl}/login/magic`);
    const magicToken = link.searchParams.get('token')!;
    const response = await postJson({ magicToken });
    expect(response.status).toBe(200);
    expect((await response.json()).user.handle).toBe(member.handle);
    expect(await tokenWorks(sessionCookie(response)!.value)).toBe(true);
    // Single use: the same token again is the API's 401, passed through.
    const again = await postJson({ magicToken });
    expect(again.status).toBe(401);
    expect((await again.json()).error.code).toBe('invalid_credentials');
  });

  it('DELETE signs out at the API, then clears the cookie with Max-Age=0', async () => {
    const member = await stack.member();
    const response = await fetch(`${stack.webUrl}/api/session`, {
      method: 'DELETE',
      headers: headersFor({ cookie: member.token }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    const cookie = sessionCookie(response)!;
    expect(cookie.value).toBe('');
    expect(cookie.attributes.get('max-age')).toBe('0');
    expect(cookie.attributes.get('path')).toBe('/');
    expect(await tokenWorks(member.token)).toBe(false);
    // Signing out twice (the session is gone already) is still a clean sign-out.
    const again = await fetch(`${stack.webUrl}/api/session`, {
      method: 'DELETE',
      headers: headersFor({ cookie: member.token }),
    });
    expect(again.status).toBe(200);
    expect(sessionCookie(again)!.attributes.get('max-age')).toBe('0');
  });
});

// ---- Origin and errors ----

describe('the Origin check and the API errors', () => {
  it('refuses a missing, foreign or "null" Origin before any API call', async () => {
    let apiCalls = 0;
    const counting = createWebApp({
      config: stack.webConfig,
      fetch: (input, init) => {
        apiCalls += 1;
        return fetch(input, init);
      },
    });
    const member = await stack.member();
    const attempts: Array<[method: string, path: string, type?: string, body?: string]> = [
      ['POST', '/api/session', 'application/json', JSON.stringify({ email: member.email, password: 'wrong one' })],
      [
        'POST',
        '/api/session',
        'application/x-www-form-urlencoded',
        new URLSearchParams({ email: member.email, password: 'wrong one' }).toString(),
      ],
      ['DELETE', '/api/session'],
      ['POST', '/logout'],
      ['POST', '/login/magic-link', 'application/x-www-form-urlencoded', `email=${encodeURIComponent(member.email)}`],
    ];
    for (const origin of ['omit', 'https://evil.example', null, `${stack.webUrl}.evil.example`] as const) {
      for (const [method, path, type, body] of attempts) {
        const response = await counting.request(path, {
          method,
          headers: headersFor({ origin, cookie: member.token, type }),
          body,
        });
        expect(response.status, `${method} ${path} with Origin ${origin}`).toBe(403);
        expect((await response.json()).error.code).toBe('forbidden');
        expect(response.headers.getSetCookie()).toEqual([]);
      }
    }
    expect(apiCalls).toBe(0);
    // Nothing happened to the session or the mailbox either.
    expect(await tokenWorks(member.token)).toBe(true);
    await stack.api.settleMail();
    expect(stack.api.mailer.to(member.email)).toEqual([]);
  });

  it('passes the API error envelope and status through unchanged, and sets no cookie', async () => {
    const member = await stack.member();
    const cases: Array<[body: Record<string, unknown>, apiPath: string, apiBody: Record<string, unknown>]> = [
      [
        { email: member.email, password: 'not the password' },
        '/api/auth/login',
        { email: member.email, password: 'not the password' },
      ],
      [
        { email: 'not-an-email', password: 'x', handle: 'a' },
        '/api/auth/register',
        { email: 'not-an-email', password: 'x', handle: 'a' },
      ],
      [
        { email: member.email, password: 'another long password', handle: 'someone_new' },
        '/api/auth/register',
        { email: member.email, password: 'another long password', handle: 'someone_new' },
      ],
      [{ magicToken: 'no-such-token' }, '/api/auth/magic-link/verify', { token: 'no-such-token' }],
      [{ email: member.email }, '/api/auth/login', { email: member.email }],
    ];
    for (const [body, apiPath, apiBody] of cases) {
      const viaWeb = await postJson(body);
      const direct = await stack.api.request('POST', apiPath, { body: apiBody });
      expect(direct.status).toBeGreaterThanOrEqual(400);
      expect(viaWeb.status, JSON.stringify(body)).toBe(direct.status);
      expect(await viaWeb.json()).toEqual(direct.body);
      expect(sessionCookie(viaWeb)).toBeUndefined();
    }
  });

  it('answers 400 for a body that is not a JSON object and 415 for other media types', async () => {
    const notJson = await fetch(`${stack.webUrl}/api/session`, {
      method: 'POST',
      headers: headersFor({ type: 'application/json' }),
      body: '{"email":',
    });
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error.code).toBe('validation_failed');
    expect((await postJson(['a'])).status).toBe(400);
    const text = await fetch(`${stack.webUrl}/api/session`, {
      method: 'POST',
      headers: headersFor({ type: 'text/plain' }),
      body: 'hello',
    });
    expect(text.status).toBe(415);
  });
});

// ---- next ----

describe('next: where sign-in leads, never off the site', () => {
  it('sends a visitor without the cookie from /app/… to /login?next=<path and query>', async () => {
    const response = await fetch(`${stack.webUrl}/app/actions?kind=outreach&from=2026-01-01`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(
      `/login?next=${encodeURIComponent('/app/actions?kind=outreach&from=2026-01-01')}`,
    );
  });

  it('ignores every open-redirect attempt, on the /login form and the JSON route', async () => {
    const member = await stack.member();
    for (const evil of OPEN_REDIRECTS) {
      // The login page does not carry it into its form…
      const page = await fetch(`${stack.webUrl}/login?next=${encodeURIComponent(evil)}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html, evil).not.toContain('name="next"');
      expect(html).not.toContain('evil.example');
      // …a forged form post with it still lands on the feed…
      const form = await postForm('/api/session', { email: member.email, password: member.password, next: evil });
      expect(form.status).toBe(303);
      expect(form.headers.get('location'), evil).toBe('/app/feed');
      // …/login with a cookie does not follow it…
      const signedIn = await fetch(`${stack.webUrl}/login?next=${encodeURIComponent(evil)}`, {
        redirect: 'manual',
        headers: { cookie: `app_session=${member.token}` },
      });
      expect(signedIn.headers.get('location'), evil).toBe('/app/feed');
      // …and the JSON route answers `{ user }` alone, never a location.
      const json = await postJson({ email: member.email, password: member.password, next: evil });
      expect(json.status).toBe(200);
      expect(json.headers.get('location')).toBeNull();
      expect(Object.keys(await json.json())).toEqual(['user']);
    }
    // A same-site next is kept, path and query.
    const good = await postForm('/api/session', {
      email: member.email,
      password: member.password,
      next: '/app/actions?kind=outreach',
    });
    expect(good.headers.get('location')).toBe('/app/actions?kind=outreach');
  });

  it('in Chromium: /app/… without a session → login → back to the same path and query', async () => {
    const member = await stack.member();
    const { context, page } = await newVisitor(browser, stack);
    await page.goto('/app/actions?kind=outreach');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/app/actions?kind=outreach');
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password').fill(member.password);
    await Promise.all([
      page.waitForURL('**/app/actions?kind=outreach'),
      page.getByRole('button', { name: 'Sign in', exact: true }).click(),
    ]);
    expect(new URL(page.url()).search).toBe('?kind=outreach');
    await context.close();
  });

  it('in Chromium: no next → /app/feed; an evil next → /app/feed on this site', async () => {
    const member = await stack.member();
    const { context, page } = await signedInVisitor(browser, stack, member);
    expect(page.url()).toBe(`${stack.webUrl}/app/feed`);
    await page.context().clearCookies();
    for (const evil of ['//evil.example', '/\\evil.example', 'javascript:alert(1)']) {
      await signIn(page, member, evil);
      expect(page.url(), evil).toBe(`${stack.webUrl}/app/feed`);
      await page.context().clearCookies();
    }
    await context.close();
  });
});

// ---- a session the API no longer accepts ----

describe('a revoked session', () => {
  it('clears the cookie and sends the visitor to login when the API answers 401', async () => {
    const member = await stack.member();
    const { context, page, token } = await signedInVisitor(browser, stack, member);
    // Revoked through the API (as from another device's session list).
    await stack.api.trpc(token).auth.logout.mutate({});
    const response = await page.goto('/app/settings');
    expect(response!.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/app/settings');
    expect((await context.cookies()).some((cookie) => cookie.name === 'app_session')).toBe(false);
    await context.close();
  });
});

// ---- the pages ----

async function expectNoticeOrError(page: Page, text: string | RegExp) {
  await expect.poll(() => page.locator('main').textContent()).toMatch(text);
}

describe('sign-in pages in Chromium', () => {
  it('login: labels, next kept in a hidden field, the API message on failure, links to register and magic link', async () => {
    const member = await stack.member();
    const { context, page } = await newVisitor(browser, stack);
    await page.goto('/login?next=%2Fapp%2Fsettings');
    await expectAccessible(page);
    expect(await page.locator('input[type=hidden][name=next]').getAttribute('value')).toBe('/app/settings');
    const main = page.locator('main');
    expect(await main.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe(
      '/register?next=%2Fapp%2Fsettings',
    );
    expect(await main.getByRole('link', { name: 'Email me a sign-in link' }).getAttribute('href')).toBe(
      '/login/magic-link',
    );
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password').fill('not my password');
    const [failed] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/session')),
      page.getByRole('button', { name: 'Sign in', exact: true }).click(),
    ]);
    expect(failed.status()).toBe(401);
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/.+/);
    expect(await page.getByLabel('Email').inputValue()).toBe(member.email);
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    expect(await page.locator('input[type=hidden][name=next]').getAttribute('value')).toBe('/app/settings');
    await expectAccessible(page);
    await page.getByLabel('Password').fill(member.password);
    await Promise.all([
      page.waitForURL('**/app/settings'),
      page.getByRole('button', { name: 'Sign in', exact: true }).click(),
    ]);
    await context.close();
  });

  it('register: Email, Password, Handle; a taken handle re-renders with the API message; then on to the feed', async () => {
    const taken = await stack.member();
    const { context, page } = await newVisitor(browser, stack);
    await page.goto('/register');
    await expectAccessible(page);
    const handle = `newbie_${Date.now().toString(36)}`;
    await page.getByLabel('Email').fill(`${handle}@example.test`);
    await page.getByLabel('Password').fill('plenty of words here');
    await page.getByLabel('Handle').fill(taken.handle);
    const [failed] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/session')),
      page.getByRole('button', { name: 'Create account' }).click(),
    ]);
    expect(failed.status()).toBe(409);
    expect(await page.getByRole('alert').textContent()).toBe('That handle is taken.');
    expect(await page.getByLabel('Email').inputValue()).toBe(`${handle}@example.test`);
    await expectAccessible(page);
    await page.getByLabel('Password').fill('plenty of words here');
    await page.getByLabel('Handle').fill(handle);
    await Promise.all([page.waitForURL('**/app/feed'), page.getByRole('button', { name: 'Create account' }).click()]);
    const me = await stack.api
      .trpc((await context.cookies()).find((c) => c.name === 'app_session')!.value)
      .me.get.query({});
    expect(me.handle).toBe(handle);
    await context.close();
  });

  it('magic link: the request page always says "check your inbox"; the landing signs in once; a used link is explained', async () => {
    const member = await stack.member();
    const { context, page } = await newVisitor(browser, stack);
    await page.goto('/login/magic-link');
    await expectAccessible(page);
    for (const email of [`nobody-${Date.now()}@example.test`, member.email]) {
      await page.getByLabel('Email').fill(email);
      await Promise.all([
        page.waitForURL('**/login/magic-link'),
        page.getByRole('button', { name: 'Email me a link' }).click(),
      ]);
      await expectNoticeOrError(page, /Check your inbox/);
    }
    await stack.api.settleMail();
    const link = linkIn(await stack.api.mailer.waitForMail(member.email, SIGN_IN_SUBJECT)).href;
    // The landing page as it stands before its script submits it (the script held back here).
    await page.route('**/assets/magic-link.js', (route) => route.abort());
    await page.goto('/login/magic?token=held-back');
    await expectAccessible(page);
    await page.unrouteAll();
    await page.goto(link);
    await page.waitForURL('**/app/feed');
    expect((await context.cookies()).some((cookie) => cookie.name === 'app_session')).toBe(true);
    // The same link again (another browser): explained, with a way to get a new one.
    const other = await newVisitor(browser, stack);
    await other.page.goto(link);
    await other.page.waitForSelector('[role=alert]');
    expect(await other.page.getByRole('alert').textContent()).toMatch(/invalid, already used or expired/);
    expect(await other.page.getByRole('link', { name: 'Email me a new link' }).getAttribute('href')).toBe(
      '/login/magic-link',
    );
    await expectAccessible(other.page);
    expect((await other.context.cookies()).some((cookie) => cookie.name === 'app_session')).toBe(false);
    await other.context.close();
    await context.close();
  });

  it('works without JavaScript: the magic landing waits for a button, login is a plain form', async () => {
    const member = await stack.member();
    const context = await browser.newContext({ baseURL: stack.webUrl, javaScriptEnabled: false });
    const page = await context.newPage();
    await stack.api.request('POST', '/api/auth/magic-link', { body: { email: member.email } });
    await stack.api.settleMail();
    const link = linkIn(await stack.api.mailer.waitForMail(member.email, SIGN_IN_SUBJECT)).href;
    await page.goto(link);
    // Opening the link spends nothing (a mail scanner's GET): the page waits for the member.
    expect(new URL(page.url()).pathname).toBe('/login/magic');
    await Promise.all([
      page.waitForURL('**/app/feed'),
      page.getByRole('button', { name: 'Continue to sign in' }).click(),
    ]);
    await context.clearCookies();
    await page.goto('/login/magic');
    expect(await page.getByRole('alert').textContent()).toMatch(/incomplete/);
    await signInWithoutScript(page, member);
    await context.close();
  });

  it('signs out from the navigation: the session ends at the API and the cookie goes', async () => {
    const member = await stack.member();
    const { context, page, token } = await signedInVisitor(browser, stack, member, { next: '/app/settings' });
    await Promise.all([
      page.waitForURL('**/login'),
      page.getByRole('button', { name: `Sign out @${member.handle}` }).click(),
    ]);
    await expectNoticeOrError(page, /signed out/);
    expect((await context.cookies()).some((cookie) => cookie.name === 'app_session')).toBe(false);
    expect(await tokenWorks(token)).toBe(false);
    await context.close();
  });
});

async function signInWithoutScript(page: Page, member: TestMember) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password').fill(member.password);
  await Promise.all([
    page.waitForURL('**/app/feed'),
    page.getByRole('button', { name: 'Sign in', exact: true }).click(),
  ]);
}
