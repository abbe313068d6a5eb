// Themes, install and offline (docs/web.md): dark mode from the system and from the switch (with
// and without JavaScript, one dark set for both), the manifest and the service worker served with the right types and
// policy, pages kept offline for the signed-in session only, and nothing left after sign-out.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appointOrganizer, createAdmin, createEvent, createGrove } from '../../tests/events/helpers.js';
import { expectAccessible, newVisitor, signedInVisitor, useSignedInStack } from './harness.js';

const { stack, browser } = useSignedInStack();

const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

/** Waits until the service worker controls the page (it claims open pages when it activates). */
async function controlledByWorker(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

const cacheNames = (page: Page) => page.evaluate(() => caches.keys());
const keptUrls = (page: Page) =>
  page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      if (!name.startsWith('pages-')) continue;
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });

describe('themes', () => {
  it('follows the system: the body turns dark under a dark colour scheme, axe clean in both', async () => {
    const { context, page } = await newVisitor(browser, stack);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    const light = await bodyBackground(page);
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await bodyBackground(page);
    expect(dark).not.toBe(light);
    expect(dark).toBe('rgb(18, 22, 20)');
    await expectAccessible(page);
    await context.close();
  });

  it('the switch overrides the system and is remembered, without JavaScript', async () => {
    const context = await browser.newContext({ baseURL: stack.webUrl, javaScriptEnabled: false, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto('/login');
    const light = await bodyBackground(page);
    await page.getByRole('button', { name: 'Dark' }).click();
    await page.waitForLoadState();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await page.getByRole('button', { name: 'Dark' }).getAttribute('aria-pressed')).toBe('true');
    expect(await bodyBackground(page)).not.toBe(light);
    await page.goto('/register');
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');

    // Back to the system's choice: no attribute, light again under a light scheme.
    await page.getByRole('button', { name: 'System' }).click();
    await page.waitForLoadState();
    expect(new URL(page.url()).pathname).toBe('/register');
    expect(await page.locator('html').getAttribute('data-theme')).toBeNull();
    expect(await bodyBackground(page)).toBe(light);
    await context.close();
  });

  it('an explicit light theme wins over a dark system, and the switched dark theme is axe clean', async () => {
    const context = await browser.newContext({ baseURL: stack.webUrl, colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto('/');
    const dark = await bodyBackground(page);
    await page.getByRole('button', { name: 'Light' }).click();
    await page.waitForLoadState();
    expect(await bodyBackground(page)).not.toBe(dark);
    expect(await bodyBackground(page)).toBe('rgb(255, 255, 255)');
    await page.getByRole('button', { name: 'Dark' }).click();
    await page.waitForLoadState();
    expect(await bodyBackground(page)).toBe(dark);
    await expectAccessible(page);
    await context.close();
  });

  it('goes back only to a path on this site', async () => {
    const response = await fetch(`${stack.webUrl}/theme`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: stack.webUrl },
      body: 'theme=dark&back=%2F%2Fevil.example',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
    expect(response.headers.get('set-cookie')).toMatch(/^theme=dark;/);
  });
});

// Every page in both themes and two languages is the accessibility matrix's
// (accessibility-matrix.test.ts), under the switch's `data-theme`. A dark system gets the same
// colours by construction: each colour is declared once as light-dark(light, dark), and only
// `color-scheme` differs (`light dark` follows the system; the switch pins one side). So the
// matrix speaks for pages that follow a dark system too, as long as no colour escapes that rule.
describe('the dark set', () => {
  it('is declared once: every colour a light-dark() pair, the system and the switch choosing only color-scheme', () => {
    const css = readFileSync(fileURLToPath(new URL('../assets/app.css', import.meta.url)), 'utf8');
    const rootStart = css.indexOf(':root {');
    const root = css.slice(rootStart, css.indexOf('}', rootStart));
    const colours = root.match(/--[a-z-]+:[^;]+;/g) ?? [];
    expect(colours.length).toBeGreaterThan(5);
    for (const colour of colours) expect(colour, colour).toMatch(/light-dark\(/);
    expect(root).toContain('color-scheme: light dark;');
    // No second palette: neither a dark media query nor a theme rule declares a colour.
    expect(css).not.toContain('prefers-color-scheme: dark');
    for (const theme of ['light', 'dark']) {
      const at = css.indexOf(`:root[data-theme="${theme}"] {`);
      expect(at, theme).toBeGreaterThan(-1);
      expect(css.slice(at, css.indexOf('}', at))).not.toMatch(/--[a-z-]+:/);
    }
  });
});

describe('install', () => {
  it('serves the manifest, its icons and the worker with the right types and policy', async () => {
    const page = await fetch(`${stack.webUrl}/`);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("manifest-src 'self'");
    expect(policy).toContain("worker-src 'self'");
    const html = await page.text();
    expect(html).toContain('<link rel="manifest" href="/assets/manifest.webmanifest"/>');

    const manifest = await fetch(`${stack.webUrl}/assets/manifest.webmanifest`);
    expect(manifest.headers.get('content-type')).toBe('application/manifest+json');
    const body = (await manifest.json()) as { display: string; start_url: string; icons: Array<{ src: string }> };
    expect(body.display).toBe('standalone');
    expect(body.start_url).toBe('/app/feed');
    for (const icon of body.icons) {
      const response = await fetch(`${stack.webUrl}${icon.src}`);
      expect(response.status, icon.src).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^image\/(png|svg\+xml)$/);
    }

    const worker = await fetch(`${stack.webUrl}/sw.js`);
    expect(worker.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    const source = await worker.text();
    expect(source).not.toContain('__ASSET_VERSION__');
    expect(source).toMatch(/const VERSION = '[0-9a-f]{16}';/);
  });
});

describe('offline pages', () => {
  it('keeps a visited event offline for the session, never messages, and forgets all at sign-out', async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin);
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const event = await createEvent(stack.api, organizer, { groveId: grove._id });
    const member = await stack.member({ prefix: 'off' });
    const { context, page } = await signedInVisitor(browser, stack, member);
    await controlledByWorker(page);

    const eventPath = `/app/events/${event.slug}`;
    // Arriving through a form's redirect (as after an RSVP) keeps the page too.
    await page.evaluate((back) => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = '/theme';
      const fields: Array<[string, string]> = [
        ['theme', 'system'],
        ['back', back],
      ];
      for (const [name, value] of fields) {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = name;
        input.value = value;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    }, eventPath);
    await page.waitForURL(`**${eventPath}`);
    await expect.poll(() => keptUrls(page)).toContain(eventPath);
    const eventPage = await page.goto(eventPath);
    expect(eventPage?.headers()['cache-control']).toBe('private, no-cache');
    expect(eventPage?.headers()['x-offline-cache']).toMatch(/^[\w-]{22}$/);
    const messages = await page.goto('/app/messages');
    expect(messages?.headers()['cache-control']).toBe('no-store');
    await expect.poll(() => keptUrls(page)).toContain(eventPath);
    expect(await keptUrls(page)).not.toContain('/app/messages');

    await context.setOffline(true);
    await page.goto(eventPath);
    await expect.poll(() => page.locator('[data-offline-banner]').isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(event.title);
    await expect(page.goto('/app/messages')).rejects.toThrow();
    await context.setOffline(false);

    await page.goto('/app/feed');
    await page.getByRole('button', { name: /^Sign out/ }).click();
    await page.waitForURL('**/login');
    await expect.poll(() => cacheNames(page)).toEqual([]);
    await context.close();
  });

  it('a page served online shows no offline banner', async () => {
    const { context, page } = await newVisitor(browser, stack);
    await page.goto('/');
    expect(await page.locator('[data-offline-banner]').isVisible()).toBe(false);
    await context.close();
  });
});
