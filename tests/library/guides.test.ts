// Guides and guide categories: admin CRUD (drafts, publishing, slugs, categories in use), public
// list and get (published only), Markdown rendered to sanitised HTML (a hostile corpus through
// the API), reading time. REST and the typed client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderGuideBody, sanitizeGuideHtml, WORDS_PER_MINUTE } from '../../server/domains/guides/markdown.js';
import { createMember, createTestApp, unique, type TestApp, type TestMember } from '../setup/harness.js';
import { createCategory, createGuide, MISSING_ID, uniqueSlug } from './helpers.js';

let t: TestApp;
let admin: TestMember;
let member: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createMember(t, { admin: true, prefix: 'gdadm' });
  member = await createMember(t, { prefix: 'gdmem' });
});
afterAll(() => t.close());

/** Hostile Markdown: each must come out without any way to run script or load a frame. */
const hostileCorpus: string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="https://ok.example/a.png" onerror="alert(1)">',
  '<svg onload=alert(1)><circle r=1 /></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<style>body{background:url(javascript:alert(1))}</style>',
  '<p style="background:url(javascript:alert(1))">x</p>',
  '<a href="javascript:alert(1)">x</a>',
  '<object data="https://evil.example/x.swf"></object><embed src="https://evil.example/x.swf">',
  '<form action="https://evil.example"><input name=x><button>go</button></form>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<base href="https://evil.example/">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '[click](javascript:alert(1))',
  '[click](JAVASCRIPT:alert(1))',
  '[click](  javascript:alert(1))',
  '[click](java\tscript:alert(1))',
  '[click](jav&#x09;ascript:alert(1))',
  '[click](&#106;avascript:alert(1))',
  '[click](&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1))',
  '[click](javascript&colon;alert(1))',
  '[click](vbscript:msgbox(1))',
  '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[click](file:///etc/passwd)',
  '[click](//evil.example/x)',
  '[click]( <javascript:alert(1)> )',
  '[click][ref]\n\n[ref]: javascript:alert(1)',
  '<javascript:alert(1)>',
  '![x](data:image/png;base64,iVBORw0KGgo=)',
  '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '![x](javascript:alert(1))',
  '![x](http://insecure.example/a.png)',
  '![x" onerror="alert(1)](https://ok.example/a.png)',
  '[x](https://ok.example/" onmouseover="alert(1))',
  '[x](https://ok.example/"><script>alert(1)</script>)',
  '```html\n<script>alert(1)</script>\n```',
  '`<img src=x onerror=alert(1)>`',
  '<!-- <script>alert(1)</script> -->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<div onclick="alert(1)">x</div>',
  '<a href="https://ok.example" target="_blank">x</a>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
];

/** The only elements and attributes a rendering may contain (everything else is text). */
const allowedMarkup: Record<string, string[]> = {
  a: ['href', 'title', 'rel'],
  img: ['src', 'alt', 'title', 'referrerpolicy', 'loading'],
  ol: ['start'],
  code: ['class'],
  ...Object.fromEntries(
    ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'ul', 'li', 'strong', 'em', 's', 'pre']
      .concat(['table', 'thead', 'tbody', 'tr', 'th', 'td'])
      .map((tag) => [tag, []]),
  ),
};

/**
 * Reads the HTML a client receives as markup: every tag must be allowlisted with allowlisted
 * attributes only (so no script, style, iframe, svg, event handler), every href/src must be
 * https/http/mailto, site-relative or a fragment (images: https only), and no `<` may remain
 * outside a tag. Escaped text such as `&lt;script&gt;` is harmless text and allowed.
 */
