// /app/messages in Chromium: the conversations list, a conversation page with paging, sending
// with and without JavaScript, starting a conversation with a friend, and live messages that
// reach the page through a single-use socket ticket, never through the session token.
import type { Browser, Page, Response as PageResponse } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { conversationRoom, userRoom } from '../../server/shared/realtime-publisher.js';
import { befriend, send, startConversation } from '../../tests/messaging/helpers.js';
import type { TestMember } from '../../tests/setup/harness.js';
import { expectAccessible, expectNoToken, signedInVisitor, useWebStackAndBrowser, type WebStack } from './harness.js';

let stack: WebStack;
let browser: Browser;

// Paging needs more messages than one member may send in a window by default.
useWebStackAndBrowser(
  (ready) => {
    stack = ready.stack;
    browser = ready.browser;
  },
  { apiEnv: { RATE_LIMIT_WRITES_PER_MEMBER: '500' } },
);

/** A fresh profile signed in as `member` through the login form. */
function signedIn(member: TestMember, context: { javaScriptEnabled?: boolean } = {}) {
  return signedInVisitor(browser, stack, member, { context });
}

/** Every script the page loaded, and the page itself, are free of the token. */
async function expectPageHasNoToken(page: Page, token: string) {
  expectNoToken(await page.content(), token, `the HTML of ${page.url()}`);
  const scripts = await page.evaluate(() => [...document.scripts].map((s) => s.src).filter(Boolean));
  for (const src of scripts) expectNoToken(await (await fetch(src)).text(), token, src);
}

async function friends(): Promise<[TestMember, TestMember]> {
  const a = await stack.member({ prefix: 'ana' });
  const b = await stack.member({ prefix: 'ben' });
  await befriend(stack.api, a, b);
  return [a, b];
}

const liveStatus = (page: Page) => page.locator('#live-status');

