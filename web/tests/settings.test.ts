// /app/settings in Chromium: the account (handle, email, password), sessions with revoke (one,
// all others), notification preferences, the stolen-phone panic and account deletion behind a
// confirmation, each checked against the API afterwards.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestMember } from '../../tests/setup/harness.js';
import { expectAccessible, expectNoToken, signedInVisitor, useWebStackAndBrowser, type WebStack } from './harness.js';

let stack: WebStack;
let browser: Browser;

useWebStackAndBrowser(
  (ready) => {
    stack = ready.stack;
    browser = ready.browser;
  },
  {
    apiEnv: { RATE_LIMIT_LOGIN_PER_IP: '1000', RATE_LIMIT_LOGIN_PER_ACCOUNT: '1000' },
  },
);

async function tokenWorks(token: string): Promise<boolean> {
  return (await stack.api.request('GET', '/api/me', { token })).status === 200;
}

/** Another sign-in of the member through the API (another device). */
async function anotherSession(member: TestMember): Promise<string> {
  const response = await stack.api.request('POST', '/api/auth/login', {
    body: { email: member.email, password: member.password },
  });
  expect(response.status).toBe(200);
  return response.body.token;
}

async function browserToken(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies()).find((cookie) => cookie.name === 'app_session')?.value;
}

async function submit(page: Page, button: string, url = '**/app/settings') {
  await Promise.all([page.waitForURL(url), page.getByRole('button', { name: button, exact: true }).click()]);
}

async function notice(page: Page): Promise<string> {
  return (await page.getByRole('status').textContent()) ?? '';
}

