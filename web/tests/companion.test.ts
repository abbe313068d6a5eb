// /app/companion in Chromium, against the embedded retrieval default (no language model
// configured: the API answers from the published guides and media). The reply streams into the
// page through the web server's same-origin relay of the API's server-sent events; without
// JavaScript the form shows the stored reply. Pin, unpin, delete; the token never reaches the page.
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createGuide, uniqueSlug } from '../../tests/library/helpers.js';
import type { TestMember } from '../../tests/setup/harness.js';
import { expectAccessible, expectNoToken, signedInVisitor, useWebStackAndBrowser, type WebStack } from './harness.js';

let stack: WebStack;
let browser: Browser;
/** A word no other test uses, so retrieval finds exactly the guide seeded here. */
const topic = `quorbly${process.pid.toString(36)}${Date.now().toString(36)}`;
let guide: { slug: string; title: string };

useWebStackAndBrowser((ready) => {
  stack = ready.stack;
  browser = ready.browser;
});

beforeAll(async () => {
  const admin = await stack.member({ admin: true });
  const category = await createCategory(stack.api, admin);
  guide = await createGuide(stack.api, admin, category, {
    title: `Street stalls with ${topic}`,
    slug: uniqueSlug('g'),
    summary: `How to run a ${topic} stall on a busy Saturday.`,
    body: 'Bring a table, leaflets and water.',
  });
});

/** A fresh profile signed in as `member` through the login form. */
function signedIn(member: TestMember, context: { javaScriptEnabled?: boolean } = {}) {
  return signedInVisitor(browser, stack, member, { context });
}

async function expectPageHasNoToken(page: Page, token: string) {
  expectNoToken(await page.content(), token, `the HTML of ${page.url()}`);
  const scripts = await page.evaluate(() => [...document.scripts].map((s) => s.src).filter(Boolean));
  for (const src of scripts) expectNoToken(await (await fetch(src)).text(), token, src);
}

/**
 * A POST to the web as `member` without a browser: the stream endpoint's headers and raw answer
 * are what is tested, so a plain `fetch` with the API token as the raw cookie.
 */
const post = (path: string, member: TestMember | null, body: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.webUrl}${path}`, {
    method: 'POST',
    headers: {
      origin: stack.webUrl,
      'content-type': 'application/json',
      ...(member ? { cookie: `app_session=${member.token}` } : {}),
      ...headers,
    },
    body,
    redirect: 'manual',
  });

describe('a new chat', () => {
  it('streams the retrieval answer into the page, labelled, with its source', async () => {
    const m = await stack.member();
    const { context, page, token } = await signedIn(m);
    await page.goto('/app/companion');
    const streamed: string[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/app/companion/stream')) streamed.push(response.headers()['content-type'] ?? '');
    });
    await page.getByLabel('Your message').fill(`How do I run a ${topic} stall?`);
    await page.getByRole('button', { name: 'Send' }).click();

    const reply = page.locator('#transcript li.message:not(.own)');
    await page.locator('.source-label').waitFor({ timeout: 10_000 });
    expect(await page.locator('.source-label').textContent()).toContain('Retrieval answer');
    await page.locator('#transcript li[data-state="done"]').waitFor({ timeout: 10_000 });
    expect(streamed).toEqual(['text/event-stream; charset=utf-8']);
    expect(await reply.locator('.message-body').textContent()).toContain(guide.title);
    expect(await reply.getByRole('link', { name: guide.title }).getAttribute('href')).toBe(`/app/guides/${guide.slug}`);
    expect(await page.locator('#transcript li.own .message-body').textContent()).toBe(`How do I run a ${topic} stall?`);
    // The address of the stored conversation, without a reload.
    expect(new URL(page.url()).pathname).toMatch(/^\/app\/companion\/[0-9a-f-]{36}$/);

    await expectAccessible(page);
    await expectPageHasNoToken(page, token);

    // A reload shows the stored turn, and the next message continues the same conversation.
    await page.reload();
    expect(await page.locator('#transcript li').count()).toBe(2);
    await page.getByLabel('Your message').fill(`And a ${topic} stall in the rain?`);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('#transcript li[data-state="done"]').count(), { timeout: 10_000 }).toBe(1);
    expect((await stack.api.trpc(m.token).companion.listConversations.query({})).items).toHaveLength(1);
    await expectAccessible(page);
    await context.close();
  });

  it('works without JavaScript: the form posts and the page shows the stored reply', async () => {
    const m = await stack.member();
    const { context, page } = await signedIn(m, { javaScriptEnabled: false });
    await page.goto('/app/companion');
    await page.getByLabel('Your message').fill(`Tips for a ${topic} stall`);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/app\/companion\/[0-9a-f-]{36}$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Tips for a ${topic} stall`);
    expect(await page.locator('.source-label').textContent()).toContain('Retrieval answer');
    expect(await page.locator('#transcript').textContent()).toContain(guide.title);
    await context.close();
  });
});

