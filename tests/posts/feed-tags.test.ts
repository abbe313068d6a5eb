// The feed's `tag` filter: `#tags` in a post's text are stored when it is written (post_tags) and
// found case-insensitively in every scope, through REST and the typed client; the filter never
// widens what the caller may see; odd input is refused; the backfill migration tags older posts.
import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeTag, TAGS_PER_POST, tagsOf } from '../../server/domains/posts/tags.js';
import { createMember, createTestApp, type TestApp, unique } from '../setup/harness.js';
import { befriend, createPost, groveWith, hidePost } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A tag no other test (or earlier run) uses. */
function freshTag(): string {
  return unique('tag').replace(/[^A-Za-z0-9_]/g, '_');
}

async function idsFor(token: string, query: string): Promise<string[]> {
  const res = await t.request('GET', `/api/feed?${query}`, { token });
  expect(res.status, query).toBe(200);
  return res.body.items.map((p: { _id: string }) => p._id);
}

describe('tags of a text', () => {
  it('finds #tags of any script, once each, lower case; not numbers, words, entities or URL parts', () => {
    expect(tagsOf('Join the #Vegan potluck #vegan #VEGAN')).toEqual(['vegan']);
    expect(tagsOf('#Tierschutz, #veganismo! #веган. #動物')).toEqual(['tierschutz', 'veganismo', 'веган', '動物']);
    expect(tagsOf('#1 a#b &#39; ##double x/#y #2024 #_ok')).toEqual(['_ok']);
    // Composed and decomposed "ü" are the same tag.
    expect(tagsOf('#Tierschu\u0308tz #Tierschütz')).toEqual(['tierschütz']);
    expect(tagsOf(`#${'a'.repeat(65)} #${'b'.repeat(64)}`)).toEqual(['b'.repeat(64)]);
    const many = Array.from({ length: 40 }, (_, i) => `#t${i}`).join(' ');
    expect(tagsOf(many)).toHaveLength(TAGS_PER_POST);
    expect(normalizeTag('Vegan')).toBe('vegan');
    expect(normalizeTag('ve gan')).toBeNull();
    expect(normalizeTag('42')).toBeNull();
  });
});

describe('GET /api/feed?tag=', () => {
  it('lists the public posts with the tag, any case, newest first, paged, through REST and tRPC', async () => {
    const author = await createMember(t);
    const reader = await createMember(t);
    const tag = freshTag();
    const tagged: string[] = [];
    for (let i = 0; i < 5; i++) {
      const word = i % 2 ? tag.toUpperCase() : tag;
      tagged.unshift((await createPost(t, author, { visibility: 'public', body: `Potluck ${i} #${word}!` }))._id);
      await createPost(t, author, { visibility: 'public', body: `No tag here ${i}, just ${tag}` });
    }
    // A friends-only post with the tag is not public.
    await createPost(t, author, { visibility: 'friends', body: `Private #${tag}` });
    expect(await idsFor(reader.token, `scope=public&tag=${tag.toUpperCase()}&limit=100`)).toEqual(tagged);
    // Paging with the cursor walks the same list.
    const first = await t.request('GET', `/api/feed?scope=public&tag=${tag}&limit=2`, { token: reader.token });
    expect(first.body.items.map((p: { _id: string }) => p._id)).toEqual(tagged.slice(0, 2));
    const second = await t
      .trpc(reader.token)
      .feed.list.query({ scope: 'public', tag: `#${tag}`, limit: 3, cursor: first.body.nextCursor });
    expect(second.items.map((p) => p._id)).toEqual(tagged.slice(2, 5));
    expect(second.nextCursor).toBeNull();
  });

  it('filters the friends and grove scopes too, without widening them', async () => {
    const me = await createMember(t);
    const friend = await createMember(t);
    const stranger = await createMember(t);
    await befriend(t, me, friend);
    const grove = await groveWith(t, [me, friend]);
    const tag = freshTag();
    const fromFriend = await createPost(t, friend, { visibility: 'friends', body: `Rally #${tag}` });
    await createPost(t, friend, { visibility: 'friends', body: 'Rally, untagged' });
    await createPost(t, stranger, { visibility: 'friends', body: `Stranger #${tag}` });
    const inGrove = await createPost(t, friend, { visibility: 'grove', groveId: grove._id, body: `Grove #${tag}` });
    expect(await idsFor(me.token, `scope=friends&tag=${tag}`)).toEqual([inGrove._id, fromFriend._id]);
    expect(await idsFor(me.token, `scope=grove:${grove._id}&tag=${tag}`)).toEqual([inGrove._id]);
    expect(await idsFor(stranger.token, `scope=public&tag=${tag}`)).toEqual([]);
    expect(
      (await t.request('GET', `/api/feed?scope=grove:${grove._id}&tag=${tag}`, { token: stranger.token })).status,
    ).toBe(404);
  });

  it('leaves hidden and deleted posts out', async () => {
    const author = await createMember(t);
    const tag = freshTag();
    const hidden = await createPost(t, author, { visibility: 'public', body: `Hidden #${tag}` });
    const deleted = await createPost(t, author, { visibility: 'public', body: `Deleted #${tag}` });
    const kept = await createPost(t, author, { visibility: 'public', body: `Kept #${tag}` });
    await hidePost(t, hidden._id);
    expect((await t.request('DELETE', `/api/posts/${deleted._id}`, { token: author.token })).status).toBe(200);
    expect(await idsFor(author.token, `scope=public&tag=${tag}`)).toEqual([kept._id]);
    const rows = await t.deps.database.rows(sql`select 1 from post_tags where post_id = ${deleted._id}`);
    expect(rows).toEqual([]);
  });

  it('refuses a tag that is not one', async () => {
    const me = await createMember(t);
    for (const tag of ['', '123', 'two words', 'a'.repeat(65), 'x;drop', '%00']) {
      const res = await t.request('GET', `/api/feed?scope=public&tag=${encodeURIComponent(tag)}`, { token: me.token });
      expect(res.status, tag).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.message).toContain('tag');
    }
  });

  it('the backfill migration tags posts written before post_tags existed', async () => {
    const author = await createMember(t);
    const tag = freshTag();
    const post = await createPost(t, author, { visibility: 'public', body: `Older post #${tag} and #Straße #7` });
    await t.deps.database.rows(sql`delete from post_tags where post_id = ${post._id}`);
    expect(await idsFor(author.token, `scope=public&tag=${tag}`)).toEqual([]);
    // Found by name: the number changes when branches are merged.
    const folder = new URL('../../migrations/', import.meta.url);
    const file = readdirSync(folder).find((name) => name.endsWith('_post_tags_backfill.sql'))!;
    const migration = readFileSync(new URL(file, folder), 'utf8');
    await t.deps.database.rows(sql.raw(migration));
    expect(await idsFor(author.token, `scope=public&tag=${tag}`)).toEqual([post._id]);
    const tags = await t.deps.database.rows<{ tag: string }>(
      sql`select tag from post_tags where post_id = ${post._id} order by tag`,
    );
    expect(tags.map((row) => row.tag)).toEqual([tag.toLowerCase(), 'straße'].sort());
  });
});