describe('settings', () => {
  it('shows the account and the sessions, accessibly and without the token', async () => {
    const member = await stack.member();
    const { context, page } = await signedInVisitor(browser, stack, member, { next: '/app/settings' });
    const response = await page.goto('/app/settings');
    const html = await response!.text();
    expectNoToken(html, (await browserToken(context))!, 'the settings page');
    expectNoToken(html, member.token, 'the settings page');
    const main = page.locator('main');
    await expect.poll(() => main.textContent()).toContain(`@${member.handle}`);
    expect(await main.textContent()).toContain(member.email);
    // Two sessions: the one from registering (member.token) and this browser's.
    const sessions = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
    expect(await sessions.count()).toBe(2);
    expect(await sessions.filter({ hasText: 'this browser' }).count()).toBe(1);
    await expectAccessible(page);
    await context.close();
  });

  it('changes the handle; a wrong current password is refused with the API message', async () => {
    const member = await stack.member();
    const { context, page } = await signedInVisitor(browser, stack, member, { next: '/app/settings' });
    const handle = `renamed_${Date.now().toString(36)}`;
    await page.getByLabel('Handle').fill(handle);
    await submit(page, 'Change handle');
    expect(await notice(page)).toContain(`@${handle}`);
    expect((await stack.api.trpc(member.token).me.get.query({})).handle).toBe(handle);

    const emailForm = page.locator('form[action="/app/settings/email"]');
    await emailForm.getByLabel('New email').fill(`new-${handle}@example.test`);
    await emailForm.getByLabel('Current password').fill('not the password');
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/app/settings/email')),
      emailForm.getByRole('button', { name: 'Change email' }).click(),
    ]);
    expect(refused.status()).toBe(403);
    await page.waitForLoadState();
    expect(await page.locator('form[action="/app/settings/email"]').getByLabel('New email').inputValue()).toBe(
      `new-${handle}@example.test`,
    );
    expect(await page.getByRole('alert').count()).toBe(1);
    await expectAccessible(page);
    expect((await stack.api.trpc(member.token).me.get.query({})).email).toBe(member.email);
    await context.close();
  });

  it('changes the password: other sessions end, this one stays', async () => {
    const member = await stack.member();
    const { context, page } = await signedInVisitor(browser, stack, member, { next: '/app/settings' });
    const passwordForm = page.locator('form[action="/app/settings/password"]');
    await passwordForm.getByLabel('Current password').fill(member.password);
    await passwordForm.getByLabel('New password').fill('a brand new pass phrase');
    await submit(page, 'Change password');
    expect(await notice(page)).toMatch(/password was changed/);
    expect(await tokenWorks(member.token)).toBe(false);
    expect(await tokenWorks((await browserToken(context))!)).toBe(true);
    const login = await stack.api.request('POST', '/api/auth/login', {
      body: { email: member.email, password: 'a brand new pass phrase' },
    });
    expect(login.status).toBe(200);
    await context.close();
  });

  it('revokes one session, then all other sessions', async () => {
    const member = await stack.member();
    const { context, page } = await signedInVisitor(browser, stack, member, { next: '/app/settings' });
    const sessions = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
    expect(await sessions.count()).toBe(2);
    await Promise.all([
      page.waitForURL('**/app/settings'),
      sessions.filter({ hasNotText: 'this browser' }).getByRole('button').click(),
    ]);
    expect(await notice(page)).toMatch(/signed out/);
    expect(await tokenWorks(member.token)).toBe(false);
    expect(await sessions.count()).toBe(1);
    expect(await page.locator('main').textContent()).toContain('No other sessions.');

    const phone = await anotherSession(member);
    const laptop = await anotherSession(member);
    await page.reload();
    expect(await sessions.count()).toBe(3);
    await submit(page, 'Sign out all other sessions');
    expect(await notice(page)).toBe('Signed out 2 other sessions.');
    expect(await tokenWorks(phone)).toBe(false);
    expect(await tokenWorks(laptop)).toBe(false);
    expect(await tokenWorks((await browserToken(context))!)).toBe(true);
    await context.close();
  });

  it('saves notification preferences (unticked boxes are off)', async () => {
    const member = await stack.member();
    const { context, page } = await signedInVisitor(browser, stack, member, { next: '/app/settings' });
    const push = page.getByRole('group', { name: 'Push notifications' });
    const email = page.getByRole('group', { name: 'Email notifications' });
    await push.getByLabel('A decision on a report you filed').uncheck();
    await email.getByLabel('New messages').check();
    await page.getByLabel('Show event titles and times in push notifications').check();
    await submit(page, 'Save notification settings');
    expect(await notice(page)).toBe('Notification settings saved.');
    const saved = await stack.api.trpc(member.token).me.getNotificationPreferences.query({});
    expect(saved.push).toEqual({
      eventReminders: true,
      eventUpdates: true,
      messages: true,
      friendInvitesAccepted: true,
      reportOutcomes: false,
    });
    expect(saved.email.messages).toBe(true);
    expect(saved.email.eventReminders).toBe(false);
    expect(saved.pushShowsDetails).toBe(true);
    expect(await push.getByLabel('A decision on a report you filed').isChecked()).toBe(false);
    expect(await email.getByLabel('New messages').isChecked()).toBe(true);
    await context.close();
  });

  it('panic: every session ends, this one too, and the visitor is at login', async () => {
    const member = await stack.member();
    const { context, page } = await signedInVisitor(browser, stack, member, { next: '/app/settings' });
    const browserSession = (await browserToken(context))!;
    await submit(page, 'Sign out everywhere now', '**/login');
    expect(await notice(page)).toMatch(/Every session was signed out/);
    expect(await browserToken(context)).toBeUndefined();
    expect(await tokenWorks(browserSession)).toBe(false);
    expect(await tokenWorks(member.token)).toBe(false);
    await context.close();
  });

  it('deletes the account only after the handle is typed; then the cookie is gone and the start page says so', async () => {
    const member = await stack.member();
    const { context, page } = await signedInVisitor(browser, stack, member, { next: '/app/settings' });
    await Promise.all([
      page.waitForURL('**/app/settings/delete'),
      page.getByRole('link', { name: 'Delete my account…' }).click(),
    ]);
    await expectAccessible(page);
    await page.getByLabel('Type your handle to confirm').fill('someone_else');
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/app/settings/delete') && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Delete my account for good' }).click(),
    ]);
    expect(refused.status()).toBe(400);
    expect(await tokenWorks(member.token)).toBe(true);
    await page.getByLabel('Type your handle to confirm').fill(`@${member.handle}`);
    await Promise.all([
      page.waitForURL(`${stack.webUrl}/`),
      page.getByRole('button', { name: 'Delete my account for good' }).click(),
    ]);
    expect(await notice(page)).toMatch(/deleted/);
    expect(await browserToken(context)).toBeUndefined();
    expect(await tokenWorks(member.token)).toBe(false);
    const login = await stack.api.request('POST', '/api/auth/login', {
      body: { email: member.email, password: member.password },
    });
    expect(login.status).toBe(401);
    await context.close();
  });
});
