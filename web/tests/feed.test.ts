// The social pages in Chromium: two members become friends through an invite code in the web UI,
// a friends-only post appears in the friend's feed, reactions, comments and saves work, a third
// member gets the 404 page, the friend reports the post, an admin resolves the report with a
// public note and hides the post, the reporter sees the outcome, and the post is gone for
// everyone but admins. Every page is checked with axe and scanned for the session token.
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestMember } from '../../tests/setup/harness.js';
import { jpegWithGps } from '../../tests/uploads/image-fixtures.js';
import { expectAccessible, expectNoToken, signedInVisitor, useSignedInStack } from './harness.js';

const { stack, browser } = useSignedInStack();

interface Visitor {
  member: TestMember;
  /** The session token in this browser's cookie (never to appear in a page). */
  token: string;
  context: BrowserContext;
  page: Page;
}

async function visitor(member: TestMember): Promise<Visitor> {
  return { member, ...(await signedInVisitor(browser, stack, member)) };
}

/** Opens `path`, checks the answer's status and that the token appears nowhere in the HTML. */
async function open(v: Visitor, path: string, status = 200): Promise<void> {
  const response = await v.page.goto(path);
  expect(response?.status(), `GET ${path}`).toBe(status);
  expectNoToken(await v.page.content(), v.token, path);
}

async function notice(page: Page): Promise<string> {
  return (await page.getByRole('status').first().textContent()) ?? '';
}

// One journey in steps (each needs the one before): the browser pages are slow on a shared machine.
const STEP_TIMEOUT = 90_000;
const secret = 'Planning the sanctuary visit on Saturday, friends only.';

