// Languages and time in a real Chromium: a German browser gets German pages and can switch; the
// choice sticks (cookie, and on the account when signed in); the account's language and zone
// follow the member to a new browser; the footer says which zone times are in; German pages pass
// axe.
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, newVisitor, signedInVisitor, useWebStackAndBrowser, type WebStack } from './harness.js';

let stack: WebStack;
let browser: Browser;

useWebStackAndBrowser((ready) => {
  stack = ready.stack;
  browser = ready.browser;
});

async function account(token: string): Promise<{ locale: string | null; timeZone: string | null }> {
  const response = await stack.api.request('GET', '/api/me', { token });
  return response.body as { locale: string | null; timeZone: string | null };
}

describe('languages', () => {
  it('gives a German browser German pages, switches to English, and the choice sticks', async () => {
    const context = await browser.newContext({ baseURL: stack.webUrl, locale: 'de-DE' });
    const page = await context.newPage();
    await page.goto('/');
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await page.locator('html').getAttribute('dir')).toBe('ltr');
    await expect.poll(() => page.getByRole('link', { name: 'Anmelden' }).count()).toBeGreaterThan(0);
    await expectAccessible(page);

    await page.goto('/login');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Anmelden');
    await page.getByLabel('Sprache').selectOption('en');
    await Promise.all([page.waitForURL('**/login'), page.getByRole('button', { name: 'Ändern' }).click()]);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');
    const cookie = (await context.cookies()).find((entry) => entry.name === 'lang');
    expect(cookie?.value).toBe('en');
    expect(cookie?.httpOnly).toBe(true);

    // Still English on the next visit, although the browser still asks for German.
    await page.goto('/');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await context.close();
  });

  it('remembers a signed-in member’s choice on the account, which a new browser follows', async () => {
    const member = await stack.member();
    const first = await signedInVisitor(browser, stack, member, { next: '/app/settings' });
    await first.page.locator('#language-select').selectOption('fr');
    await Promise.all([
      first.page.waitForURL('**/app/settings'),
      first.page.getByRole('button', { name: 'Change', exact: true }).click(),
    ]);
    expect(await first.page.locator('html').getAttribute('lang')).toBe('fr');
    expect(await first.page.getByRole('heading', { level: 1 }).textContent()).toBe('Paramètres');
    expect((await account(member.token)).locale).toBe('fr');
    await first.context.close();

    // Another browser, English by its header and without the cookie: the account's French wins.
    const second = await signedInVisitor(browser, stack, member, { next: '/app/settings' });
    expect(await second.page.locator('html').getAttribute('lang')).toBe('fr');
    await expectAccessible(second.page);
    await second.context.close();
  });

  it('sets language and time zone in the settings, and the footer says which zone times are in', async () => {
    const member = await stack.member();
    const { context, page } = await signedInVisitor(browser, stack, member, {
      next: '/app/settings',
      context: { timezoneId: 'Europe/Lisbon' },
    });
    // The browser's zone (told by /assets/time-zone.js) from the next page on.
    await page.reload();
    expect(await page.locator('.time-zone-note').textContent()).toBe('Times in Europe/Lisbon (your browser)');

    await page.locator('#settings-locale').selectOption('de');
    await page.locator('#settings-time-zone').selectOption('America/New_York');
    await Promise.all([
      page.waitForURL('**/app/settings'),
      page.getByRole('button', { name: 'Save language and time zone' }).click(),
    ]);
    expect(await page.getByRole('status').textContent()).toBe('Sprache und Zeitzone gespeichert.');
    expect(await page.locator('.time-zone-note').textContent()).toBe(
      'Zeiten in America/New_York (deine Kontoeinstellung)',
    );
    expect(await account(member.token)).toMatchObject({ locale: 'de', timeZone: 'America/New_York' });
    // The sessions list writes its dates in the account's zone, the German way.
    expect(await page.locator('ul[aria-label="Sitzungen"] li').first().textContent()).toMatch(/Angemeldet \d/);
    await expectAccessible(page);

    // Back to the browser's choices: the account forgets both.
    await page.locator('#settings-locale').selectOption('');
    await page.locator('#settings-time-zone').selectOption('');
    await Promise.all([
      page.waitForURL('**/app/settings'),
      page.getByRole('button', { name: 'Sprache und Zeitzone speichern' }).click(),
    ]);
    expect(await account(member.token)).toMatchObject({ locale: null, timeZone: null });
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await context.close();
  });

  it('shows the 404 page and a sign-in refusal in the visitor’s language', async () => {
    const { context, page } = await newVisitor(browser, stack);
    await context.addCookies([{ name: 'lang', value: 'es', url: stack.webUrl }]);
    const missing = await page.goto('/no/such/page');
    expect(missing?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Página no encontrada');

    await page.goto('/register');
    await page.getByLabel('Correo electrónico').fill('someone@example.test');
    await page.getByLabel('Contraseña').fill('short');
    await page.getByLabel('Alias').fill('someone_es');
    // The browser's own check (minlength) is bypassed, as a script-free client might.
    await page.locator('#register-password').evaluate((input) => input.removeAttribute('minlength'));
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Crear cuenta' }).click()]);
    expect(await page.getByRole('alert').textContent()).toBe('Contraseña: debe tener al menos 8 caracteres.');
    await context.close();
  });
});