describe('conversations', () => {
  it('pins, unpins and deletes a conversation from the list', async () => {
    const m = await stack.member();
    const client = stack.api.trpc(m.token);
    const first = await client.companion.chat.mutate({ message: `First ${topic} question` });
    await client.companion.chat.mutate({ message: `Second ${topic} question` });
    const { context, page } = await signedIn(m);
    await page.goto('/app/companion');
    const titles = () => page.locator('.conversation-list li > a').allTextContents();
    expect(await titles()).toEqual([`Second ${topic} question`, `First ${topic} question`]);

    await page.getByRole('button', { name: `Pin “First ${topic} question”` }).click();
    await page.waitForLoadState();
    expect(await page.locator('.notice').textContent()).toBe('Conversation pinned.');
    expect(await titles()).toEqual([`First ${topic} question`, `Second ${topic} question`]);
    expect(await page.locator('.conversation-list li').first().textContent()).toContain('Pinned');
    await expectAccessible(page);

    await page.getByRole('button', { name: `Unpin “First ${topic} question”` }).click();
    await page.waitForLoadState();
    expect(await page.locator('.notice').textContent()).toBe('Conversation unpinned.');

    await page.getByRole('button', { name: `Delete “Second ${topic} question”` }).click();
    await page.waitForLoadState();
    // Asked first: nothing is deleted until the confirming button.
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Delete this companion conversation?');
    expect((await client.companion.listConversations.query({})).items).toHaveLength(2);
    await page.getByRole('button', { name: 'Delete the conversation' }).click();
    await page.waitForLoadState();
    expect(await page.locator('.notice').textContent()).toBe('Conversation deleted.');
    expect(await titles()).toEqual([`First ${topic} question`]);
    expect((await client.companion.listConversations.query({})).items.map((c) => c._id)).toEqual([
      first.conversationId,
    ]);
    await context.close();
  });

  it("answers 404 for another member's conversation, on the page and through the stream", async () => {
    const owner = await stack.member();
    const other = await stack.member();
    const { conversationId } = await stack.api.trpc(owner.token).companion.chat.mutate({ message: `Private ${topic}` });
    // Status and body only: a plain fetch with the other member's API token as the cookie.
    const page = await fetch(`${stack.webUrl}/app/companion/${conversationId}`, {
      headers: { cookie: `app_session=${other.token}` },
    });
    expect(page.status).toBe(404);
    expect(await page.text()).not.toContain(`Private ${topic}`);
    const stream = await post('/app/companion/stream', other, JSON.stringify({ conversationId, message: 'And?' }));
    expect(stream.status).toBe(404);
    expect((await stream.json()).error.code).toBe('not_found');
  });
});

describe('the stream endpoint', () => {
  it('refuses another origin, and passes the API refusal through unchanged', async () => {
    const m = await stack.member();
    const crossSite = await post('/app/companion/stream', m, JSON.stringify({ message: 'hi' }), {
      origin: 'https://evil.example',
    });
    expect(crossSite.status).toBe(403);
    const empty = await post('/app/companion/stream', m, JSON.stringify({ message: '' }));
    expect(empty.status).toBe(400);
    expect((await empty.json()).error.code).toBe('validation_failed');
    const huge = await post('/app/companion/stream', m, JSON.stringify({ message: 'x'.repeat(30_000) }));
    expect(huge.status).toBe(413);
  });

  it('relays the event stream, and a revoked session gets 401 with the cookie cleared', async () => {
    const m = await stack.member();
    const ok = await post('/app/companion/stream', m, JSON.stringify({ message: `Quick ${topic}` }));
    expect(ok.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await ok.text();
    expect(text).toMatch(/^event: meta\n/);
    expect(text).toContain('event: done');
    expectNoToken(text, m.token, 'the relayed stream');

    await stack.api.request('POST', '/api/auth/logout', { token: m.token });
    const revoked = await post('/app/companion/stream', m, JSON.stringify({ message: 'hi' }));
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('set-cookie')).toMatch(/app_session=;.*Max-Age=0/);
  });
});