describe('the conversations list', () => {
  it('lists the conversations with unread counts, accessibly, without the token', async () => {
    const [a, b] = await friends();
    const conversation = await startConversation(stack.api, b, [a]);
    await send(stack.api, b, conversation._id, 'Leafleting on Saturday?');
    const { context, page, token } = await signedIn(a);
    await page.goto('/app/messages');
    const link = page.getByRole('link', { name: `@${b.handle}` });
    await expect.poll(() => link.count()).toBe(1);
    expect(await page.locator('.conversation-list').textContent()).toContain('1 unread');
    await expectAccessible(page);
    await expectPageHasNoToken(page, token);
    await context.close();
  });

  it('updates live, without reloading: new messages, a new conversation, a read on another device', async () => {
    const [a, b] = await friends();
    const conversation = await startConversation(stack.api, b, [a]);
    const { context, page, token } = await signedIn(a);
    await page.goto('/app/messages');
    await expect.poll(() => liveStatus(page).getAttribute('data-state'), { timeout: 10_000 }).toBe('connected');
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    const item = (id: string) => page.locator(`li[data-conversation-id="${id}"]`);
    expect(await item(conversation._id).textContent()).not.toContain('unread');

    await send(stack.api, b, conversation._id, 'Are you coming to the vigil?');
    await send(stack.api, b, conversation._id, 'We meet at six.');
    await expect.poll(() => item(conversation._id).textContent(), { timeout: 10_000 }).toContain('2 unread');
    // A group started by someone else appears, on top.
    const c = await stack.member({ prefix: 'cas' });
    await befriend(stack.api, b, c);
    const group = await startConversation(stack.api, b, [a, c], 'Vigil crew');
    await send(stack.api, b, group._id, 'Welcome, crew.');
    await expect
      .poll(() => page.locator('.conversation-list li').first().getAttribute('data-conversation-id'), {
        timeout: 10_000,
      })
      .toBe(group._id);
    expect(await item(group._id).textContent()).toContain('Vigil crew');
    // Read on another device: the badge goes here too.
    await stack.api.trpc(a.token).conversations.markRead.mutate({ id: conversation._id });
    await expect.poll(() => item(conversation._id).textContent(), { timeout: 10_000 }).not.toContain('unread');
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await expectAccessible(page);
    await expectPageHasNoToken(page, token);
    await context.close();
  });

  it('starts a conversation with a friend from the plain form (no JavaScript)', async () => {
    const [a, b] = await friends();
    const { context, page } = await signedIn(a, { javaScriptEnabled: false });
    await page.goto('/app/messages');
    await page.getByLabel(`@${b.handle}`).check();
    await page.getByRole('button', { name: 'Start conversation' }).click();
    await page.waitForURL(/\/app\/messages\/[0-9a-f-]{36}$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`@${b.handle}`);
    expect(await page.locator('.notice').textContent()).toBe('Conversation started.');

    await page.getByLabel('Message', { exact: true }).fill('Hello from a browser without scripts');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForLoadState();
    expect(await page.locator('#messages').textContent()).toContain('Hello from a browser without scripts');
    await context.close();
  });

  it('answers the API refusal when the chosen member may not be messaged (not a friend)', async () => {
    const a = await stack.member();
    const stranger = await stack.member();
    // A post the page's form would not offer (no stranger is listed): plain fetch, raw cookie.
    const response = await fetch(`${stack.webUrl}/app/messages`, {
      method: 'POST',
      headers: {
        origin: stack.webUrl,
        cookie: `app_session=${a.token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ memberIds: stranger.id }),
      redirect: 'manual',
    });
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('role="alert"');
    expect(html).not.toContain(stranger.email);
  });
});

describe('a conversation page', () => {
  it('shows the newest page of messages and pages back with a cursor', async () => {
    const [a, b] = await friends();
    const conversation = await startConversation(stack.api, a, [b]);
    for (let i = 1; i <= 35; i++) await send(stack.api, i % 2 ? a : b, conversation._id, `Message number ${i}`);
    const { context, page } = await signedIn(a);
    await page.goto(`/app/messages/${conversation._id}`);
    const bodies = () => page.locator('#messages .message-body').allTextContents();
    expect((await bodies()).length).toBe(30);
    expect((await bodies()).at(-1)).toBe('Message number 35');
    expect((await bodies())[0]).toBe('Message number 6');
    await page.getByRole('link', { name: 'Older messages' }).click();
    await page.waitForURL(/cursor=/);
    expect(await bodies()).toEqual(['1', '2', '3', '4', '5'].map((n) => `Message number ${n}`));
    await context.close();
  });

  it('answers 404 with nothing more for a conversation the member is not in', async () => {
    const [a, b] = await friends();
    const outsider = await stack.member();
    const conversation = await startConversation(stack.api, a, [b]);
    // Status and body only: a plain fetch with the outsider's API token as the cookie.
    const response = await fetch(`${stack.webUrl}/app/messages/${conversation._id}`, {
      headers: { cookie: `app_session=${outsider.token}` },
    });
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('Not found.');
    expect(html).not.toContain(a.handle);
  });

  it('delivers a message live to the other member, without reloading, and never exposes the token', async () => {
    const [a, b] = await friends();
    const conversation = await startConversation(stack.api, a, [b]);
    await send(stack.api, b, conversation._id, 'Who brings the banner?');
    const ana = await signedIn(a);
    const ben = await signedIn(b);
    const url = `/app/messages/${conversation._id}`;
    // Every ticket answer ana's page reads, from its first load on. The reads are awaited
    // below, before the context closes, so none of them can outlive the page.
    const ticketReads: Promise<string>[] = [];
    const readTicket = (response: PageResponse) => {
      if (response.url().endsWith('/app/messages/ticket')) ticketReads.push(response.text());
    };
    ana.page.on('response', readTicket);
    await Promise.all([ana.page.goto(url), ben.page.goto(url)]);
    for (const page of [ana.page, ben.page])
      await expect.poll(() => liveStatus(page).getAttribute('data-state'), { timeout: 10_000 }).toBe('connected');
    // A marker that a reload would wipe.
    await ben.page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    await ana.page.getByLabel('Message', { exact: true }).fill('I will, see you at 2');
    await ana.page.getByRole('button', { name: 'Send' }).click();
    await ben.page.getByText('I will, see you at 2').waitFor({ timeout: 10_000 });
    expect(await ben.page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    // The sender sees it once (the form's answer and the socket's event are the same message).
    await expect.poll(() => ana.page.getByText('I will, see you at 2').count()).toBe(1);
    expect(await ana.page.getByLabel('Message', { exact: true }).inputValue()).toBe('');

    await expectAccessible(ben.page);
    await expectPageHasNoToken(ana.page, ana.token);
    await expectPageHasNoToken(ben.page, ben.token);
    ana.page.off('response', readTicket);
    const tickets = await Promise.all(ticketReads);
    expect(tickets.length).toBeGreaterThan(0);
    for (const answer of tickets) expectNoToken(answer, ana.token, 'the ticket answer');

    // Deleting it for everyone (a plain form, asked first) takes it off the other page live too.
    await ana.page.getByRole('button', { name: 'Delete for everyone' }).click();
    await ana.page.waitForLoadState();
    expect(await ana.page.getByRole('heading', { level: 1 }).textContent()).toBe('Delete this message for everyone?');
    expect(await ben.page.getByText('I will, see you at 2').count()).toBe(1);
    await ana.page.getByRole('button', { name: 'Delete the message' }).click();
    await ana.page.waitForLoadState();
    expect(await ana.page.locator('.notice').textContent()).toBe('Message deleted.');
    await expect.poll(() => ben.page.getByText('I will, see you at 2').count(), { timeout: 10_000 }).toBe(0);
    expect(await ben.page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await ana.context.close();
    await ben.context.close();
  });

  it('catches up on the server’s resync: a missed message appears, the typed text stays, live delivery goes on', async () => {
    const [a, b] = await friends();
    const conversation = await startConversation(stack.api, a, [b]);
    const ana = await signedIn(a);
    await ana.page.goto(`/app/messages/${conversation._id}`);
    await expect.poll(() => liveStatus(ana.page).getAttribute('data-state'), { timeout: 10_000 }).toBe('connected');
    // A room join lost with the database link: ana's socket is no longer in the room.
    stack.realtime.io.of('/messages').in(userRoom(a.id)).socketsLeave(conversationRoom(conversation._id));
    await send(stack.api, b, conversation._id, 'Sent while the link was down');
    await ana.page.getByLabel('Message', { exact: true }).fill('half-typed reply');
    // What the server does once its link is back: rooms corrected from the table, then `resync`.
    stack.realtime.resync('server');
    await ana.page.getByText('Sent while the link was down').waitFor({ timeout: 10_000 });
    expect(await ana.page.getByLabel('Message', { exact: true }).inputValue()).toBe('half-typed reply');
    await send(stack.api, b, conversation._id, 'And live again');
    await ana.page.getByText('And live again').waitFor({ timeout: 10_000 });
    await expect.poll(() => ana.page.getByText('Sent while the link was down').count()).toBe(1);
    await ana.context.close();
  });

  it('ends live updates when the session is revoked', async () => {
    const [a, b] = await friends();
    const conversation = await startConversation(stack.api, a, [b]);
    const { context, page, token } = await signedIn(a);
    await page.goto(`/app/messages/${conversation._id}`);
    await expect.poll(() => liveStatus(page).getAttribute('data-state'), { timeout: 10_000 }).toBe('connected');
    // Revoke the browser's own session (the one the login form created).
    expect((await stack.api.request('POST', '/api/auth/logout', { token })).status).toBe(200);
    await expect.poll(() => liveStatus(page).getAttribute('data-state'), { timeout: 10_000 }).toBe('ended');
    await context.close();
  });
});

describe('the ticket endpoint', () => {
  it('refuses another origin, and gives a signed-in page a ticket that is not its token', async () => {
    const a = await stack.member();
    // Headers and the raw answer: plain fetches with the API token as the cookie.
    const crossSite = await fetch(`${stack.webUrl}/app/messages/ticket`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', cookie: `app_session=${a.token}` },
    });
    expect(crossSite.status).toBe(403);
    const sameSite = await fetch(`${stack.webUrl}/app/messages/ticket`, {
      method: 'POST',
      headers: { origin: stack.webUrl, cookie: `app_session=${a.token}` },
    });
    expect(sameSite.status).toBe(200);
    expect(sameSite.headers.get('cache-control')).toBe('no-store');
    const text = await sameSite.text();
    expectNoToken(text, a.token, 'the ticket answer');
    expect(JSON.parse(text)).toEqual({
      ticket: expect.stringMatching(/^[a-z2-7]{52}$/),
      expiresAt: expect.any(String),
    });
  });

  it('sends a revoked session to login and clears the cookie', async () => {
    const a = await stack.member();
    await stack.api.request('POST', '/api/auth/logout', { token: a.token });
    // A revoked token as the raw cookie: no login form can hand a browser one.
    const response = await fetch(`${stack.webUrl}/app/messages/ticket`, {
      method: 'POST',
      headers: { origin: stack.webUrl, cookie: `app_session=${a.token}` },
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(/^\/login/);
    expect(response.headers.get('set-cookie')).toMatch(/app_session=;.*Max-Age=0/);
  });
});
