// The media library (list, filters, item page, private watchlist) and the guides (by category,
// a guide's page with its body sanitised again by the web server) in Chromium.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestMember } from '../../tests/setup/harness.js';
import { guideBodyHtml } from '../pages/guides.js';
import {
  expectAccessible,
  expectNoToken,
  type SignedInVisitor,
  signedInVisitor,
  useWebStackAndBrowser,
  type WebStack,
} from './harness.js';

let stack: WebStack;
let browser: Browser;
let admin: TestMember;
let member: TestMember;
let visitor: SignedInVisitor;

const hostileBody = [
  '# Getting started',
  '',
  'Bring **leaflets** and water. <script>alert("x")</script>',
  '',
  '## On the day',
  '',
  '[a trap](javascript:alert(1)) and [the site](https://example.org/help) and [events](/app/events)',
  '',
  '![A stall at the market](https://images.example.org/stall.jpg)',
  '',
  '<img src=x onerror=alert(2)>',
].join('\n');

useWebStackAndBrowser((ready) => {
  stack = ready.stack;
  browser = ready.browser;
});

beforeAll(async () => {
  admin = await stack.member({ admin: true, prefix: 'libadmin' });
  member = await stack.member({ prefix: 'libmember' });
  const asAdmin = stack.api.trpc(admin.token);

  const items = [
    {
      kind: 'documentary' as const,
      title: 'Dominion',
      year: 2018,
      synopsis: 'Australian animal agriculture, filmed with hidden cameras.',
      tags: ['ethics' as const],
      watchLinks: [{ platform: 'YouTube', url: 'https://www.youtube.com/watch?v=LQRAfJyEsko' }],
      trailer: 'https://www.youtube.com/watch?v=LQRAfJyEsko',
      featured: true,
    },
    { kind: 'talk' as const, title: 'Kitchen Basics', synopsis: 'Cooking for a crowd.', tags: ['cooking' as const] },
    { kind: 'film' as const, title: 'Unreleased Draft Film', synopsis: 'Not yet.' },
  ];
  for (const [index, item] of items.entries()) {
    const created = await asAdmin.media.adminCreate.mutate({ ...item, slug: `item-${index}-${item.kind}` });
    if (!item.title.includes('Draft')) await asAdmin.media.adminUpdate.mutate({ id: created._id, published: true });
  }

  await asAdmin.guideCategories.adminCreate.mutate({ slug: 'outreach', name: 'Outreach' });
  await asAdmin.guideCategories.adminCreate.mutate({ slug: 'community', name: 'Community' });
  const guides = [
    {
      slug: 'first-stall',
      title: 'Your first stall',
      category: 'outreach',
      summary: 'Plan a stall.',
      body: hostileBody,
    },
    {
      slug: 'potluck',
      title: 'Hosting a potluck',
      category: 'community',
      summary: 'Cook together.',
      body: 'Start small.',
    },
    { slug: 'draft-guide', title: 'Draft guide', category: 'community', body: 'Soon.' },
  ];
  for (const guide of guides) {
    const created = await asAdmin.guides.adminCreate.mutate(guide);
    if (guide.slug !== 'draft-guide') await asAdmin.guides.adminUpdate.mutate({ id: created._id, published: true });
  }

  visitor = await signedInVisitor(browser, stack, member);
});

afterAll(async () => {
  await visitor?.context.close();
});

