// `next` after sign-in is never a way off the site: a table of hostile values checked on the
// Location the web server finally answers (resolved as a browser resolves it), through every
// place that redirects to a `next`, and a real sign-in in Chromium that must end on this origin.
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { backPath } from '../pages/posts-view.js';
import { loginRedirect, safeNextPath } from '../server/next-path.js';
import { newVisitor, useWebStackAndBrowser, type WebStack } from './harness.js';

let stack: WebStack;
let browser: Browser;

useWebStackAndBrowser(
  (ready) => {
    stack = ready.stack;
    browser = ready.browser;
  },
  { apiEnv: { RATE_LIMIT_LOGIN_PER_IP: '1000', RATE_LIMIT_LOGIN_PER_ACCOUNT: '1000' } },
);

/** Values of `next` as the server receives them (already decoded once from the query or form). */
const HOSTILE_NEXTS = [
  '//evil.example',
  '///evil.example',
  '/.//evil.example',
  '/./\\evil.example',
  '/%2e%2e//evil.example',
  '/%2E%2E//evil.example',
  '/%2e//evil.example',
  '/app/..//evil.example',
  '/app/../..//evil.example',
  '/app/%2e%2e//evil.example',
  '/app/%2e%2e/%2fevil.example',
  '/%2e%2e/%2Fevil.example',
  '/.%2f/evil.example',
  '/%2F/evil.example',
  '%2F%2Fevil.example',
  '/%252F%252Fevil.example',
  '/\\evil.example',
  '\\\\evil.example',
  '/%5Cevil.example',
  '/%5C%5Cevil.example',
  '/.\\/evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r/evil.example',
  '\t//evil.example',
  '/%09/evil.example',
  '/%0A/evil.example',
  '/%0d/evil.example',
  '/ /evil.example',
  'https://evil.example',
  'https:evil.example',
  'http:evil.example',
  'HTTPS://evil.example/app/feed',
  'javascript:alert(1)',
  '/%00/evil.example',
  '',
];

const SITE = 'http://site.test';

/**
 * Where a browser goes for `location`, resolved from a few pages of the site (a Location may be
 * relative). Same origin from all of them, or the answer is an open redirect.
 */
function expectStaysOnSite(location: string | null, input: string): void {
  expect(location, input).not.toBeNull();
  for (const base of [`${SITE}/`, `${SITE}/login`, `${SITE}/app/feed/deeper`]) {
    expect(new URL(location!, base).origin, `next=${JSON.stringify(input)} → Location ${location}`).toBe(SITE);
  }
  // A browser reading the header normalises it (dot segments): the result must not start with `//` either.
  expect(location!.startsWith('//'), `${JSON.stringify(input)} → ${location}`).toBe(false);
  expect(location!.includes('\\'), `${JSON.stringify(input)} → ${location}`).toBe(false);
}

describe('safeNextPath: what it returns is a path on this site', () => {
  it('refuses or neutralises every hostile value, and what it answers stays on the site', () => {
    for (const input of HOSTILE_NEXTS) {
      const path = safeNextPath(input);
      if (path !== null) expectStaysOnSite(path, input);
      expectStaysOnSite(loginRedirect(input), input);
    }
    // The two of the report, exactly.
    expect(safeNextPath('/.//evil.example')).toBeNull();
    expect(safeNextPath('/%2e%2e//evil.example')).toBeNull();
  });

  it('keeps ordinary paths with their query', () => {
    expect(safeNextPath('/app/actions?kind=outreach&from=2026-01-01')).toBe(
      '/app/actions?kind=outreach&from=2026-01-01',
    );
    expect(safeNextPath('/app/places?q=a%2Fb')).toBe('/app/places?q=a%2Fb');
    expect(safeNextPath('/app/./settings')).toBe('/app/settings');
  });
});

describe('every redirect to a next stays on the site', () => {
  it('after a real sign-in (form post), and on /login and /register when already signed in', async () => {
    const member = await stack.member();
    for (const input of HOSTILE_NEXTS) {
      const signIn = await fetch(`${stack.webUrl}/api/session`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: stack.webUrl, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: member.email, password: member.password, next: input }).toString(),
      });
      expect(signIn.status, input).toBe(303);
      expectStaysOnSite(signIn.headers.get('location'), input);
      for (const page of ['/login', '/register']) {
        const signedIn = await fetch(`${stack.webUrl}${page}?next=${encodeURIComponent(input)}`, {
          redirect: 'manual',
          headers: { cookie: `app_session=${member.token}` },
        });
        expect(signedIn.status, input).toBe(303);
        expectStaysOnSite(signedIn.headers.get('location'), input);
      }
    }
  });

  it('a post action’s back path (posts-view backPath) never leaves the site either', () => {
    for (const input of HOSTILE_NEXTS) expectStaysOnSite(backPath(input, '/app/feed'), input);
  });
});

/** Every request the page makes to another host is recorded and refused (offline, and evidence). */
async function recordForeignRequests(page: Page): Promise<string[]> {
  const foreign: string[] = [];
  const own = new URL(stack.webUrl).host;
  await page.context().route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.host === own) return route.continue();
    foreign.push(url.href);
    return route.abort();
  });
  return foreign;
}

describe('in Chromium', () => {
  it('signing in with /login?next=/.//evil.example or /%2e%2e//evil.example ends on this site', async () => {
    const member = await stack.member();
    for (const input of ['/.//evil.example', '/%2e%2e//evil.example', '/app/..//evil.example']) {
      const { context, page } = await newVisitor(browser, stack);
      const foreign = await recordForeignRequests(page);
      await page.goto(`/login?next=${encodeURIComponent(input)}`);
      await page.getByLabel('Email').fill(member.email);
      await page.getByLabel('Password').fill(member.password);
      await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
      expect(new URL(page.url()).origin, input).toBe(stack.webUrl);
      expect(page.url(), input).toBe(`${stack.webUrl}/app/feed`);
      // Already signed in: /login?next=… goes straight on, still here.
      await page.goto(`/login?next=${encodeURIComponent(input)}`);
      expect(page.url(), input).toBe(`${stack.webUrl}/app/feed`);
      expect(foreign, input).toEqual([]);
      await context.close();
    }
  });
});
