// Two-step sign-in in a real browser (plain forms; axe needs the page's JavaScript on): turn it on in settings (the QR code is
// an inline SVG drawn on the server, the secret is on the page as text), confirm with a code
// computed from that secret, see the ten recovery codes once; sign in from a fresh profile with
// the password and then a code; turn it off again (asking first, with a recovery code).
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { totpCode } from '../../tests/setup/two-factor.js';
import { expectAccessible, newVisitor, useSignedInStack } from './harness.js';

const { stack, browser, visitor } = useSignedInStack();

it('turns on two-step sign-in, signs in with a code, and turns it off asking first', async () => {
  const member = await stack.member();
  const { context, page } = await visitor(member, { next: '/app/settings' });
  try {
    page.setDefaultTimeout(20_000);
    await page.waitForURL((url) => url.pathname === '/app/settings');
    await page.locator('a[href="/app/settings/two-factor"]').click();
    await page.waitForURL((url) => url.pathname === '/app/settings/two-factor');
    await expectAccessible(page);
    await page.locator('#two-factor-start-password').fill(member.password);
    await page.locator('form:has(#two-factor-start-password) button[type="submit"]').click();
    await page.locator('#two-factor-secret').waitFor();
    expect(await page.locator('.qr-code svg').count()).toBe(1);
    await expectAccessible(page);
    const secretText = (await page.locator('#two-factor-secret').textContent()) ?? '';
    const secret = decodeBase32IgnorePadding(secretText.replace(/\s/g, ''));

    // A wrong code keeps the scan step (and its QR code) on screen.
    await page.locator('#two-factor-confirm-code').fill('000000' === totpCode(stack.api, secret) ? '111111' : '000000');
    await page.locator('form:has(#two-factor-confirm-code) button[type="submit"]').click();
    await page.locator('.form-error').waitFor();
    expect(await page.locator('.qr-code svg').count()).toBe(1);

    await page.locator('#two-factor-confirm-code').fill(totpCode(stack.api, secret));
    await page.locator('form:has(#two-factor-confirm-code) button[type="submit"]').click();
    await page.locator('#two-factor-recovery-codes').waitFor();
    const recoveryCodes = await page.locator('#two-factor-recovery-codes code').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await expectAccessible(page);
    stack.api.clock.advance(30_000);

    // A fresh profile: the password alone is not enough, the code step follows.
    const fresh = await newVisitor(browser, stack);
    try {
      await fresh.page.goto('/login');
      await fresh.page.locator('#login-email').fill(member.email);
      await fresh.page.locator('#login-password').fill(member.password);
      await fresh.page.locator('form:has(#login-email) button[type="submit"]').click();
      await fresh.page.locator('#second-factor-code').waitFor();
      expect(new URL(fresh.page.url()).pathname.startsWith('/app/')).toBe(false);
      await fresh.page.locator('#second-factor-code').fill(totpCode(stack.api, secret));
      await Promise.all([
        fresh.page.waitForURL((url) => url.pathname.startsWith('/app/')),
        fresh.page.locator('form:has(#second-factor-code) button[type="submit"]').click(),
      ]);
    } finally {
      await fresh.context.close();
    }

    // Turning off asks first, and needs the password and a code (here a recovery code).
    await page.goto('/app/settings/two-factor');
    await page.locator('form[action="/app/settings/two-factor/disable"] button[type="submit"]').click();
    await page.locator('#two-factor-off-code').waitFor();
    await expectAccessible(page);
    await page.locator('#two-factor-off-password').fill(member.password);
    await page.locator('#two-factor-off-code').fill(recoveryCodes[0]!);
    await page.locator('form:has(#two-factor-off-code) button[type="submit"]').click();
    await page.waitForURL((url) => url.pathname === '/app/settings/two-factor');
    await page.locator('#two-factor-start-password').waitFor();
    const state = await stack.api.request('GET', '/api/me/second-factors', { token: member.token });
    expect(state.body).toMatchObject({ totp: false, recoveryCodesLeft: 0 });
  } finally {
    await context.close();
  }
});

it('asks an account without a password for no password (made by a link, Apple or Google)', async () => {
  const member = await stack.member();
  const { context, page } = await visitor(member, { next: '/app/settings' });
  try {
    page.setDefaultTimeout(20_000);
    await page.waitForURL((url) => url.pathname === '/app/settings');
    // Signed in; the password goes as if the account had been made without one.
    await stack.api.deps.database.rows(sql`update users set password_hash = null where id = ${member.id}::uuid`);
    const me = await stack.api.request('GET', '/api/me', { token: member.token });
    expect(me.body).toMatchObject({ hasPassword: false });
    await page.goto('/app/settings/two-factor');
    const start = page.locator(`form[action="/app/settings/two-factor/start"]`);
    await start.waitFor();
    expect(await page.locator('#two-factor-start-password').count()).toBe(0);
    await start.locator('button[type="submit"]').click();
    await page.locator('#two-factor-secret').waitFor();
  } finally {
    await context.close();
  }
});
