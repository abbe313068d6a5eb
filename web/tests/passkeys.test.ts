// Passkeys in a real browser, with Chromium's virtual authenticator (DevTools protocol): add one
// on the settings page, sign out, sign in with the passkey alone; rename and remove it (asking
// first). Without JavaScript the pages say passkeys need it. The web runs on `localhost`:
// WebAuthn refuses an IP address as the relying party.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { SoftAuthenticator } from '../../tests/passkeys/soft-authenticator.js';
import { expectAccessible, newVisitor, signIn, useWebStackAndBrowser, type WebStack } from './harness.js';

let stack: WebStack;
let browser: Browser;
useWebStackAndBrowser(
  (ready) => {
    ({ stack, browser } = ready);
  },
  { webHost: 'localhost' },
);

async function withAuthenticator(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
}

it('adds a passkey in settings, then signs in with it alone; renames and removes it (asking first)', async () => {
  const member = await stack.member();
  const { context, page } = await newVisitor(browser, stack);
  try {
    await withAuthenticator(context, page);
    await signIn(page, member, '/app/settings/passkeys');
    await page.waitForURL((url) => url.pathname === '/app/settings/passkeys');
    await expect.poll(() => page.locator('#passkey-add-form').isVisible()).toBe(true);
    expect(await page.locator('[data-passkey-nojs]').isVisible()).toBe(false);
    await expectAccessible(page);

    await page.locator('#passkey-name').fill('Test laptop');
    await page.locator('#passkey-add-form button[type="submit"]').click();
    await page.locator('li.card', { hasText: 'Test laptop' }).waitFor({ timeout: 30_000 });
    const list = await stack.api.request('GET', '/api/me/passkeys', { token: member.token });
    expect(list.body.items.map((p: { name: string }) => p.name)).toEqual(['Test laptop']);

    // Sign out, then in with the passkey: no email, no password.
    await page.locator('form[action="/logout"] button').click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.goto('/login?next=/app/settings/passkeys');
    await expect.poll(() => page.locator('#passkey-sign-in').isVisible()).toBe(true);
    await expectAccessible(page);
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/app/settings/passkeys'),
      page.locator('#passkey-sign-in button').click(),
    ]);
    const after = await stack.api.request('GET', '/api/me/passkeys', { token: member.token });
    expect(after.body.items[0].lastUsedAt).not.toBeNull();

    // Rename (a plain form).
    const row = page.locator('li.card', { hasText: 'Test laptop' });
    await row.locator('input[type="text"][name="name"]').fill('Work laptop');
    await row.locator('button.secondary').click();
    await page.locator('li.card strong', { hasText: 'Work laptop' }).waitFor({ timeout: 30_000 });

    // Remove: asks first, then takes a passkey assertion instead of the password.
    await page.locator('li.card', { hasText: 'Work laptop' }).locator('button.danger').click();
    await page.locator('h1', { hasText: 'Work laptop' }).waitFor({ timeout: 30_000 });
    await expectAccessible(page);
    await expect.poll(() => page.locator('#passkey-remove-with-passkey').isVisible()).toBe(true);
    await page.locator('#passkey-remove-with-passkey button').click();
    await page.getByText('No passkeys yet.').waitFor({ timeout: 30_000 });
  } finally {
    await context.close();
  }
}, 120_000);

it('without JavaScript: says passkeys need it, and removes one with the password (asking first)', async () => {
  const member = await stack.member();
  const context = await browser.newContext({ baseURL: stack.webUrl, javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto('/login');
    expect(await page.locator('[data-passkey-nojs]').isVisible()).toBe(true);
    expect(await page.locator('#passkey-sign-in').isVisible()).toBe(false);
    // Signed in before the passkey exists: afterwards a password sign-in asks for it as the
    // second factor, which needs JavaScript.
    await signIn(page, member, '/app/settings/passkeys');
    // Then a passkey registered through the API by a software authenticator on the web's origin.
    const authenticator = new SoftAuthenticator({ origin: stack.webUrl });
    const options = await stack.api.request('POST', '/api/me/passkeys/options', { token: member.token, body: {} });
    const created = await stack.api.request('POST', '/api/me/passkeys', {
      token: member.token,
      body: {
        name: 'Old key',
        challengeId: options.body.challengeId,
        response: authenticator.register(options.body.options),
      },
    });
    expect(created.status).toBe(201);
    await page.goto('/app/settings/passkeys');
    expect(await page.locator('[data-passkey-nojs]').isVisible()).toBe(true);
    expect(await page.locator('#passkey-add-form').isVisible()).toBe(false);

    await page.locator('li.card', { hasText: 'Old key' }).locator('button.danger').click();
    await page.locator('#passkey-remove-password').fill('not my password');
    await page.locator('form:has(#passkey-remove-password) button[type="submit"]').click();
    expect(await page.locator('.form-error').first().isVisible()).toBe(true);
    expect((await stack.api.request('GET', '/api/me/passkeys', { token: member.token })).body.items).toHaveLength(1);
    await page.locator('#passkey-remove-password').fill(member.password);
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/app/settings/passkeys'),
      page.locator('form:has(#passkey-remove-password) button[type="submit"]').click(),
    ]);
    expect((await stack.api.request('GET', '/api/me/passkeys', { token: member.token })).body.items).toEqual([]);
  } finally {
    await context.close();
  }
}, 60_000);
