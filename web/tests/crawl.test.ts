// Spec rule 6 ("Server-rendered pages contain data, never the token"), checked by crawling: an
// admin with data signs in, then every page reachable from the navigation (and the same-site
// links on those pages) is opened in Chromium, and every answer the pages load (HTML, scripts,
// styles, JSON) is scanned for the session token. A download (the CSV) is fetched and scanned too.
// The crawl runs again in German: every page says `lang="de"`, none fails, and none shows a raw
// catalog key (`settings.title`): a key missing from a catalog throws in tests (a 500) and a key
// printed as text is caught here.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Response as PageResponse } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { crawlSite, expectNoToken, signedInVisitor, useWebStackAndBrowser, type WebStack } from './harness.js';

let stack: WebStack;
let browser: Browser;

useWebStackAndBrowser((ready) => {
  stack = ready.stack;
  browser = ready.browser;
});

// Up to 60 pages in Chromium per crawl: minutes on a loaded 2-core machine, hence the timeouts.

/** Text that looks like a key of one of the web's namespaces (`common.nav.feed`). */
const namespaces = readdirSync(fileURLToPath(new URL('../locales/en', import.meta.url))).map((file) =>
  file.replace(/\.json$/, ''),
);
const rawKey = new RegExp(`(?<![\\w/@.:-])(?:${namespaces.join('|')})\\.[a-z][A-Za-z0-9]*(?:\\.[A-Za-z0-9]+)*\\b`);

describe('the crawl', () => {
  it('finds the token in no page, script, style or JSON the signed-in site serves', async () => {
    await crawl('en');
  }, 180_000);

  it('in German: every page is lang="de", none fails, none shows a raw catalog key', async () => {
    await crawl('de');
  }, 180_000);
});

async function crawl(language: 'en' | 'de'): Promise<void> {
  {
    const admin = await stack.member({ admin: true });
    // Some data, so pages are not empty: an entry in the log, a second session.
    await stack.api.request('POST', '/api/actions', {
      token: admin.token,
      body: { kind: 'outreach', occurredOn: '2026-03-01', hours: 1, note: 'Stall at the market' },
    });
    const { context, page, token } = await signedInVisitor(browser, stack, admin);
    if (language !== 'en') await context.addCookies([{ name: 'lang', value: language, url: stack.webUrl }]);
    const secrets = [token, admin.token];

    const scanned = new Set<string>();
    const pending: Promise<void>[] = [];
    page.on('response', (response: PageResponse) => {
      const url = response.url();
      if (!url.startsWith(stack.webUrl) || scanned.has(url)) return;
      scanned.add(url);
      pending.push(
        response
          .text()
          .then((body) => {
            for (const secret of secrets) expectNoToken(body, secret, url);
          })
          // Redirects and aborted loads have no body to read.
          .catch((error: Error) => {
            if (!/redirect|no resource|Target closed|body is unavailable/i.test(error.message)) throw error;
          }),
      );
    });

    const { pages, downloads } = await crawlSite(page, stack.webUrl, {
      async visit(path, answer) {
        expect(answer?.status() ?? 0, path).toBeLessThan(500);
        if (language !== 'en') {
          expect(await page.locator('html').getAttribute('lang'), path).toBe(language);
          const text = (await page.locator('body').innerText()) + (await page.title());
          expect(text.match(rawKey)?.[0], `a raw catalog key on ${path}`).toBeUndefined();
        }
        // Still signed in: the crawl never lost its session on the way.
        expect(new URL(page.url()).pathname, path).not.toBe('/login');
      },
    });
    await Promise.all(pending);

    for (const path of downloads) {
      const response = await fetch(`${stack.webUrl}${path}`, { headers: { cookie: `app_session=${token}` } });
      expect(response.status, path).toBe(200);
      const body = await response.text();
      for (const secret of secrets) expectNoToken(body, secret, path);
    }

    // The crawl saw the pages of this part and their assets.
    for (const path of ['/app/settings', '/app/actions', '/app/settings/delete']) expect(pages).toContain(path);
    expect(downloads.length).toBeGreaterThanOrEqual(1);
    expect([...scanned].some((url) => url.endsWith('/assets/app.css'))).toBe(true);
    await context.close();
  }
}
