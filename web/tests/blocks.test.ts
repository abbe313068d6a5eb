// Block and mute in Chromium (plain forms: they work without JavaScript too): block from a
// member's page (asks first; nothing changes until confirmed), mute from a post's actions, block
// from a one-to-one conversation, then the settings sub-page lists both and lifts them; and, with
// JavaScript off, block from a group conversation's member list (both stay in the group). Each
// step is checked against the API; every page with JavaScript on is checked with axe.
import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, signedInVisitor, useWebStackAndBrowser, type WebStack } from './harness.js';

let stack: WebStack;
let browser: Browser;

useWebStackAndBrowser(
  (ready) => {
    stack = ready.stack;
    browser = ready.browser;
  },
  { apiEnv: { RATE_LIMIT_LOGIN_PER_IP: '1000', RATE_LIMIT_LOGIN_PER_ACCOUNT: '1000' } },
);

async function listed(token: string, kind: 'blocks' | 'mutes'): Promise<string[]> {
  const res = await stack.api.request('GET', `/api/me/${kind}`, { token });
  return res.body.items.map((i: { user: { handle: string } }) => i.user.handle);
}

describe('blocks and mutes on the web', () => {
  it('block from a handle page (asked first), mute from a post, block from a conversation, lift in settings', {
    timeout: 300_000,
  }, async () => {
    const [me, rude, noisy, pest] = await Promise.all([
      stack.member({ prefix: 'me' }),
      stack.member({ prefix: 'rude' }),
      stack.member({ prefix: 'noisy' }),
      stack.member({ prefix: 'pest' }),
    ]);
    const post = await stack.api.trpc(noisy.token).posts.create.mutate({
      body: 'A loud public post',
      visibility: 'public',
      imageKeys: [],
    });
    const { page, context } = await signedInVisitor(browser, stack, me);
    try {
      // From the handle page: the first submit only asks.
      page.setDefaultTimeout(30_000);
      await page.goto(`/app/handles/${rude.handle}`);
      await expectAccessible(page);
      await page.getByRole('button', { name: `Block @${rude.handle}`, exact: true }).click();
      await expect.poll(() => page.locator('h1').textContent()).toContain(`Block @${rude.handle}?`);
      await expectAccessible(page);
      expect(await listed(me.token, 'blocks')).toEqual([]);
      await Promise.all([
        page.waitForURL(`**/app/handles/${rude.handle}`),
        page.locator('form.confirm button[type="submit"]').click(),
      ]);
      expect(await page.content()).toContain(`You blocked @${rude.handle}.`);
      expect(await listed(me.token, 'blocks')).toEqual([rude.handle]);
      // From a post's actions: mute, no question asked.
      await page.goto(`/app/posts/${post._id}`);
      await Promise.all([
        page.waitForURL(`**/app/posts/${post._id}**`),
        page.getByRole('button', { name: `Mute @${noisy.handle}`, exact: true }).click(),
      ]);
      expect(await listed(me.token, 'mutes')).toEqual([noisy.handle]);
      // From a one-to-one conversation: block, confirmed, back to the conversation list.
      await stack.api.deps.database.rows(
        sql`insert into friendships (user_id, friend_id)
          values (${me.id}, ${pest.id}), (${pest.id}, ${me.id})`,
      );
      const conversation = await stack.api.trpc(pest.token).conversations.create.mutate({ memberIds: [me.id] });
      await page.goto(`/app/messages/${conversation._id}`);
      await page.getByRole('button', { name: `Block @${pest.handle}`, exact: true }).click();
      await Promise.all([
        page.waitForURL('**/app/messages'),
        page.locator('form.confirm button[type="submit"]').click(),
      ]);
      expect((await listed(me.token, 'blocks')).sort()).toEqual([rude.handle, pest.handle].sort());
      // Settings links to the sub-page, which lists both and lifts them.
      await page.goto('/app/settings');
      await Promise.all([
        page.waitForURL('**/app/settings/blocks'),
        page.getByRole('link', { name: 'See and lift your blocks and mutes' }).click(),
      ]);
      await expectAccessible(page);
      const text = (await page.locator('main').textContent()) ?? '';
      for (const handle of [rude.handle, pest.handle, noisy.handle]) expect(text).toContain(`@${handle}`);
      await Promise.all([
        page.waitForURL('**/app/settings/blocks'),
        page.getByRole('button', { name: `Unblock @${rude.handle}`, exact: true }).click(),
      ]);
      await Promise.all([
        page.waitForURL('**/app/settings/blocks'),
        page.getByRole('button', { name: `Unmute @${noisy.handle}`, exact: true }).click(),
      ]);
      expect(await listed(me.token, 'blocks')).toEqual([pest.handle]);
      expect(await listed(me.token, 'mutes')).toEqual([]);
      expect(await page.content()).toContain('You have not muted anyone.');
    } finally {
      await context.close();
    }
  });

  it('blocks from a group conversation with JavaScript off: both stay, the blocker is back in the group', {
    timeout: 300_000,
  }, async () => {
    const [me, friend, pest] = await Promise.all([
      stack.member({ prefix: 'gme' }),
      stack.member({ prefix: 'gfriend' }),
      stack.member({ prefix: 'gpest' }),
    ]);
    await stack.api.deps.database.rows(
      sql`insert into friendships (user_id, friend_id)
        values (${me.id}, ${friend.id}), (${friend.id}, ${me.id}), (${me.id}, ${pest.id}), (${pest.id}, ${me.id})`,
    );
    const group = await stack.api
      .trpc(me.token)
      .conversations.create.mutate({ memberIds: [friend.id, pest.id], title: 'Vigil crew' });
    const { page, context } = await signedInVisitor(browser, stack, me, { context: { javaScriptEnabled: false } });
    try {
      page.setDefaultTimeout(30_000);
      await page.goto(`/app/messages/${group._id}`);
      // axe needs JavaScript in the page; the group page is in the axe matrix (accessibility-matrix.test.ts).
      await page.getByText('Members: mute or block').click();
      await page.getByRole('button', { name: `Block @${pest.handle}`, exact: true }).click();
      await expect.poll(() => page.locator('h1').textContent()).toContain(`Block @${pest.handle}?`);
      await Promise.all([
        page.waitForURL(`**/app/messages/${group._id}`),
        page.locator('form.confirm button[type="submit"]').click(),
      ]);
      expect(await page.content()).toContain(`You blocked @${pest.handle}.`);
      expect(await listed(me.token, 'blocks')).toEqual([pest.handle]);
      const members = await stack.api.trpc(pest.token).conversations.get.query({ id: group._id });
      expect(members.members.map((m) => m.handle).sort()).toEqual([me.handle, friend.handle, pest.handle].sort());
    } finally {
      await context.close();
    }
  });
});