describe('feed, friends and reports in the browser', () => {
  let alice: TestMember;
  let bob: TestMember;
  let carol: TestMember;
  let admin: TestMember;
  let a: Visitor;
  let b: Visitor;
  let c: Visitor;
  let m: Visitor;
  let postPath: string;

  beforeAll(async () => {
    [alice, bob, carol, admin] = await Promise.all([
      stack.member({ prefix: 'alice' }),
      stack.member({ prefix: 'bob' }),
      stack.member({ prefix: 'carol' }),
      stack.member({ prefix: 'admin', admin: true }),
    ]);
    [a, b, c, m] = await Promise.all([visitor(alice), visitor(bob), visitor(carol), visitor(admin)]);
  });

  afterAll(async () => {
    for (const v of [a, b, c, m]) await v?.context.close();
  });

  it('makes two members friends through an invite code', { timeout: STEP_TIMEOUT }, async () => {
    // Alice creates an invite code on the friends page; it is shown once, with its expiry.
    await open(a, '/app/friends');
    await a.page.getByLabel('Valid for (days, 1–30)').fill('3');
    await a.page.getByRole('button', { name: 'Create an invite code' }).click();
    const code = (await a.page.locator('.invite-code .code').textContent())?.trim() ?? '';
    expect(code).toMatch(/^[A-Za-z2-7]{12}$/);
    expect(await a.page.locator('.invite-code').textContent()).toContain('expires');
    await open(a, '/app/friends');
    expect(await a.page.content()).not.toContain(code);
    expect(await a.page.getByRole('button', { name: /^Revoke/ }).count()).toBe(1);

    // Bob accepts it: they are friends.
    await open(b, '/app/friends');
    await b.page.getByRole('textbox', { name: 'Invite code' }).fill(code);
    await b.page.getByRole('button', { name: 'Accept' }).click();
    expect(await notice(b.page)).toContain(`You and @${alice.handle} are now friends.`);
    expect(await b.page.getByRole('link', { name: `@${alice.handle}` }).count()).toBe(1);
    // A used code does not work twice (Carol tries it).
    await open(c, '/app/friends');
    await c.page.getByRole('textbox', { name: 'Invite code' }).fill(code);
    const refused = c.page.waitForResponse((r) => r.url().endsWith('/app/friends/accept'));
    await c.page.getByRole('button', { name: 'Accept' }).click();
    expect((await refused).status()).toBe(404);
    expect(await c.page.getByRole('alert').textContent()).toContain('does not work');
    expect(await c.page.getByRole('textbox', { name: 'Invite code' }).inputValue()).toBe(code);

    // Alice's friends page: Bob listed, no open invite left (the code was used).
    await open(a, '/app/friends');
    expect(await a.page.getByRole('link', { name: `@${bob.handle}` }).count()).toBe(1);
    expect(await a.page.getByText('No open invite codes.').count()).toBe(1);
    await a.page.getByRole('button', { name: 'Create an invite code' }).click();
    await open(a, '/app/friends');
    await expectAccessible(a.page);
    await a.page.getByRole('button', { name: /^Revoke/ }).click();
    expect(await notice(a.page)).toContain('revoked');
    expect(await a.page.getByText('No open invite codes.').count()).toBe(1);
  });

  it("shows a friends-only post in the friend's feed; reactions and saves", { timeout: STEP_TIMEOUT }, async () => {
    // Alice writes a friends-only post and a public one.
    await open(a, '/app/feed');
    await a.page.getByLabel('Post', { exact: true }).fill('A public hello from the vigil.');
    await a.page.getByLabel('Who can see it').selectOption('public');
    await a.page.getByRole('button', { name: 'Publish' }).click();
    expect(await notice(a.page)).toContain('published');
    await open(a, '/app/feed');
    await a.page.getByLabel('Post', { exact: true }).fill(secret);
    await a.page.getByLabel('Who can see it').selectOption('friends');
    await a.page.getByRole('button', { name: 'Publish' }).click();
    expect(await a.page.getByText(secret).count()).toBe(1);

    // Bob sees it in his friends feed, reacts and saves it.
    await open(b, '/app/feed');
    const card = b.page.locator('article.post', { hasText: secret });
    expect(await card.count()).toBe(1);
    await card.getByRole('button', { name: /^Heart/ }).click();
    expect(await notice(b.page)).toContain('reaction');
    expect(await card.getByRole('button', { name: /^Heart/ }).getAttribute('aria-pressed')).toBe('true');
    expect(await card.getByRole('button', { name: /^Heart/ }).textContent()).toContain('1');
    await card.getByRole('button', { name: /^Support/ }).click();
    expect(await card.getByRole('button', { name: /^Support/ }).getAttribute('aria-pressed')).toBe('true');
    expect(await card.getByRole('button', { name: /^Heart/ }).getAttribute('aria-pressed')).toBe('false');
    await card.getByRole('button', { name: 'Save' }).click();
    expect(await card.getByRole('button', { name: 'Unsave' }).count()).toBe(1);
    await expectAccessible(b.page);

    // The public scope shows the public post, not the friends-only one.
    await b.page.getByRole('link', { name: 'Public', exact: true }).click();
    expect(await b.page.getByText('A public hello from the vigil.').count()).toBe(1);
    expect(await b.page.getByText(secret).count()).toBe(0);

    // Alice's handle page: her public posts only.
    await b.page
      .getByRole('link', { name: `@${alice.handle}` })
      .first()
      .click();
    expect(new URL(b.page.url()).pathname).toBe(`/app/handles/${alice.handle}`);
    expect(await b.page.getByText('A public hello from the vigil.').count()).toBe(1);
    expect(await b.page.getByText(secret).count()).toBe(0);
    await expectAccessible(b.page);

    // Saved posts.
    await open(b, '/app/saved');
    expect(await b.page.getByText(secret).count()).toBe(1);
    await expectAccessible(b.page);
  });

  it('comments on the post page; a stranger gets the 404 page', { timeout: STEP_TIMEOUT }, async () => {
    // The post page: comment, a second comment deleted again.
    await open(b, '/app/feed');
    const card = b.page.locator('article.post', { hasText: secret });
    await card.getByRole('link', { name: /^No comments/ }).click();
    postPath = new URL(b.page.url()).pathname;
    expect(postPath).toMatch(/^\/app\/posts\/[0-9a-f-]{36}$/);
    await b.page.getByLabel('Comment', { exact: true }).fill('Count me in!');
    await b.page.getByRole('button', { name: 'Comment', exact: true }).click();
    expect(await b.page.getByText('Count me in!').count()).toBe(1);
    await b.page.getByLabel('Comment', { exact: true }).fill('Oops, wrong post.');
    await b.page.getByRole('button', { name: 'Comment', exact: true }).click();
    await b.page
      .locator('li.comment', { hasText: 'Oops, wrong post.' })
      .getByRole('button', { name: /^Delete comment/ })
      .click();
    // Asked first: nothing is deleted until the confirming button.
    expect(await b.page.getByRole('heading', { level: 1 }).textContent()).toBe('Delete this comment?');
    await expectAccessible(b.page);
    await b.page.getByRole('button', { name: 'Delete the comment' }).click();
    expect(await notice(b.page)).toContain('deleted');
    expect(await b.page.getByText('Oops, wrong post.').count()).toBe(0);
    expect(await b.page.getByRole('heading', { name: /Comments/ }).textContent()).toContain('(1)');
    await expectAccessible(b.page);

    // Carol, not a friend, gets the plain 404 page.
    await open(c, postPath, 404);
    expect(await c.page.getByRole('heading', { level: 1 }).textContent()).toBe('Not found');
    expect(await c.page.content()).not.toContain(secret);
  });

  it('lets the friend report it and an admin resolve it with a public note and hide it', {
    timeout: STEP_TIMEOUT,
  }, async () => {
    // Bob reports the post.
    await open(b, postPath);
    await b.page.getByRole('link', { name: /^Report the post/ }).click();
    await expectAccessible(b.page);
    await b.page.getByLabel('Reason').selectOption('misinformation');
    await b.page.getByLabel(/Details/).fill('The date is wrong on purpose.');
    await b.page.getByRole('button', { name: 'Send the report' }).click();
    expect(new URL(b.page.url()).pathname).toBe('/app/reports');
    expect(await b.page.locator('li.report').textContent()).toContain('Open');

    // The admin (made Alice's friend through the API, so moderation does not need a blanket read)
    // resolves it with a public note and hides the post.
    const invite = await stack.api.trpc(alice.token).friends.createInvite.mutate({});
    await stack.api.trpc(admin.token).friends.acceptInvite.mutate({ code: invite.code });
    await open(m, '/app/admin/reports');
    const report = m.page.locator('article.report', { hasText: secret });
    expect(await report.count()).toBe(1);
    expect(await report.textContent()).toContain(`@${bob.handle}`);
    expect(await report.textContent()).toContain('still there');
    await expectAccessible(m.page);
    await report.getByRole('radio', { name: 'Resolve' }).check();
    await report.getByLabel(/Hide the post/).check();
    await report.getByLabel(/^Reason/).fill('Second time this week.');
    await report.getByLabel(/Public note/).fill('Thanks, the post is hidden now.');
    await report.getByRole('button', { name: 'Record the decision' }).click();
    // Hiding asks first (web/pages/confirm.tsx), the reason carried over.
    expect(await m.page.getByLabel(/^Reason/).inputValue()).toBe('Second time this week.');
    await m.page.getByRole('button', { name: 'Hide the post' }).click();
    expect(await notice(m.page)).toContain('Report resolved and the content hidden');
    expect(await m.page.locator('article.report', { hasText: secret }).count()).toBe(0);
    // Filters: resolved post reports.
    await m.page.getByLabel('Status').selectOption('resolved');
    await m.page.getByLabel('What was reported').selectOption('post');
    await m.page.getByRole('button', { name: 'Filter' }).click();
    const decided = m.page.locator('article.report', { hasText: secret });
    expect(await decided.textContent()).toContain('hidden by moderation');
    expect(await decided.textContent()).toContain('Second time this week.');
    await m.page.getByLabel('What was reported').selectOption('comment');
    await m.page.getByRole('button', { name: 'Filter' }).click();
    expect(await m.page.locator('article.report').count()).toBe(0);
  });

  it('shows the reporter the outcome; the post is gone for everyone but admins', {
    timeout: STEP_TIMEOUT,
  }, async () => {
    // Bob sees the outcome: status and public note, never the moderator or the internal note.
    await open(b, '/app/reports');
    const mine = await b.page.locator('li.report').textContent();
    expect(mine).toContain('Resolved');
    expect(mine).toContain('Thanks, the post is hidden now.');
    expect(mine).toContain('The post was hidden.');
    expect(await b.page.content()).not.toContain(admin.handle);
    expect(await b.page.content()).not.toContain('Second time this week.');
    await expectAccessible(b.page);

    // Gone for everyone but admins: author, friend and stranger get 404, and it left the feeds.
    for (const v of [a, b, c]) await open(v, postPath, 404);
    await open(a, '/app/feed');
    expect(await a.page.getByText(secret).count()).toBe(0);
    await open(b, '/app/saved');
    expect(await b.page.getByText(secret).count()).toBe(0);
    await open(m, postPath);
    expect(await m.page.getByText('Hidden by moderation').count()).toBe(1);
    expect(await m.page.getByText(secret).count()).toBe(1);
  });
});

