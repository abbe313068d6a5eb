// Posts, reactions, comments and saves: every route through REST and the typed client, happy
// paths and errors. The visibility matrix is in visibility.test.ts, the feeds in feed.test.ts.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { befriend, createPost, groveWith, hideComment, hidePost } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const missing = '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6';
const zeroCounts = { heart: 0, support: 0, celebrate: 0, sad: 0 };

describe('POST /api/posts', () => {
  // Posts with images (real uploads, attached and stripped of metadata): tests/uploads/images.test.ts.
  it('creates a public post (REST) with counts and own state', async () => {
    const author = await createMember(t);
    const res = await t.request('POST', '/api/posts', {
      token: author.token,
      body: { body: '  Vigil tonight  ', visibility: 'public', imageKeys: [] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      author: { _id: author.id, handle: author.handle },
      body: 'Vigil tonight',
      visibility: 'public',
      groveId: null,
      imageKeys: [],
      imageUrls: [],
      reactions: zeroCounts,
      myReaction: null,
      commentCount: 0,
      saved: false,
      hidden: false,
    });
    expect(res.body._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.text).not.toContain(author.email);
  });

  it('creates a grove post for a member of the grove (tRPC)', async () => {
    const author = await createMember(t);
    const grove = await groveWith(t, [author]);
    const post = await t
      .trpc(author.token)
      .posts.create.mutate({ body: 'Grove news', visibility: 'grove', groveId: grove._id });
    expect(post).toMatchObject({ visibility: 'grove', groveId: grove._id, imageKeys: [] });
  });

  it('answers 404 for a grove post by a non-member, the same as for a missing grove', async () => {
    const author = await createMember(t);
    const grove = await groveWith(t, []);
    const a = await t.request('POST', '/api/posts', {
      token: author.token,
      body: { body: 'x', visibility: 'grove', groveId: grove._id },
    });
    const b = await t.request('POST', '/api/posts', {
      token: author.token,
      body: { body: 'x', visibility: 'grove', groveId: missing },
    });
    expect(a.status).toBe(404);
    expect(b.status).toBe(404);
    expect(a.body).toEqual(b.body);
  });

  it('validates body, visibility, groveId and image keys', async () => {
    const author = await createMember(t);
    const explicitNone = await t.request('POST', '/api/posts', {
      token: author.token,
      body: { body: 'x', visibility: 'friends', groveId: null },
    });
    expect(explicitNone).toMatchObject({ status: 201, body: { visibility: 'friends', groveId: null } });
    const bad = [
      { body: '', visibility: 'public' },
      { body: 'x'.repeat(5001), visibility: 'public' },
      { body: 'x', visibility: 'secret' },
      { body: 'x', visibility: 'grove' },
      { body: 'x', visibility: 'public', groveId: missing },
      { body: 'x', visibility: 'public', imageKeys: ['a', 'b', 'c', 'd', 'e'] },
      { body: 'x', visibility: 'public', imageKeys: [''] },
      { body: 'x', visibility: 'public', authorId: missing },
    ];
    for (const body of bad) {
      const res = await t.request('POST', '/api/posts', { token: author.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
  });

  it('needs a session', async () => {
    const res = await t.request('POST', '/api/posts', { body: { body: 'x', visibility: 'public' } });
    expect(res.status).toBe(401);
  });
});

describe('GET and DELETE /api/posts/{id}', () => {
  it('reads a post (REST and tRPC) and 404s a missing one', async () => {
    const author = await createMember(t);
    const post = await createPost(t, author, { visibility: 'public' });
    const res = await t.request('GET', `/api/posts/${post._id}`, { token: author.token });
    expect(res.status).toBe(200);
    expect(res.body._id).toBe(post._id);
    expect(await t.trpc(author.token).posts.get.query({ id: post._id })).toEqual(res.body);
    const gone = await t.request('GET', `/api/posts/${missing}`, { token: author.token });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('not_found');
    expect((await t.request('GET', '/api/posts/not-a-uuid', { token: author.token })).status).toBe(400);
    expect((await t.request('GET', `/api/posts/${post._id}`)).status).toBe(401);
  });

  it('lets the author delete (REST) and a site admin delete (tRPC); 403 for another reader', async () => {
    const author = await createMember(t);
    const other = await createMember(t);
    const admin = await createMember(t, { admin: true });
    const first = await createPost(t, author, { visibility: 'public' });
    const second = await createPost(t, author, { visibility: 'public' });
    const refused = await t.request('DELETE', `/api/posts/${first._id}`, { token: other.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    const res = await t.request('DELETE', `/api/posts/${first._id}`, { token: author.token });
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
    expect((await t.request('GET', `/api/posts/${first._id}`, { token: author.token })).status).toBe(404);
    expect(await t.trpc(admin.token).posts.delete.mutate({ id: second._id })).toEqual({ ok: true });
    expect((await t.request('DELETE', `/api/posts/${second._id}`, { token: author.token })).status).toBe(404);
  });

  it('deleting a post removes its comments, reactions and saves', async () => {
    const author = await createMember(t);
    const post = await createPost(t, author, { visibility: 'public' });
    await t.request('POST', `/api/posts/${post._id}/reactions`, { token: author.token, body: { kind: 'heart' } });
    await t.request('POST', `/api/posts/${post._id}/comments`, { token: author.token, body: { body: 'c' } });
    await t.request('POST', `/api/posts/${post._id}/save`, { token: author.token });
    await t.request('DELETE', `/api/posts/${post._id}`, { token: author.token });
    const [left] = await t.deps.database.rows<{ n: number }>(
      sql`select (select count(*) from post_reactions where post_id = ${post._id})
        + (select count(*) from post_comments where post_id = ${post._id})
        + (select count(*) from post_saves where post_id = ${post._id})
        + (select count(*) from feed_entries where post_id = ${post._id}) as n`,
    );
    expect(Number(left!.n)).toBe(0);
  });
});

describe('reactions', () => {
  it('sets, changes and removes one reaction per member, idempotently (REST)', async () => {
    const author = await createMember(t);
    const fan = await createMember(t);
    const post = await createPost(t, author, { visibility: 'public' });
    const path = `/api/posts/${post._id}/reactions`;
    let res = await t.request('POST', path, { token: fan.token, body: { kind: 'heart' } });
    expect(res).toMatchObject({ status: 200, body: { reactions: { ...zeroCounts, heart: 1 }, myReaction: 'heart' } });
    res = await t.request('POST', path, { token: fan.token, body: { kind: 'heart' } });
    expect(res.body).toEqual({ reactions: { ...zeroCounts, heart: 1 }, myReaction: 'heart' });
    res = await t.request('POST', path, { token: author.token, body: { kind: 'celebrate' } });
    expect(res.body).toEqual({ reactions: { ...zeroCounts, heart: 1, celebrate: 1 }, myReaction: 'celebrate' });
    res = await t.request('POST', path, { token: fan.token, body: { kind: 'support' } });
    expect(res.body).toEqual({ reactions: { ...zeroCounts, support: 1, celebrate: 1 }, myReaction: 'support' });
    const read = await t.request('GET', `/api/posts/${post._id}`, { token: fan.token });
    expect(read.body).toMatchObject({ reactions: { ...zeroCounts, support: 1, celebrate: 1 }, myReaction: 'support' });
    res = await t.request('DELETE', path, { token: fan.token });
    expect(res.body).toEqual({ reactions: { ...zeroCounts, celebrate: 1 }, myReaction: null });
    res = await t.request('DELETE', path, { token: fan.token });
    expect(res).toMatchObject({ status: 200, body: { reactions: { ...zeroCounts, celebrate: 1 }, myReaction: null } });
  });

  it('works through tRPC; unknown kinds are 400 and missing posts 404', async () => {
    const author = await createMember(t);
    const post = await createPost(t, author, { visibility: 'public' });
    const client = t.trpc(author.token);
    expect(await client.posts.react.mutate({ id: post._id, kind: 'sad' })).toMatchObject({ myReaction: 'sad' });
    expect(await client.posts.unreact.mutate({ id: post._id })).toMatchObject({ myReaction: null });
    const bad = await t.request('POST', `/api/posts/${post._id}/reactions`, {
      token: author.token,
      body: { kind: 'angry' },
    });
    expect(bad.status).toBe(400);
    for (const [method, body] of [
      ['POST', { kind: 'heart' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.request(method, `/api/posts/${missing}/reactions`, { token: author.token, body });
      expect(res.status).toBe(404);
    }
  });
});

describe('comments', () => {
  it('adds and lists comments oldest first with cursor paging (REST and tRPC)', async () => {
    const author = await createMember(t);
    const friend = await createMember(t);
    await befriend(t, author, friend);
    const post = await createPost(t, author, { visibility: 'friends' });
    const path = `/api/posts/${post._id}/comments`;
    const bodies = ['first', 'second', 'third'];
    for (const [i, body] of bodies.entries()) {
      const res = await t.request('POST', path, { token: i % 2 ? author.token : friend.token, body: { body } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ postId: post._id, body, hidden: false });
    }
    const first = await t.request('GET', `${path}?limit=2`, { token: author.token });
    expect(first.body.items.map((c: any) => c.body)).toEqual(['first', 'second']);
    expect(first.body.items[0].author).toEqual({ _id: friend.id, handle: friend.handle });
    const rest = await t
      .trpc(friend.token)
      .posts.listComments.query({ id: post._id, limit: 2, cursor: first.body.nextCursor });
    expect(rest.items.map((c) => c.body)).toEqual(['third']);
    expect(rest.nextCursor).toBeNull();
    const created = await t.trpc(friend.token).posts.createComment.mutate({ id: post._id, body: 'fourth' });
    expect(created.body).toBe('fourth');
    expect((await t.request('GET', `/api/posts/${post._id}`, { token: author.token })).body.commentCount).toBe(4);
    const bad = await t.request('GET', `${path}?cursor=nope`, { token: author.token });
    expect(bad.body.error.code).toBe('invalid_cursor');
    expect((await t.request('POST', path, { token: author.token, body: { body: '' } })).status).toBe(400);
    expect(
      (await t.request('POST', `/api/posts/${missing}/comments`, { token: author.token, body: { body: 'x' } })).status,
    ).toBe(404);
    expect((await t.request('GET', `/api/posts/${missing}/comments`, { token: author.token })).status).toBe(404);
  });

  it("lets the comment's author, the post's author and an admin delete; 403 for other readers", async () => {
    const author = await createMember(t);
    const commenter = await createMember(t);
    const bystander = await createMember(t);
    const admin = await createMember(t, { admin: true });
    const post = await createPost(t, author, { visibility: 'public' });
    const comment = async () =>
      (await t.request('POST', `/api/posts/${post._id}/comments`, { token: commenter.token, body: { body: 'c' } })).body
        ._id as string;
    const one = await comment();
    const refused = await t.request('DELETE', `/api/posts/${post._id}/comments/${one}`, { token: bystander.token });
    expect(refused.status).toBe(403);
    expect(
      (await t.request('DELETE', `/api/posts/${post._id}/comments/${one}`, { token: commenter.token })).body,
    ).toEqual({ ok: true });
    expect(
      (await t.request('DELETE', `/api/posts/${post._id}/comments/${one}`, { token: commenter.token })).status,
    ).toBe(404);
    const two = await comment();
    expect((await t.request('DELETE', `/api/posts/${post._id}/comments/${two}`, { token: author.token })).status).toBe(
      200,
    );
    const three = await comment();
    expect(await t.trpc(admin.token).posts.deleteComment.mutate({ id: post._id, commentId: three })).toEqual({
      ok: true,
    });
    const other = await createPost(t, author, { visibility: 'public' });
    const four = await comment();
    // A comment addressed under another post is not found there.
    expect(
      (await t.request('DELETE', `/api/posts/${other._id}/comments/${four}`, { token: commenter.token })).status,
    ).toBe(404);
  });

  it('hidden comments drop out of the list and answer 404 to everyone but admins', async () => {
    const author = await createMember(t);
    const admin = await createMember(t, { admin: true });
    const post = await createPost(t, author, { visibility: 'public' });
    const res = await t.request('POST', `/api/posts/${post._id}/comments`, {
      token: author.token,
      body: { body: 'spam' },
    });
    await hideComment(t, res.body._id);
    const list = await t.request('GET', `/api/posts/${post._id}/comments`, { token: author.token });
    expect(list.body.items).toEqual([]);
    expect((await t.request('GET', `/api/posts/${post._id}`, { token: author.token })).body.commentCount).toBe(0);
    const del = await t.request('DELETE', `/api/posts/${post._id}/comments/${res.body._id}`, { token: author.token });
    expect(del.status).toBe(404);
    const byAdmin = await t.request('DELETE', `/api/posts/${post._id}/comments/${res.body._id}`, {
      token: admin.token,
    });
    expect(byAdmin.status).toBe(200);
  });
});

describe('saves', () => {
  it('saves and unsaves idempotently (REST and tRPC); lists saved posts privately', async () => {
    const author = await createMember(t);
    const saver = await createMember(t);
    const older = await createPost(t, author, { visibility: 'public' });
    const newer = await createPost(t, author, { visibility: 'public' });
    for (const p of [older, newer]) {
      const res = await t.request('POST', `/api/posts/${p._id}/save`, { token: saver.token });
      expect(res).toMatchObject({ status: 200, body: { saved: true } });
    }
    expect(await t.trpc(saver.token).posts.save.mutate({ id: older._id })).toEqual({ saved: true });
    const list = await t.request('GET', '/api/me/saved-posts', { token: saver.token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((p: any) => p._id)).toEqual([newer._id, older._id]);
    expect(list.body.items.every((p: any) => p.saved)).toBe(true);
    const page1 = await t.trpc(saver.token).me.listSavedPosts.query({ limit: 1 });
    expect(page1.items.map((p) => p._id)).toEqual([newer._id]);
    const page2 = await t.trpc(saver.token).me.listSavedPosts.query({ limit: 1, cursor: page1.nextCursor! });
    expect(page2.items.map((p) => p._id)).toEqual([older._id]);
    expect(page2.nextCursor).toBeNull();
    // Private: the author sees no trace of it.
    expect((await t.request('GET', `/api/posts/${older._id}`, { token: author.token })).body.saved).toBe(false);
    expect((await t.request('GET', '/api/me/saved-posts', { token: author.token })).body.items).toEqual([]);
    const unsave = await t.request('DELETE', `/api/posts/${older._id}/save`, { token: saver.token });
    expect(unsave.body).toEqual({ saved: false });
    expect(await t.trpc(saver.token).posts.unsave.mutate({ id: older._id })).toEqual({ saved: false });
    const after = await t.request('GET', '/api/me/saved-posts', { token: saver.token });
    expect(after.body.items.map((p: any) => p._id)).toEqual([newer._id]);
    expect((await t.request('POST', `/api/posts/${missing}/save`, { token: saver.token })).status).toBe(404);
    expect((await t.request('DELETE', `/api/posts/${missing}/save`, { token: saver.token })).status).toBe(404);
    expect((await t.request('GET', '/api/me/saved-posts?cursor=x', { token: saver.token })).status).toBe(400);
    expect((await t.request('GET', '/api/me/saved-posts')).status).toBe(401);
  });

  it('drops saved posts the saver can no longer see (friendship ended, hidden, deleted)', async () => {
    const author = await createMember(t);
    const saver = await createMember(t);
    await befriend(t, author, saver);
    const friendsOnly = await createPost(t, author, { visibility: 'friends' });
    const hidden = await createPost(t, author, { visibility: 'public' });
    const deleted = await createPost(t, author, { visibility: 'public' });
    for (const p of [friendsOnly, hidden, deleted])
      await t.request('POST', `/api/posts/${p._id}/save`, { token: saver.token });
    await hidePost(t, hidden._id);
    await t.request('DELETE', `/api/posts/${deleted._id}`, { token: author.token });
    await t.deps.database.rows(sql`delete from friendships where user_id in (${author.id}, ${saver.id})`);
    const list = await t.request('GET', '/api/me/saved-posts', { token: saver.token });
    expect(list.body.items).toEqual([]);
  });
});

describe('account deletion', () => {
  it("deletes the member's posts, comments, reactions and saves", async () => {
    const leaver = await createMember(t);
    const other = await createMember(t);
    const own = await createPost(t, leaver, { visibility: 'public' });
    const theirs = await createPost(t, other, { visibility: 'public' });
    await t.request('POST', `/api/posts/${theirs._id}/reactions`, { token: leaver.token, body: { kind: 'heart' } });
    await t.request('POST', `/api/posts/${theirs._id}/comments`, { token: leaver.token, body: { body: 'bye' } });
    await t.request('POST', `/api/posts/${theirs._id}/save`, { token: leaver.token });
    await t.request('POST', `/api/posts/${own._id}/comments`, { token: other.token, body: { body: 'hi' } });
    const res = await t.request('DELETE', '/api/me', { token: leaver.token });
    expect(res.status).toBe(200);
    const [left] = await t.deps.database.rows<{ n: number }>(
      sql`select (select count(*) from posts where author_id = ${leaver.id})
        + (select count(*) from post_comments where author_id = ${leaver.id} or post_id = ${own._id})
        + (select count(*) from post_reactions where user_id = ${leaver.id})
        + (select count(*) from post_saves where user_id = ${leaver.id})
        + (select count(*) from feed_entries where owner_id = ${leaver.id}) as n`,
    );
    expect(Number(left!.n)).toBe(0);
    const read = await t.request('GET', `/api/posts/${theirs._id}`, { token: other.token });
    expect(read.body).toMatchObject({ reactions: zeroCounts, commentCount: 0 });
  });
});
