// The feed in its three scopes: newest first, cursor paging over `_id`, hidden posts, errors;
// and the report targets that posts and comments register for the reports domain.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportTarget } from '../../server/domains/reports/targets.js';
import type { MemberContext } from '../../server/trpc/member-context.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { befriend, createPost, groveWith, hidePost } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const missing = '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6';

async function allPages(token: string, scope: string, limit: number) {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) {
    const query: string = `/api/feed?scope=${scope}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const res = await t.request('GET', query, { token });
    expect(res.status).toBe(200);
    ids.push(...res.body.items.map((p: any) => p._id));
    cursor = res.body.nextCursor;
    if (!cursor) break;
  }
  return ids;
}

describe('GET /api/feed', () => {
  it('pages the friends feed newest first: own posts and friends posts, nothing else', async () => {
    const me = await createMember(t);
    const friendA = await createMember(t);
    const friendB = await createMember(t);
    const stranger = await createMember(t);
    await befriend(t, me, friendA);
    await befriend(t, me, friendB);
    const expected: string[] = [];
    for (let i = 0; i < 7; i++) {
      const author = [me, friendA, friendB][i % 3]!;
      expected.unshift((await createPost(t, author, { visibility: i % 2 ? 'friends' : 'public' }))._id);
      await createPost(t, stranger, { visibility: 'public' });
    }
    expect(await allPages(me.token, 'friends', 3)).toEqual(expected);
    const first = await t.trpc(me.token).feed.list.query({ limit: 7 });
    expect(first.items.map((p) => p._id)).toEqual(expected);
    expect(first.nextCursor).toBeNull();
    // The caller's own reaction and save show on feed items.
    await t.request('POST', `/api/posts/${expected[0]}/reactions`, { token: me.token, body: { kind: 'support' } });
    await t.request('POST', `/api/posts/${expected[0]}/save`, { token: me.token });
    await t.request('POST', `/api/posts/${expected[0]}/reactions`, { token: friendA.token, body: { kind: 'support' } });
    const again = await t.trpc(me.token).feed.list.query({ limit: 1 });
    expect(again.items[0]).toMatchObject({ myReaction: 'support', saved: true });
    expect(again.items[0]!.reactions.support).toBe(2);
  });

  it('pages the public feed and the grove feed', async () => {
    const author = await createMember(t);
    const reader = await createMember(t);
    const grove = await groveWith(t, [author, reader]);
    const groveIds: string[] = [];
    const publicIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      groveIds.unshift((await createPost(t, author, { visibility: 'grove', groveId: grove._id }))._id);
      publicIds.unshift((await createPost(t, author, { visibility: 'public' }))._id);
    }
    expect(await allPages(reader.token, `grove:${grove._id}`, 2)).toEqual(groveIds);
    const publicFeed = await allPages(reader.token, 'public', 4);
    expect(publicFeed.slice(0, 5)).toEqual(publicIds);
    const viaTrpc = await t.trpc(reader.token).feed.list.query({ scope: `grove:${grove._id.toUpperCase()}` });
    expect(viaTrpc.items.map((p) => p._id)).toEqual(groveIds);
  });

  it('leaves hidden posts out of every list; admins still open the ones they could read', async () => {
    const author = await createMember(t);
    const friend = await createMember(t);
    const saver = await createMember(t);
    const admin = await createMember(t, { admin: true });
    await befriend(t, author, friend);
    const grove = await groveWith(t, [author, friend]);
    const hidden = [
      await createPost(t, author, { visibility: 'public' }),
      await createPost(t, author, { visibility: 'friends' }),
      await createPost(t, author, { visibility: 'grove', groveId: grove._id }),
    ];
    await t.request('POST', `/api/posts/${hidden[0]!._id}/save`, { token: saver.token });
    for (const p of hidden) await hidePost(t, p._id);
    for (const scope of ['friends', 'public', `grove:${grove._id}`]) {
      for (const reader of [author, friend]) {
        const res = await t.request('GET', `/api/feed?scope=${scope}&limit=100`, { token: reader.token });
        expect(res.body.items.filter((p: any) => hidden.some((h) => h._id === p._id))).toEqual([]);
      }
    }
    const handle = await t.request('GET', `/api/handles/${author.handle}/posts`);
    expect(handle.body.items).toEqual([]);
    expect((await t.request('GET', '/api/me/saved-posts', { token: saver.token })).body.items).toEqual([]);
    for (const p of hidden) {
      const byAuthor = await t.request('GET', `/api/posts/${p._id}`, { token: author.token });
      expect(byAuthor.status).toBe(404);
      const comments = await t.request('GET', `/api/posts/${p._id}/comments`, { token: author.token });
      expect(comments.status).toBe(404);
    }
    // A site admin opens a hidden post that the rules would otherwise let them read (the public
    // one), but gets no way into friends-only and grove posts.
    const byAdmin = await t.request('GET', `/api/posts/${hidden[0]!._id}`, { token: admin.token });
    expect(byAdmin).toMatchObject({ status: 200, body: { hidden: true } });
    for (const p of hidden.slice(1))
      expect((await t.request('GET', `/api/posts/${p._id}`, { token: admin.token })).status).toBe(404);
  });

  it('rejects unknown scopes and bad cursors; 404s a grove that does not exist', async () => {
    const me = await createMember(t);
    for (const scope of ['everyone', 'grove:', 'grove:nope', `groves:${missing}`]) {
      const res = await t.request('GET', `/api/feed?scope=${encodeURIComponent(scope)}`, { token: me.token });
      expect(res.status, scope).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    const cursor = await t.request('GET', '/api/feed?cursor=AAAAAAAAAAAAAAAAAAAAAA', { token: me.token });
    expect(cursor.body.error.code).toBe('invalid_cursor');
    const grove = await t.request('GET', `/api/feed?scope=grove:${missing}`, { token: me.token });
    expect(grove.status).toBe(404);
    expect((await t.request('GET', '/api/feed')).status).toBe(401);
  });
});

describe('report targets', () => {
  async function memberContext(member: TestMember): Promise<MemberContext> {
    const [user] = await t.deps.database.rows<{ id: string; role: string }>(
      sql`select id, role from users where id = ${member.id}`,
    );
    return { ...t.deps, user, session: {} } as unknown as MemberContext;
  }

  it('snapshots a post and a comment as the reporter sees them, null when not visible; hide sets hidden_at', async () => {
    const author = await createMember(t);
    const friend = await createMember(t);
    const stranger = await createMember(t);
    await befriend(t, author, friend);
    const post = await createPost(t, author, { visibility: 'friends', body: 'Friends only words' });
    const comment = await t.request('POST', `/api/posts/${post._id}/comments`, {
      token: friend.token,
      body: { body: 'A reply' },
    });
    // Read before the transactions: PGlite has one connection, which a transaction holds.
    const asAuthor = await memberContext(author);
    const asFriend = await memberContext(friend);
    const asStranger = await memberContext(stranger);
    const postTarget = reportTarget(t.deps, 'post')!;
    const commentTarget = reportTarget(t.deps, 'comment')!;
    const db = t.deps.database.db;
    await db.transaction(async (tx) => {
      const snap = await postTarget.snapshot(tx, asFriend, post._id);
      expect(snap).toMatchObject({
        authorId: author.id,
        content: { postId: post._id, authorHandle: author.handle, body: 'Friends only words', visibility: 'friends' },
      });
      expect(await postTarget.snapshot(tx, asStranger, post._id)).toBeNull();
      expect(await postTarget.snapshot(tx, asFriend, missing)).toBeNull();
      const commentSnap = await commentTarget.snapshot(tx, asAuthor, comment.body._id);
      expect(commentSnap).toMatchObject({ authorId: friend.id, content: { body: 'A reply', postId: post._id } });
      expect(await commentTarget.snapshot(tx, asStranger, comment.body._id)).toBeNull();
    });
    await db.transaction(async (tx) => {
      expect(await commentTarget.hide!(tx, comment.body._id)).toBe(true);
      expect(await postTarget.hide!(tx, post._id)).toBe(true);
      expect(await postTarget.hide!(tx, missing)).toBe(false);
    });
    expect((await t.request('GET', `/api/posts/${post._id}`, { token: author.token })).status).toBe(404);
    await db.transaction(async (tx) => {
      expect(await postTarget.snapshot(tx, asFriend, post._id)).toBeNull();
    });
  });
});