function assertSafe(html: string, source: string) {
  const context = `source: ${JSON.stringify(source)}\nhtml: ${html}`;
  const tagPattern = /<\/?([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s=/>]+(?:="[^"]*")?)*)\s*\/?>/g;
  for (const [, rawName, rawAttributes] of html.matchAll(tagPattern)) {
    const name = rawName!.toLowerCase();
    expect(Object.keys(allowedMarkup), context).toContain(name);
    for (const [, attribute, value = ''] of rawAttributes!.matchAll(/\s+([^\s=/>]+)(?:="([^"]*)")?/g)) {
      expect(allowedMarkup[name], `${name}[${attribute}] in ${context}`).toContain(attribute!.toLowerCase());
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a scheme trick hides in.
      const decoded = value.replace(/&amp;/g, '&').replace(/[\u0000-\u0020]/g, '');
      if (attribute === 'src') expect(decoded, context).toMatch(/^https:\/\//i);
      if (attribute === 'href') expect(decoded, context).toMatch(/^(https?:\/\/|mailto:|\/(?!\/)|#)/i);
      if (attribute === 'class') expect(decoded, context).toMatch(/^language-[\w-]+$/);
      expect(decoded, context).not.toMatch(/javascript:|vbscript:|data:/i);
    }
  }
  expect(html.replace(tagPattern, ''), context).not.toMatch(/[<]/);
}

describe('guide categories', () => {
  it('are created, listed publicly, renamed and deleted by admins (REST + tRPC)', async () => {
    const name = unique('Outreach ');
    const res = await t.request('POST', '/api/admin/guide-categories', {
      token: admin.token,
      body: { name, description: 'Leafleting, stalls.' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      _id: expect.any(String),
      slug: expect.stringMatching(/^outreach-/),
      name,
      description: 'Leafleting, stalls.',
    });
    const slug = uniqueSlug('cooking');
    const cooking = await t.trpc(admin.token).guideCategories.adminCreate.mutate({ name: 'Cooking', slug });
    expect(cooking).toMatchObject({ slug, name: 'Cooking', description: '' });

    const listed = await t.request('GET', '/api/guide-categories?limit=100');
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual(expect.arrayContaining([res.body, cooking]));
    const viaTrpc = await t.trpc().guideCategories.list.query({ limit: 1 });
    expect(viaTrpc.items).toHaveLength(1);
    expect(viaTrpc.nextCursor).toEqual(expect.any(String));

    const guide = await createGuide(t, admin, cooking);
    const newSlug = uniqueSlug('kitchen');
    const renamed = await t.request('PATCH', `/api/admin/guide-categories/${cooking._id}`, {
      token: admin.token,
      body: { slug: newSlug, name: 'Kitchen' },
    });
    expect(renamed.body).toMatchObject({ slug: newSlug, name: 'Kitchen' });
    // The guide follows its category.
    expect((await t.request('GET', `/api/guides/${guide.slug}`)).body.category).toEqual({
      slug: newSlug,
      name: 'Kitchen',
    });
    expect(
      await t.trpc(admin.token).guideCategories.adminUpdate.mutate({ id: cooking._id, description: 'Recipes' }),
    ).toMatchObject({ description: 'Recipes', name: 'Kitchen' });

    // In use (a draft counts too): 409; empty: deleted.
    const inUse = await t.request('DELETE', `/api/admin/guide-categories/${cooking._id}`, { token: admin.token });
    expect(inUse.status).toBe(409);
    expect(inUse.body.error.code).toBe('conflict');
    await t.request('PATCH', `/api/admin/guides/${guide._id}`, { token: admin.token, body: { published: false } });
    expect(
      (await t.request('DELETE', `/api/admin/guide-categories/${cooking._id}`, { token: admin.token })).status,
    ).toBe(409);
    await t.request('DELETE', `/api/admin/guides/${guide._id}`, { token: admin.token });
    const gone = await t.request('DELETE', `/api/admin/guide-categories/${cooking._id}`, { token: admin.token });
    expect(gone.body).toEqual({ ok: true });
    expect(await t.trpc(admin.token).guideCategories.adminDelete.mutate({ id: res.body._id })).toEqual({ ok: true });
    expect(
      (await t.request('DELETE', `/api/admin/guide-categories/${cooking._id}`, { token: admin.token })).status,
    ).toBe(404);
  });

  it('refuse taken slugs, bad input, and non-admins (error, security)', async () => {
    const category = await createCategory(t, admin);
    const taken = await t.request('POST', '/api/admin/guide-categories', {
      token: admin.token,
      body: { name: 'x', slug: category.slug },
    });
    expect(taken.status).toBe(409);
    const other = await createCategory(t, admin);
    expect(
      (
        await t.request('PATCH', `/api/admin/guide-categories/${other._id}`, {
          token: admin.token,
          body: { slug: category.slug },
        })
      ).status,
    ).toBe(409);
    for (const body of [{}, { name: '' }, { name: 'x', slug: 'Bad Slug' }, { name: 'x', extra: 1 }]) {
      const res = await t.request('POST', '/api/admin/guide-categories', { token: admin.token, body });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect(
      (await t.request('PATCH', `/api/admin/guide-categories/${other._id}`, { token: admin.token, body: {} })).status,
    ).toBe(400);
    expect(
      (
        await t.request('PATCH', `/api/admin/guide-categories/${MISSING_ID}`, {
          token: admin.token,
          body: { name: 'x' },
        })
      ).status,
    ).toBe(404);
    for (const [method, path, body] of [
      ['POST', '/api/admin/guide-categories', { name: 'x' }],
      ['PATCH', `/api/admin/guide-categories/${other._id}`, { name: 'x' }],
      ['DELETE', `/api/admin/guide-categories/${other._id}`, undefined],
    ] as const) {
      expect((await t.request(method, path, { body })).status).toBe(401);
      expect((await t.request(method, path, { token: member.token, body })).status).toBe(403);
    }
  });
});

describe('admin guide CRUD', () => {
  it('creates a draft with rendered HTML and reading time, publishes and edits it (REST + tRPC)', async () => {
    const category = await createCategory(t, admin);
    const title = unique('Leafleting 101 ');
    const body = `# Leafleting\n\nBring a **smile** and [a map](https://maps.example.org/x).\n\n${'word '.repeat(401)}`;
    const res = await t.request('POST', '/api/admin/guides', {
      token: admin.token,
      body: {
        title,
        category: category.slug,
        summary: 'Start here.',
        body,
        coverImage: 'https://img.example.org/leaf.jpg',
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      title,
      category: { slug: category.slug, name: category.name },
      summary: 'Start here.',
      body,
      // Uploaded covers: tests/uploads/image-fields.test.ts.
      coverImage: 'https://img.example.org/leaf.jpg',
      coverImageUrl: 'https://img.example.org/leaf.jpg',
      // 1 + 1 + 2 + 1 + 2 + 401 = 408 words
      readingMinutes: Math.ceil(408 / WORDS_PER_MINUTE),
      published: false,
      publishedAt: null,
    });
    expect(res.body.html).toContain('<h1>Leafleting</h1>');
    expect(res.body.html).toContain(
      '<a href="https://maps.example.org/x" rel="noopener noreferrer nofollow">a map</a>',
    );
    expect(res.body.slug).toMatch(/^leafleting-101-.*-[a-z0-9]{6}$/);
    expect((await t.request('GET', `/api/guides/${res.body.slug}`)).status).toBe(404);

    const published = await t.trpc(admin.token).guides.adminUpdate.mutate({ id: res.body._id, published: true });
    expect(published.publishedAt).toBe(t.clock.now().toISOString());
    const pub = await t.request('GET', `/api/guides/${res.body.slug}`);
    expect(pub.status).toBe(200);
    expect(Object.keys(pub.body).sort()).toEqual(
      [
        '_id',
        'slug',
        'title',
        'category',
        'summary',
        'coverImageUrl',
        'coverImageDetails',
        'readingMinutes',
        'publishedAt',
        'updatedAt',
        'body',
        'html',
      ].sort(),
    );
    expect(await t.trpc().guides.get.query({ slug: res.body.slug })).toEqual(pub.body);

    const other = await createCategory(t, admin);
    t.clock.advance(5000);
    const edited = await t.request('PATCH', `/api/admin/guides/${res.body._id}`, {
      token: admin.token,
      body: {
        title: 'Renamed',
        body: 'Short _now_.',
        category: other.slug,
        coverImage: 'https://img.example.org/c.jpg',
      },
    });
    expect(edited.body).toMatchObject({
      title: 'Renamed',
      slug: res.body.slug,
      html: '<p>Short <em>now</em>.</p>\n',
      readingMinutes: 1,
      category: { slug: other.slug },
      coverImageUrl: 'https://img.example.org/c.jpg',
      publishedAt: published.publishedAt,
      updatedAt: t.clock.now().toISOString(),
    });
    expect(
      (await t.request('PATCH', `/api/admin/guides/${res.body._id}`, { token: admin.token, body: { body: '' } })).body
        .readingMinutes,
    ).toBe(0);
  });

  it('keeps slugs unique (409) and stable, refuses unknown categories and bad input (error)', async () => {
    const category = await createCategory(t, admin);
    const slug = uniqueSlug('potluck');
    const guide = await createGuide(t, admin, category, { slug });
    expect(guide.slug).toBe(slug);
    const taken = await t.request('POST', '/api/admin/guides', {
      token: admin.token,
      body: { title: 'x', category: category.slug, body: 'y', slug },
    });
    expect(taken.status).toBe(409);
    const other = await createGuide(t, admin, category, { title: 'Potluck' });
    const clash = await t.request('PATCH', `/api/admin/guides/${other._id}`, { token: admin.token, body: { slug } });
    expect(clash.status).toBe(409);
    await expect(t.trpc(admin.token).guides.adminUpdate.mutate({ id: other._id, slug })).rejects.toMatchObject({
      data: { code: 'conflict' },
    });

    const unknownCategory = await t.request('POST', '/api/admin/guides', {
      token: admin.token,
      body: { title: 'x', category: 'no-such-category-here', body: 'y' },
    });
    expect(unknownCategory.status).toBe(400);
    expect(unknownCategory.body.error.code).toBe('validation_failed');
    expect(
      (
        await t.request('PATCH', `/api/admin/guides/${other._id}`, {
          token: admin.token,
          body: { category: 'no-such-category-here' },
        })
      ).status,
    ).toBe(400);
    for (const body of [
      { title: 'x', category: category.slug },
      { title: '', category: category.slug, body: 'y' },
      { title: 'x', category: 'Bad Cat', body: 'y' },
      { title: 'x', category: category.slug, body: 'y'.repeat(100_001) },
      { title: 'x', category: category.slug, body: 'y', coverImage: 'http://insecure.example/c.jpg' },
      { title: 'x', category: category.slug, body: 'y', published: true },
      { title: 'x', category: category.slug, body: 'y', html: '<b>mine</b>' },
    ]) {
      const res = await t.request('POST', '/api/admin/guides', { token: admin.token, body });
      expect({ fields: Object.keys(body), status: res.status }).toEqual({ fields: Object.keys(body), status: 400 });
    }
    expect((await t.request('PATCH', `/api/admin/guides/${other._id}`, { token: admin.token, body: {} })).status).toBe(
      400,
    );
    expect(
      (await t.request('PATCH', `/api/admin/guides/${MISSING_ID}`, { token: admin.token, body: { title: 'x' } }))
        .status,
    ).toBe(404);
    expect((await t.request('GET', `/api/admin/guides/${MISSING_ID}`, { token: admin.token })).status).toBe(404);
    expect((await t.request('DELETE', `/api/admin/guides/${MISSING_ID}`, { token: admin.token })).status).toBe(404);
    expect(await t.trpc(admin.token).guides.adminDelete.mutate({ id: other._id })).toEqual({ ok: true });
    expect((await t.request('GET', `/api/admin/guides/${other._id}`, { token: admin.token })).status).toBe(404);
  });

  it('lists drafts too for admins, with filters; is for admins only (security)', async () => {
    const category = await createCategory(t, admin);
    const draft = await createGuide(t, admin, category, {}, { publish: false });
    const live = await createGuide(t, admin, category);
    const all = await t.request('GET', `/api/admin/guides?category=${category.slug}`, { token: admin.token });
    expect(all.body.items.map((g: any) => g._id)).toEqual([draft._id, live._id]);
    expect(all.body.items[0]).not.toHaveProperty('body');
    expect(all.body.items[0]).not.toHaveProperty('html');
    const drafts = await t.trpc(admin.token).guides.adminList.query({ category: category.slug, published: 'false' });
    expect(drafts.items.map((g) => g._id)).toEqual([draft._id]);
    expect((await t.trpc(admin.token).guides.adminGet.query({ id: draft._id })).published).toBe(false);

    for (const [method, path, body] of [
      ['GET', '/api/admin/guides', undefined],
      ['POST', '/api/admin/guides', { title: 'x', category: category.slug, body: 'y' }],
      ['GET', `/api/admin/guides/${draft._id}`, undefined],
      ['PATCH', `/api/admin/guides/${draft._id}`, { published: true }],
      ['DELETE', `/api/admin/guides/${draft._id}`, undefined],
    ] as const) {
      expect((await t.request(method, path, { body })).status).toBe(401);
      const res = await t.request(method, path, { token: member.token, body });
      expect(res.status).toBe(403);
    }
    expect((await t.request('GET', `/api/admin/guides/${draft._id}`, { token: admin.token })).body.published).toBe(
      false,
    );
  });
});

describe('public guides', () => {
  it('lists published guides only, by category, with cursor paging (REST + tRPC)', async () => {
    const category = await createCategory(t, admin);
    const a = await createGuide(t, admin, category);
    const draft = await createGuide(t, admin, category, {}, { publish: false });
    const b = await createGuide(t, admin, category);
    const elsewhere = await createGuide(t, admin, await createCategory(t, admin));
    const first = await t.request('GET', `/api/guides?category=${category.slug}&limit=1`);
    expect(first.status).toBe(200);
    expect(first.body.items.map((g: any) => g._id)).toEqual([a._id]);
    expect(first.body.items[0]).not.toHaveProperty('body');
    expect(first.body.items[0]).not.toHaveProperty('published');
    const second = await t
      .trpc()
      .guides.list.query({ category: category.slug, limit: 1, cursor: first.body.nextCursor });
    expect(second.items.map((g) => g._id)).toEqual([b._id]);
    expect(second.nextCursor).toBeNull();
    const everything = await t.request('GET', '/api/guides?limit=100');
    const ids = everything.body.items.map((g: any) => g._id);
    expect(ids).not.toContain(draft._id);
    expect(ids).toContain(elsewhere._id);
    expect((await t.request('GET', '/api/guides?category=no-such-category-at-all')).body).toEqual({
      items: [],
      nextCursor: null,
    });
    for (const bad of ['category=Bad%20Cat', 'cursor=nope', 'limit=0']) {
      const res = await t.request('GET', `/api/guides?${bad}`);
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
    }
  });

  it('answers 404 for a draft exactly as for a missing slug', async () => {
    const category = await createCategory(t, admin);
    const draft = await createGuide(t, admin, category, {}, { publish: false });
    const asDraft = await t.request('GET', `/api/guides/${draft.slug}`, { token: member.token });
    const asMissing = await t.request('GET', '/api/guides/no-such-guide-here', { token: member.token });
    expect(asDraft.status).toBe(404);
    expect(asDraft.body).toEqual(asMissing.body);
    await expect(t.trpc().guides.get.query({ slug: draft.slug })).rejects.toMatchObject({
      data: { code: 'not_found' },
    });
  });
});

describe('Markdown rendering', () => {
  it('neutralises a hostile corpus, through the API and stored', async () => {
    const category = await createCategory(t, admin);
    const guide = await createGuide(t, admin, category, { body: hostileCorpus.join('\n\n') });
    const read = await t.request('GET', `/api/guides/${guide.slug}`);
    expect(read.body.body).toBe(hostileCorpus.join('\n\n'));
    assertSafe(read.body.html, 'whole corpus');
    for (const source of hostileCorpus) {
      const one = await t.request('PATCH', `/api/admin/guides/${guide._id}`, {
        token: admin.token,
        body: { body: source },
      });
      expect(one.status).toBe(200);
      assertSafe(one.body.html, source);
    }
  });

  it('neutralises each hostile case alone and inside Markdown structures', () => {
    for (const source of hostileCorpus)
      for (const wrapped of [source, `> ${source}`, `- ${source}`, `| a |\n|---|\n| ${source} |`, `**${source}**`])
        assertSafe(renderGuideBody(wrapped).html, wrapped);
  });

  it('neutralises raw hostile HTML in the sanitising layer alone (defence in depth)', () => {
    for (const source of hostileCorpus) assertSafe(sanitizeGuideHtml(source), source);
    const links = sanitizeGuideHtml(
      '<a href="java&#x09;script:alert(1)">a</a><a href=" javascript:alert(1)">b</a><a href="//evil.example">c</a>' +
        '<a href="https://ok.example" onclick="x()" target="_blank">d</a><img src="https://ok.example/i.png" onerror="x()">',
    );
    assertSafe(links, 'links');
    expect(links).toContain('<a href="https://ok.example" rel="noopener noreferrer nofollow">d</a>');
    expect(links).toContain('<img src="https://ok.example/i.png" referrerpolicy="no-referrer" loading="lazy" />');
  });

  it('keeps ordinary Markdown: headings, lists, code, tables, safe links and https images', () => {
    const { html } = renderGuideBody(
      [
        '## Plan',
        '1. Invite\n2. Cook',
        '- [x](/guides/other) and [top](#plan) and <https://example.org/a?b=1&c=2>',
        'Mail [us](mailto:hello@example.org).',
        '![Potluck](https://img.example.org/p.jpg "A table")',
        '```js\nconst a = 1 < 2;\n```',
        '| a | b |\n|---|---|\n| 1 | 2 |',
      ].join('\n\n'),
    );
    expect(html).toContain('<h2>Plan</h2>');
    expect(html).toContain('<ol>\n<li>Invite</li>\n<li>Cook</li>\n</ol>');
    expect(html).toContain('<a href="/guides/other">x</a>');
    expect(html).toContain('<a href="#plan">top</a>');
    expect(html).toContain(
      '<a href="https://example.org/a?b=1&amp;c=2" rel="noopener noreferrer nofollow">https://example.org/a?b=1&amp;c=2</a>',
    );
    expect(html).toContain('<a href="mailto:hello@example.org" rel="noopener noreferrer nofollow">us</a>');
    expect(html).toContain(
      '<img src="https://img.example.org/p.jpg" alt="Potluck" title="A table" referrerpolicy="no-referrer" loading="lazy" />',
    );
    expect(html).toContain('<pre><code class="language-js">const a = 1 &lt; 2;\n</code></pre>');
    expect(html).toContain('<table>');
    expect(html).toContain('<td>1</td>');
  });

  it('counts reading time as words / 200, rounded up', () => {
    expect(renderGuideBody('').readingMinutes).toBe(0);
    expect(renderGuideBody('one').readingMinutes).toBe(1);
    expect(renderGuideBody('w '.repeat(200)).readingMinutes).toBe(1);
    expect(renderGuideBody('w '.repeat(201)).readingMinutes).toBe(2);
    // Markup is not words: a link counts its text, not its URL.
    expect(renderGuideBody(`[two words](https://a.example/${'x/'.repeat(300)})`).readingMinutes).toBe(1);
  });
});