describe('a post with a photo, from the browser', () => {
  it('attaches the chosen file: the post shows the clean image inline from the web origin, without its GPS data', {
    timeout: STEP_TIMEOUT,
  }, async () => {
    const v = await visitor(await stack.member({ prefix: 'photo' }));
    const text = `Outreach stall photo ${Date.now()}`;
    await open(v, '/app/feed');
    await v.page.getByLabel('Post', { exact: true }).fill(text);
    await v.page.getByLabel('Who can see it').selectOption('public');
    await v.page
      .getByLabel(/^Images/)
      .setInputFiles({ name: 'stall.jpg', mimeType: 'image/jpeg', buffer: await jpegWithGps(900, 600) });
    await v.page.getByLabel(/^Describe the images/).fill('Our leaflet stall at the Saturday market');
    await v.page.getByRole('button', { name: 'Publish' }).click();
    // With JavaScript the form goes up with a progress bar and the answer replaces the page.
    await expect.poll(() => notice(v.page), { timeout: 20_000 }).toContain('published');
    const card = v.page.locator('article.post', { hasText: text });
    // Inline, from the web's own origin (the relay), lazily, with a text alternative.
    const img = card.locator('img.picture');
    expect(await img.count()).toBe(1);
    const src = (await img.getAttribute('src'))!;
    expect(src).toMatch(/^\/img\//);
    expect(await img.getAttribute('loading')).toBe('lazy');
    // The uploader's description is the image's text alternative (the page's fallback names the author).
    expect(await img.getAttribute('alt')).toBe('Our leaflet stall at the Saturday market');
    // The API describes the post's image (size and resized variants), so the <img> has a srcset
    // of relayed variants and its width and height (nothing jumps while it loads).
    const [posted] = (await stack.api.trpc(v.member.token).handles.listPosts.query({ handle: v.member.handle })).items;
    expect(posted!.images[0]!.variants.length).toBeGreaterThan(0);
    expect(await img.getAttribute('srcset')).toMatch(/^\/img\/\S+ \d+w, /);
    expect(Number(await img.getAttribute('width'))).toBe(900);
    expect(Number(await img.getAttribute('height'))).toBe(600);
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    const image = await v.context.request.get(src);
    expect(image.status()).toBe(200);
    const bytes = Buffer.from(await image.body());
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    expect(bytes.toString('latin1')).not.toContain('SN-CAMERA');
    expectNoToken(await v.page.content(), v.token, '/app/feed');
    await expectAccessible(v.page);
    await v.context.close();
  });
});
