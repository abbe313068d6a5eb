// Posts read like the apps people know, in Chromium: addresses, @handles and #tags in a post are
// links (external ones with rel="nofollow noopener ugc"), a #tag opens the public feed filtered by
// that tag, and empty feeds and friend lists say what to do next. axe-checked.
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, signedInVisitor, useWebStackAndBrowser, type WebStack } from './harness.js';

let stack: WebStack;
let browser: Browser;

useWebStackAndBrowser((ready) => {
  stack = ready.stack;
  browser = ready.browser;
});

const STEP_TIMEOUT = 90_000;

describe('links in posts', () => {
  it('links the address, the handle and the tag; the tag opens the filtered public feed', {
    timeout: STEP_TIMEOUT,
  }, async () => {
    const [author, friend, reader] = await Promise.all([
      stack.member({ prefix: 'author' }),
      stack.member({ prefix: 'friend' }),
      stack.member({ prefix: 'reader' }),
    ]);
    const tag = `Potluck${Date.now()}`;
    const body = `Meet @${friend.handle} at https://example.org/meet. Bring food! #${tag} "><script>alert(1)</script>`;
    await stack.api.trpc(author.token).posts.create.mutate({ body, visibility: 'public' });
    await stack.api.trpc(author.token).posts.create.mutate({ body: `Untagged news ${tag}`, visibility: 'public' });

    const { context, page } = await signedInVisitor(browser, stack, reader, { next: '/app/feed?scope=public' });
    const card = page.locator('article.post', { hasText: 'Bring food!' });
    const external = card.getByRole('link', { name: 'https://example.org/meet' });
    expect(await external.getAttribute('href')).toBe('https://example.org/meet');
    expect(await external.getAttribute('rel')).toBe('nofollow noopener ugc');
    expect(await external.getAttribute('target')).toBeNull();
    expect(await card.getByRole('link', { name: `@${friend.handle}` }).getAttribute('href')).toBe(
      `/app/handles/${friend.handle}`,
    );
    // The author's markup is text, not a script.
    expect(await card.locator('.post-body script').count()).toBe(0);
    expect(await card.locator('.post-body').textContent()).toContain('"><script>alert(1)</script>');

    await card.getByRole('link', { name: `#${tag}` }).click();
    const url = new URL(page.url());
    expect(url.pathname).toBe('/app/feed');
    expect(url.searchParams.get('tag')).toBe(tag.toLowerCase());
    expect(await page.getByRole('heading', { level: 2, name: /tagged/ }).textContent()).toContain(
      `#${tag.toLowerCase()}`,
    );
    expect(await page.locator('article.post', { hasText: 'Bring food!' }).count()).toBe(1);
    expect(await page.locator('article.post', { hasText: 'Untagged news' }).count()).toBe(0);
    await expectAccessible(page);

    // A tag nobody used: an empty state with the way back.
    await page.goto(`/app/feed?scope=public&tag=nobody${Date.now()}`);
    expect(await page.getByText(/No posts tagged/).count()).toBe(1);
    await page.getByRole('link', { name: 'See all posts' }).click();
    expect(new URL(page.url()).searchParams.get('tag')).toBeNull();
    await context.close();
  });
});

describe('empty states', () => {
  it('an empty feed points to groves and invites; an empty friends list to invite codes', {
    timeout: STEP_TIMEOUT,
  }, async () => {
    const loner = await stack.member({ prefix: 'loner' });
    const { context, page } = await signedInVisitor(browser, stack, loner, { next: '/app/feed' });
    expect(await page.getByRole('link', { name: 'Find a grove' }).getAttribute('href')).toBe('/app/groves');
    await page.getByRole('link', { name: 'Invite a friend' }).click();
    expect(new URL(page.url()).pathname).toBe('/app/friends');
    expect(await page.getByRole('link', { name: 'Create an invite code' }).getAttribute('href')).toBe(
      '#invite-heading',
    );
    expect(await page.getByRole('link', { name: 'Enter it below' }).getAttribute('href')).toBe('#accept-heading');
    await expectAccessible(page);
    await context.close();
  });
});

describe('in German, light and dark', () => {
  it('the feed, a post with its confirmation, and the friends page speak German and pass axe', {
    timeout: STEP_TIMEOUT,
  }, async () => {
    const member = await stack.member({ prefix: 'berlin' });
    const post = await stack.api
      .trpc(member.token)
      .posts.create.mutate({ body: 'Kundgebung am Samstag #Tierschutz', visibility: 'public' });
    const { context, page } = await signedInVisitor(browser, stack, member);
    await context.addCookies([{ name: 'lang', value: 'de', url: stack.webUrl }]);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/app/feed?scope=friends');
      expect(await page.locator('html').getAttribute('lang')).toBe('de');
      expect(await page.getByRole('heading', { name: 'Beitrag schreiben' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Veröffentlichen' }).count()).toBe(1);
      expect(await page.getByRole('link', { name: 'Keine Kommentare' }).count()).toBe(1);
      await expectAccessible(page);
      await page.goto('/app/friends');
      expect(await page.getByRole('link', { name: 'Erstelle einen Einladungscode' }).count()).toBe(1);
      await expectAccessible(page);
    }
    // Asking first, in German.
    await page.goto(`/app/posts/${post._id}`);
    await page.getByRole('button', { name: /^Löschen/ }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Diesen Beitrag löschen?');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Beitrag löschen' }).click();
    expect(await page.getByRole('status').first().textContent()).toContain('Der Beitrag ist gelöscht.');
    await context.close();
  });
});