describe('the media library', () => {
  it('lists published items featured first and filters them with a plain form', async () => {
    const { page } = visitor;
    await page.goto('/app/media');
    const titles = () => page.locator('main li.card > a').allTextContents();
    expect(await titles()).toEqual(['Dominion', 'Kitchen Basics']);
    await expectAccessible(page);
    expectNoToken(await page.content(), visitor.token, 'the media page');

    await page.getByLabel('Kind').selectOption('talk');
    await page.getByRole('button', { name: 'Filter' }).click();
    expect(await titles()).toEqual(['Kitchen Basics']);
    await page.getByLabel('Kind').selectOption('');
    await page.getByLabel('Topic').selectOption('ethics');
    await page.getByRole('button', { name: 'Filter' }).click();
    expect(await titles()).toEqual(['Dominion']);
    await page.getByLabel('Topic').selectOption('');
    await page.getByLabel('Search').fill('crowd');
    await page.getByRole('button', { name: 'Filter' }).click();
    expect(await titles()).toEqual(['Kitchen Basics']);
  });

  it('shows an item with links out (nothing embedded) and keeps a private watchlist', async () => {
    const { page } = visitor;
    await page.goto('/app/media');
    await page.getByRole('link', { name: 'Dominion' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Dominion');
    const trailer = page.getByRole('link', { name: 'Watch the trailer on YouTube' });
    expect(await trailer.getAttribute('href')).toContain('youtube-nocookie.com');
    expect(await trailer.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(await page.locator('iframe').count()).toBe(0);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Save to my watchlist' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Saved “Dominion”');
    expect(await page.getByRole('button', { name: 'Remove from my watchlist' }).isVisible()).toBe(true);

    await page.goto('/app/media/watchlist');
    expect(await page.locator('main li.card > a').allTextContents()).toEqual(['Dominion']);
    await expectAccessible(page);
    // Nobody else sees it: another member's watchlist page is their own, empty one.
    const other = await stack.member({ prefix: 'libother' });
    // A plain fetch with the other member's API token as the cookie: a browser adds nothing here.
    const otherPage = await fetch(`${stack.webUrl}/app/media/watchlist`, {
      headers: { cookie: `app_session=${other.token}` },
    });
    expect(await otherPage.text()).not.toContain('Dominion');

    await page.getByRole('link', { name: 'Dominion' }).click();
    await page.getByRole('button', { name: 'Remove from my watchlist' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Removed “Dominion”');
    const list = await stack.api.trpc(member.token).me.listWatchlist.query({});
    expect(list.items).toEqual([]);
  });

  it('answers 404 for a draft and for an unknown item', async () => {
    // Status and body only: plain fetches with the API token as the cookie.
    for (const path of ['/app/media/item-2-film', '/app/media/no-such-item', '/app/media/Bad%20Slug']) {
      const response = await fetch(`${stack.webUrl}${path}`, { headers: { cookie: `app_session=${member.token}` } });
      expect(response.status, path).toBe(404);
      const html = await response.text();
      expect(html).toContain('Not found');
      expect(html).not.toContain('Unreleased');
    }
  });
});

describe('the guides', () => {
  it('lists published guides by category, and filters by one', async () => {
    const { page } = visitor;
    await page.goto('/app/guides');
    const outreach = page.getByRole('region', { name: 'Outreach' });
    const community = page.getByRole('region', { name: 'Community' });
    expect(await outreach.getByRole('link').allTextContents()).toEqual(['Your first stall']);
    expect(await community.getByRole('link').allTextContents()).toEqual(['Hosting a potluck']);
    expect(await page.locator('main').textContent()).not.toContain('Draft guide');
    await expectAccessible(page);

    await page.getByLabel('Category').selectOption('community');
    await page.getByRole('button', { name: 'Show' }).click();
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Community']);
  });

  it("renders a guide's body safely: no script, no javascript: link, one h1, images as links", async () => {
    const { page } = visitor;
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto('/app/guides');
    await page.getByRole('link', { name: 'Your first stall' }).click();
    expect(await page.getByRole('heading', { level: 1 }).allTextContents()).toEqual(['Your first stall']);
    const body = page.locator('article.guide-body');
    expect(await body.getByRole('heading', { level: 2 }).textContent()).toBe('Getting started');
    expect(await body.getByRole('heading', { level: 3 }).textContent()).toBe('On the day');
    expect(await body.locator('strong').textContent()).toBe('leaflets');
    expect(await body.locator('script, img, iframe, [onerror]').count()).toBe(0);
    expect(await body.textContent()).toContain('<script>');
    const hrefs = await body.locator('a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs).toEqual(['https://example.org/help', '/app/events', 'https://images.example.org/stall.jpg']);
    expect(await body.getByRole('link', { name: 'the site' }).getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(await body.getByRole('link', { name: 'Image: A stall at the market' }).isVisible()).toBe(true);
    expect(alerts).toEqual([]);
    await expectAccessible(page);
    expectNoToken(await page.content(), visitor.token, 'the guide page');

    // Status only: a plain fetch with the API token as the cookie.
    const draft = await fetch(`${stack.webUrl}/app/guides/draft-guide`, {
      headers: { cookie: `app_session=${member.token}` },
    });
    expect(draft.status).toBe(404);
  });

  it('sanitises the body again on the web server, whatever the API sent', () => {
    const html = guideBodyHtml(
      [
        '<h1>Top</h1><script>alert(1)</script><style>p{}</style>',
        '<p onclick="alert(1)" style="color:red">Text <a href="javascript:alert(1)">bad</a>',
        '<a href="//evil.example/x">protocol-relative</a> <a href="data:text/html,x">data</a></p>',
        '<iframe src="https://evil.example"></iframe><img src="https://i.example/a.png" onerror="x()" alt="pic">',
        '<svg><script>alert(1)</script></svg><form action="/x"><input name="a"></form>',
      ].join(''),
    );
    expect(html).toBe(
      '<h2>Top</h2><p>Text bad' +
        'protocol-relative data</p>' +
        '<a href="https://i.example/a.png" rel="noopener noreferrer nofollow">Image: pic</a>',
    );
  });
});
