// Sign-in alerts through the web front end and a real browser: the web server relays the
// visitor's User-Agent (X-Forwarded-User-Agent with the relay secret), so signing in from
// Chromium is a new browser family for an account registered from a script, and is mailed; the
// mail's link opens a page with one button (the GET changes nothing), which signs out every
// session once; the used link then says so.
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { linkIn } from '../../tests/setup/harness.js';
import { expectAccessible, newVisitor, signedInVisitor, useWebStackAndBrowser, type WebStack } from './harness.js';

let stack: WebStack;
let browser: Browser;
useWebStackAndBrowser((ready) => ({ stack, browser } = ready));

describe('sign-in alerts on the web', () => {
  it('mails a sign-in from a new browser, and its link signs out everywhere once', async () => {
    const member = await stack.member({ prefix: 'alert' });
    const signedIn = await signedInVisitor(browser, stack, member);
    await stack.api.settleMail();
    const mail = await stack.api.mailer.waitForMail(member.email, 'New sign-in to your account');
    expect(mail.text).toContain('from Chrome on Linux');
    const sessions = await stack.api.request('GET', '/api/me/sessions', { token: member.token });
    expect(sessions.body.items.map((s: { browser: string }) => s.browser).sort()).toEqual([
      'Chrome on Linux',
      'the API client',
    ]);

    const link = linkIn(mail);
    expect(link.origin).toBe(stack.webUrl);
    const { context, page } = await newVisitor(browser, stack);
    await page.goto(link.pathname + link.search);
    await expectAccessible(page);
    // Opening the page changed nothing.
    expect((await stack.api.request('GET', '/api/me', { token: signedIn.token })).status).toBe(200);
    await Promise.all([page.waitForURL(/\/not-me$/), page.locator('main form button[type="submit"]').click()]);
    await expect(page.locator('main [role="status"]:not([hidden])').innerText()).resolves.toBe(
      '2 sessions were signed out.',
    );
    await expectAccessible(page);
    expect((await stack.api.request('GET', '/api/me', { token: signedIn.token })).status).toBe(401);
    expect((await stack.api.request('GET', '/api/me', { token: member.token })).status).toBe(401);

    await page.goto(link.pathname + link.search);
    await page.locator('main form button[type="submit"]').click();
    await expect(page.locator('.form-error').innerText()).resolves.toContain('already used or has expired');
    await context.close();
    await signedIn.context.close();
  });
});
