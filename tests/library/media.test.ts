// Media library: admin CRUD (drafts, publishing, slugs), public list and get (published only),
// filters, word-prefix search, featured-first and cursor paging. REST and the typed client.
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMember,
  createTestApp,
  unique,
  type ApiResponse,
  type TestApp,
  type TestMember,
} from '../setup/harness.js';
import { createMedia, MISSING_ID, uniqueSlug } from './helpers.js';

let t: TestApp;
let admin: TestMember;
let member: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createMember(t, { admin: true, prefix: 'libadm' });
  member = await createMember(t, { prefix: 'libmem' });
});
afterAll(() => t.close());

/** Every item of a public list, following nextCursor. */
async function listAll(query: string, limit = 2) {
  const items: any[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const res: ApiResponse = await t.request(
      'GET',
      `/api/media?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(res.status, res.text).toBe(200);
    items.push(...res.body.items);
    cursor = res.body.nextCursor;
    if (!cursor) return items;
  }
  throw new Error('too many pages');
}

describe('admin media CRUD', () => {
  it('creates a draft, reads it back, publishes it by PATCH (REST + tRPC)', async () => {
    const title = unique('Dominion ');
    const res = await t.request('POST', '/api/admin/media', {
      token: admin.token,
      body: {
        kind: 'documentary',
        title,
        year: 2018,
        synopsis: 'Australian animal agriculture, filmed with hidden cameras.',
        tags: ['ethics', 'ethics', 'activism'],
        poster: 'https://images.example.org/dominion.jpg',
        watchLinks: [{ platform: 'YouTube', url: 'https://www.youtube.com/watch?v=LQRAfJyEsko' }],
        trailer: 'https://youtu.be/LQRAfJyEsko',
        featured: true,
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'documentary',
      title,
      year: 2018,
      tags: ['ethics', 'activism'],
      poster: 'https://images.example.org/dominion.jpg',
      posterUrl: 'https://images.example.org/dominion.jpg',
      posterImage: {
        url: 'https://images.example.org/dominion.jpg',
        width: null,
        height: null,
        alt: null,
        variants: [],
      },
      watchLinks: [{ platform: 'YouTube', url: 'https://www.youtube.com/watch?v=LQRAfJyEsko' }],
      trailer: {
        provider: 'youtube',
        videoId: 'LQRAfJyEsko',
        embedUrl: 'https://www.youtube-nocookie.com/embed/LQRAfJyEsko',
      },
      featured: true,
      published: false,
      publishedAt: null,
    });
    // A draft's generated slug carries a random suffix (it says nothing about other drafts).
    expect(res.body.slug).toMatch(/^dominion-[a-z0-9-]+-[a-z0-9]{6}$/);
    const id = res.body._id as string;

    expect((await t.request('GET', `/api/media/${res.body.slug}`)).status).toBe(404);
    const viaTrpc = await t.trpc(admin.token).media.adminGet.query({ id });
    expect(viaTrpc).toEqual(res.body);

    t.clock.advance(60_000);
    const published = await t.trpc(admin.token).media.adminUpdate.mutate({ id, published: true });
    expect(published.published).toBe(true);
    const firstPublishedAt = published.publishedAt;
    expect(firstPublishedAt).toBe(t.clock.now().toISOString());

    const pub = await t.request('GET', `/api/media/${res.body.slug}`);
    expect(pub.status).toBe(200);
    expect(pub.body).toEqual({
      _id: id,
      slug: res.body.slug,
      kind: 'documentary',
      title,
      year: 2018,
      synopsis: 'Australian animal agriculture, filmed with hidden cameras.',
      tags: ['ethics', 'activism'],
      posterUrl: 'https://images.example.org/dominion.jpg',
      posterImage: {
        url: 'https://images.example.org/dominion.jpg',
        width: null,
        height: null,
        alt: null,
        variants: [],
      },
      watchLinks: [{ platform: 'YouTube', url: 'https://www.youtube.com/watch?v=LQRAfJyEsko' }],
      trailer: {
        provider: 'youtube',
        videoId: 'LQRAfJyEsko',
        embedUrl: 'https://www.youtube-nocookie.com/embed/LQRAfJyEsko',
      },
      featured: true,
    });
    expect(await t.trpc().media.get.query({ slug: res.body.slug })).toEqual(pub.body);

    // Publishing again keeps the first publication time; unpublishing hides it again.
    t.clock.advance(60_000);
    const again = await t.request('PATCH', `/api/admin/media/${id}`, {
      token: admin.token,
      body: { published: true, title: `${title} (2018)` },
    });
    expect(again.body).toMatchObject({ publishedAt: firstPublishedAt, slug: res.body.slug, title: `${title} (2018)` });
    const hidden = await t.request('PATCH', `/api/admin/media/${id}`, {
      token: admin.token,
      body: { published: false },
    });
    expect(hidden.body).toMatchObject({ published: false, publishedAt: null });
    const gone = await t.request('GET', `/api/media/${res.body.slug}`);
    const missing = await t.request('GET', '/api/media/never-existed-anywhere');
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(missing.body);
  });

  it('changes fields without resetting others, clears nullable ones, and deletes (REST + tRPC)', async () => {
    const item = await createMedia(t, admin, {
      year: 2005,
      poster: 'https://images.example.org/earthlings.jpg',
      trailer: 'https://vimeo.com/123456',
      synopsis: 'Keep me',
    });
    expect(item).toMatchObject({
      // Uploaded posters: tests/uploads/image-fields.test.ts.
      poster: 'https://images.example.org/earthlings.jpg',
      posterUrl: 'https://images.example.org/earthlings.jpg',
      trailer: { provider: 'vimeo', videoId: '123456', embedUrl: 'https://player.vimeo.com/video/123456?dnt=1' },
    });
    const changed = await t.trpc(admin.token).media.adminUpdate.mutate({
      id: item._id,
      year: null,
      trailer: null,
      poster: null,
      kind: 'film',
      tags: ['health'],
    });
    expect(changed).toMatchObject({
      year: null,
      trailer: null,
      poster: null,
      posterUrl: null,
      kind: 'film',
      tags: ['health'],
      synopsis: 'Keep me',
      published: true,
    });
    expect(changed.updatedAt >= item.updatedAt).toBe(true);

    const deleted = await t.request('DELETE', `/api/admin/media/${item._id}`, { token: admin.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ok: true });
    expect((await t.request('GET', `/api/admin/media/${item._id}`, { token: admin.token })).status).toBe(404);
    expect((await t.request('DELETE', `/api/admin/media/${item._id}`, { token: admin.token })).status).toBe(404);
    const other = await createMedia(t, admin);
    expect(await t.trpc(admin.token).media.adminDelete.mutate({ id: other._id })).toEqual({ ok: true });
  });

  it('keeps slugs unique and stable: explicit slugs, 409 when taken, renames keep the slug', async () => {
    const slug = uniqueSlug('earthlings');
    const item = await createMedia(t, admin, { slug, title: 'Earthlings' });
    expect(item.slug).toBe(slug);
    const taken = await t.request('POST', '/api/admin/media', {
      token: admin.token,
      body: { kind: 'film', title: 'Other', slug },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('conflict');

    const other = await createMedia(t, admin, { title: 'Earthlings' });
    expect(other.slug).not.toBe(item.slug);
    const renamed = await t.request('PATCH', `/api/admin/media/${other._id}`, {
      token: admin.token,
      body: { title: 'Earthlings, remastered' },
    });
    expect(renamed.body.slug).toBe(other.slug);
    const clash = await t.request('PATCH', `/api/admin/media/${other._id}`, { token: admin.token, body: { slug } });
    expect(clash.status).toBe(409);
    await expect(t.trpc(admin.token).media.adminUpdate.mutate({ id: other._id, slug })).rejects.toMatchObject({
      data: { code: 'conflict', httpStatus: 409 },
    });
    const newSlug = uniqueSlug('earthlings-remastered');
    const moved = await t.request('PATCH', `/api/admin/media/${other._id}`, {
      token: admin.token,
      body: { slug: newSlug },
    });
    expect(moved.body.slug).toBe(newSlug);
    expect((await t.request('GET', `/api/media/${newSlug}`)).status).toBe(200);
    expect((await t.request('GET', `/api/media/${other.slug}`)).status).toBe(404);
  });

  it('validates input (error)', async () => {
    const bad: Record<string, unknown>[] = [
      {},
      { kind: 'podcast', title: 'x' },
      { kind: 'film', title: '' },
      { kind: 'film', title: 'x', year: 1500 },
      { kind: 'film', title: 'x', year: '2018' },
      { kind: 'film', title: 'x', tags: ['sports'] },
      { kind: 'film', title: 'x', watchLinks: [{ platform: 'x', url: 'http://insecure.example' }] },
      { kind: 'film', title: 'x', watchLinks: [{ platform: 'x', url: 'javascript:alert(1)' }] },
      { kind: 'film', title: 'x', watchLinks: [{ platform: '', url: 'https://ok.example' }] },
      { kind: 'film', title: 'x', trailer: 'https://evil.example/embed/LQRAfJyEsko' },
      { kind: 'film', title: 'x', trailer: 'https://www.youtube.com/watch?v=short' },
      { kind: 'film', title: 'x', trailer: '<iframe src="https://www.youtube.com/embed/LQRAfJyEsko"></iframe>' },
      { kind: 'film', title: 'x', trailer: 'http://www.youtube.com/watch?v=LQRAfJyEsko' },
      { kind: 'film', title: 'x', poster: 'http://insecure.example/p.jpg' },
      { kind: 'film', title: 'x', poster: 'javascript:alert(1)' },
      { kind: 'film', title: 'x', poster: '../../etc/passwd' },
      { kind: 'film', title: 'x', slug: 'Bad Slug' },
      { kind: 'film', title: 'x', published: true },
      { kind: 'film', title: 'x', saveCount: 3 },
    ];
    for (const body of bad) {
      const res = await t.request('POST', '/api/admin/media', { token: admin.token, body });
      expect({ body, status: res.status, code: res.body?.error?.code }).toEqual({
        body,
        status: 400,
        code: 'validation_failed',
      });
    }
    const item = await createMedia(t, admin, {}, { publish: false });
    for (const body of [{}, { featured: 'yes' }, { published: 'true' }, { slug: 'x' }]) {
      const res = await t.request('PATCH', `/api/admin/media/${item._id}`, { token: admin.token, body });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    const missing = await t.request('PATCH', `/api/admin/media/${MISSING_ID}`, {
      token: admin.token,
      body: { featured: true },
    });
    expect(missing.status).toBe(404);
    expect((await t.request('GET', `/api/admin/media/${MISSING_ID}`, { token: admin.token })).status).toBe(404);
    expect((await t.request('GET', '/api/admin/media/not-a-uuid', { token: admin.token })).status).toBe(400);
  });

  it('accepts every documented trailer form', async () => {
    const forms: [string, string, string][] = [
      ['https://www.youtube.com/watch?v=LQRAfJyEsko&t=10', 'youtube', 'LQRAfJyEsko'],
      ['https://m.youtube.com/watch?v=LQRAfJyEsko', 'youtube', 'LQRAfJyEsko'],
      ['https://www.youtube.com/embed/LQRAfJyEsko', 'youtube', 'LQRAfJyEsko'],
      ['https://www.youtube-nocookie.com/embed/LQRAfJyEsko', 'youtube', 'LQRAfJyEsko'],
      ['https://player.vimeo.com/video/76979871', 'vimeo', '76979871'],
    ];
    for (const [trailer, provider, videoId] of forms) {
      const item = await createMedia(t, admin, { trailer }, { publish: false });
      expect(item.trailer).toMatchObject({ provider, videoId });
    }
  });

  it('lists every item for admins, drafts included, with filters and paging', async () => {
    const kind = 'talk';
    const draft = await createMedia(t, admin, { kind }, { publish: false });
    const live = await createMedia(t, admin, { kind });
    const all = await t.request('GET', '/api/admin/media?kind=talk&limit=100', { token: admin.token });
    const ids = all.body.items.map((i: any) => i._id);
    expect(ids).toEqual(expect.arrayContaining([draft._id, live._id]));
    const drafts = await t.trpc(admin.token).media.adminList.query({ kind, published: 'false', limit: 100 });
    expect(drafts.items.map((i) => i._id)).toContain(draft._id);
    expect(drafts.items.map((i) => i._id)).not.toContain(live._id);
    expect(drafts.items.every((i) => !i.published)).toBe(true);
    const page = await t.request('GET', '/api/admin/media?limit=1', { token: admin.token });
    expect(page.body.items).toHaveLength(1);
    const next = await t.request('GET', `/api/admin/media?limit=1&cursor=${page.body.nextCursor}`, {
      token: admin.token,
    });
    expect(next.body.items[0]._id > page.body.items[0]._id).toBe(true);
  });

  it('is for admins only (security)', async () => {
    const item = await createMedia(t, admin, {}, { publish: false });
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/media'],
      ['POST', '/api/admin/media', { kind: 'film', title: 'x' }],
      ['GET', `/api/admin/media/${item._id}`],
      ['PATCH', `/api/admin/media/${item._id}`, { published: true }],
      ['DELETE', `/api/admin/media/${item._id}`],
    ];
    for (const [method, path, body] of calls) {
      expect((await t.request(method, path, { body })).status).toBe(401);
      const res = await t.request(method, path, { token: member.token, body });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    await expect(t.trpc(member.token).media.adminGet.query({ id: item._id })).rejects.toBeInstanceOf(TRPCClientError);
    // Still a draft, still there.
    expect((await t.request('GET', `/api/admin/media/${item._id}`, { token: admin.token })).body.published).toBe(false);
  });
});

describe('public media list', () => {
  it('shows published items only, filtered by kind, tag and featured', async () => {
    const marker = unique('zebrafilter').toLowerCase();
    const a = await createMedia(t, admin, { kind: 'series', tags: ['cooking'], title: `${marker} alpha` });
    const b = await createMedia(t, admin, {
      kind: 'series',
      tags: ['health', 'cooking'],
      title: `${marker} beta`,
      featured: true,
    });
    const c = await createMedia(t, admin, { kind: 'short', tags: ['health'], title: `${marker} gamma` });
    const draft = await createMedia(
      t,
      admin,
      { kind: 'series', tags: ['cooking'], title: `${marker} draft` },
      {
        publish: false,
      },
    );

    const ids = (items: any[]) => items.map((i) => i._id);
    expect(ids(await listAll(`q=${marker}`))).toEqual([a._id, b._id, c._id]);
    expect(ids(await listAll(`q=${marker}&kind=series`))).toEqual([a._id, b._id]);
    expect(ids(await listAll(`q=${marker}&tag=health`))).toEqual([b._id, c._id]);
    expect(ids(await listAll(`q=${marker}&tag=cooking&kind=series`))).toEqual([a._id, b._id]);
    expect(ids(await listAll(`q=${marker}&featured=true`))).toEqual([b._id]);
    expect(ids(await listAll(`q=${marker}&featured=false`))).toEqual([a._id, c._id]);
    const viaTrpc = await t.trpc().media.list.query({ q: marker, kind: 'series', tag: 'cooking' });
    expect(ids(viaTrpc.items)).toEqual([a._id, b._id]);
    expect(ids(viaTrpc.items)).not.toContain(draft._id);

    // Unfiltered pages never carry a draft either.
    const everything = await listAll('kind=series', 100);
    expect(ids(everything)).not.toContain(draft._id);
  });

  it('searches title and synopsis by word prefix', async () => {
    const word = unique('quokka').toLowerCase();
    const inTitle = await createMedia(t, admin, { title: `The ${word} story` });
    const inSynopsis = await createMedia(t, admin, { synopsis: `A film about ${word}s and MORE-things.` });
    await createMedia(t, admin, { title: `${word} hidden` }, { publish: false });
    const search = async (q: string) =>
      (await listAll(`q=${encodeURIComponent(q)}`, 100)).map((i) => i._id).filter((id) => id !== undefined);
    expect(await search(word)).toEqual([inTitle._id, inSynopsis._id]);
    expect(await search(word.slice(0, -2).toUpperCase())).toEqual([inTitle._id, inSynopsis._id]);
    expect(await search(`${word} stor`)).toEqual([inTitle._id]);
    expect(await search(`${word} more`)).toEqual([inSynopsis._id]);
    expect(await search(`${word} nothing-like-this`)).toEqual([]);
    // Characters that mean something to to_tsquery are only separators here.
    expect(await search(`${word} & | ! ( ) :*`)).toEqual([inTitle._id, inSynopsis._id]);
    for (const q of ['', '   ', '!!!', 'x'.repeat(101)]) {
      const res = await t.request('GET', `/api/media?q=${encodeURIComponent(q)}`);
      expect({ q, status: res.status }).toEqual({ q, status: 400 });
    }
  });

  it('pages in _id order, or featured first, with cursors that belong to their ordering', async () => {
    const marker = unique('pagingmark').toLowerCase();
    const made: any[] = [];
    for (const featured of [false, true, false, true, false, true, false])
      made.push(await createMedia(t, admin, { title: `${marker} ${made.length}`, featured }));
    const ids = (items: any[]) => items.map((i) => i._id);
    expect(ids(await listAll(`q=${marker}`, 2))).toEqual(ids(made));
    const featuredFirst = [...made.filter((m) => m.featured), ...made.filter((m) => !m.featured)];
    for (const limit of [1, 2, 3, 100])
      expect(ids(await listAll(`q=${marker}&featuredFirst=true`, limit))).toEqual(ids(featuredFirst));

    // A page boundary holds even when the last item's flag changes between pages.
    const first = await t.request('GET', `/api/media?q=${marker}&featuredFirst=true&limit=2`);
    expect(ids(first.body.items)).toEqual(ids(featuredFirst.slice(0, 2)));
    await t.request('PATCH', `/api/admin/media/${first.body.items[1]._id}`, {
      token: admin.token,
      body: { featured: false },
    });
    const second = await t.request(
      'GET',
      `/api/media?q=${marker}&featuredFirst=true&limit=2&cursor=${first.body.nextCursor}`,
    );
    expect(ids(second.body.items)).toEqual(ids(featuredFirst.slice(2, 4)));

    // Cursors of one ordering are refused by the other; junk is refused everywhere.
    const plain = await t.request('GET', `/api/media?q=${marker}&limit=2`);
    const cross = [
      `/api/media?featuredFirst=true&cursor=${plain.body.nextCursor}`,
      `/api/media?cursor=${first.body.nextCursor}`,
      '/api/media?cursor=garbage',
      `/api/media?featuredFirst=true&cursor=x${plain.body.nextCursor}`,
    ];
    for (const path of cross) {
      const res = await t.request('GET', path);
      expect({ path, status: res.status, code: res.body.error?.code }).toEqual({
        path,
        status: 400,
        code: 'invalid_cursor',
      });
    }
    const viaTrpc = await t.trpc().media.list.query({ q: marker, featuredFirst: 'true', limit: 100 });
    expect(viaTrpc.nextCursor).toBeNull();
    for (const bad of ['featuredFirst=maybe', 'featured=1', 'kind=podcast', 'tag=sports', 'limit=0', 'limit=101']) {
      const res = await t.request('GET', `/api/media?${bad}`);
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
    }
  });

  it('answers 404 for a draft exactly as for a missing slug (REST + tRPC)', async () => {
    const draft = await createMedia(t, admin, {}, { publish: false });
    const asDraft = await t.request('GET', `/api/media/${draft.slug}`, { token: member.token });
    const asMissing = await t.request('GET', '/api/media/no-such-item-here', { token: member.token });
    expect(asDraft.status).toBe(404);
    expect(asDraft.body).toEqual(asMissing.body);
    await expect(t.trpc(member.token).media.get.query({ slug: draft.slug })).rejects.toMatchObject({
      data: { code: 'not_found', httpStatus: 404 },
    });
    // Even admins read drafts through the admin routes only: the public route is the public view.
    expect((await t.request('GET', `/api/media/${draft.slug}`, { token: admin.token })).status).toBe(404);
    expect((await t.request('GET', '/api/media/Not_A_Slug')).status).toBe(400);
  });
});
