// The counter columns on posts (reaction counts per kind, comment count), kept by triggers
// (migrations/0026_post_counter_triggers.sql): after every kind of write they must equal a
// recount of the rows, and the API must answer them. Concurrent writers: counters.pg.test.ts.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { fileReport, decide } from '../reports/helpers.js';
import { befriend, createPost, hideComment } from './helpers.js';
import { expectCountersExact, storedCounters } from './counters.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function react(member: TestMember, postId: string, kind: string) {
  const res = await t.request('POST', `/api/posts/${postId}/reactions`, { token: member.token, body: { kind } });
  expect(res.status, res.text).toBe(200);
  return res.body as { reactions: Record<string, number> };
}

async function comment(member: TestMember, postId: string) {
  const res = await t.request('POST', `/api/posts/${postId}/comments`, { token: member.token, body: { body: 'Yes!' } });
  expect(res.status, res.text).toBe(201);
  return res.body as { _id: string };
}

describe('reaction counters', () => {
  it('follow set, change, repeat and removal of reactions', async () => {
    const author = await createMember(t);
    const [a, b, c] = [await createMember(t), await createMember(t), await createMember(t)];
    const post = await createPost(t, author, { visibility: 'public' });

    await react(a, post._id, 'heart');
    await react(b, post._id, 'heart');
    expect((await react(c, post._id, 'sad')).reactions).toEqual({ heart: 2, support: 0, celebrate: 0, sad: 1 });
    // Changing a kind moves one count; setting the same kind again changes nothing.
    await react(a, post._id, 'support');
    expect((await react(a, post._id, 'support')).reactions).toEqual({ heart: 1, support: 1, celebrate: 0, sad: 1 });
    const removed = await t.request('DELETE', `/api/posts/${post._id}/reactions`, { token: b.token });
    expect(removed.body.reactions).toEqual({ heart: 0, support: 1, celebrate: 0, sad: 1 });
    // Removing twice is idempotent and no count goes below the rows.
    await t.request('DELETE', `/api/posts/${post._id}/reactions`, { token: b.token });

    expect(await storedCounters(t, post._id)).toMatchObject({ heart: 0, support: 1, celebrate: 0, sad: 1 });
    await expectCountersExact(t, post._id);
    const read = await t.request('GET', `/api/posts/${post._id}`, { token: c.token });
    expect(read.body).toMatchObject({ reactions: { heart: 0, support: 1, celebrate: 0, sad: 1 }, myReaction: 'sad' });
  });

  it('are the same in every list that shows the post', async () => {
    const author = await createMember(t);
    const friend = await createMember(t);
    await befriend(t, author, friend);
    const post = await createPost(t, author, { visibility: 'public' });
    await react(friend, post._id, 'celebrate');
    await comment(friend, post._id);
    const expected = { reactions: { heart: 0, support: 0, celebrate: 1, sad: 0 }, commentCount: 1 };
    const friends = await t.trpc(friend.token).feed.list.query({ scope: 'friends' });
    expect(friends.items.find((p) => p._id === post._id)).toMatchObject({ ...expected, myReaction: 'celebrate' });
    const handle = await t.request('GET', `/api/handles/${author.handle}/posts`);
    expect(handle.body.items[0]).toMatchObject({ ...expected, myReaction: null });
  });
});

describe('comment counter', () => {
  it('counts comments that are not hidden, through create, moderation hiding and deletion', async () => {
    const author = await createMember(t);
    const admin = await createMember(t, { admin: true });
    const [a, b] = [await createMember(t), await createMember(t)];
    const post = await createPost(t, author, { visibility: 'public' });
    const first = await comment(a, post._id);
    const second = await comment(b, post._id);
    const third = await comment(a, post._id);
    expect((await storedCounters(t, post._id)).comments).toBe(3);

    // Hidden through a moderation decision (the reports domain's hide).
    const report = await fileReport(t, b, { targetType: 'comment', targetId: first._id });
    await decide(t, admin, report._id, { status: 'resolved', action: 'hide' });
    expect((await storedCounters(t, post._id)).comments).toBe(2);
    // Hiding again changes nothing.
    await hideComment(t, first._id);
    expect((await storedCounters(t, post._id)).comments).toBe(2);

    // Deleting a visible comment takes it off; deleting the hidden one (an admin can) does not.
    expect(
      (await t.request('DELETE', `/api/posts/${post._id}/comments/${second._id}`, { token: b.token })).status,
    ).toBe(200);
    expect((await storedCounters(t, post._id)).comments).toBe(1);
    expect(
      (await t.request('DELETE', `/api/posts/${post._id}/comments/${first._id}`, { token: admin.token })).status,
    ).toBe(200);
    expect((await storedCounters(t, post._id)).comments).toBe(1);

    // Unhiding (a direct update: no route does it) counts the comment again.
    await hideComment(t, third._id);
    expect((await storedCounters(t, post._id)).comments).toBe(0);
    await t.deps.database.rows(sql`update post_comments set hidden_at = null where id = ${third._id}`);
    await expectCountersExact(t, post._id);
    const read = await t.request('GET', `/api/posts/${post._id}`, { token: a.token });
    expect(read.body.commentCount).toBe(1);
  });
});

describe('account and post deletion', () => {
  it('deleting an account takes its reactions and comments off other members’ posts', async () => {
    const author = await createMember(t);
    const leaving = await createMember(t);
    const staying = await createMember(t);
    const post = await createPost(t, author, { visibility: 'public' });
    const other = await createPost(t, staying, { visibility: 'public' });
    await react(leaving, post._id, 'heart');
    await react(staying, post._id, 'heart');
    await comment(leaving, post._id);
    await comment(leaving, post._id);
    await comment(staying, post._id);
    await react(leaving, other._id, 'sad');
    // The leaving member's own post, with someone else's reaction and comment on it, goes too.
    const own = await createPost(t, leaving, { visibility: 'public' });
    await react(staying, own._id, 'heart');
    await comment(staying, own._id);

    expect((await t.request('DELETE', '/api/me', { token: leaving.token })).status).toBe(200);

    expect(await storedCounters(t, post._id)).toMatchObject({ heart: 1, comments: 1 });
    expect(await storedCounters(t, other._id)).toMatchObject({ sad: 0, comments: 0 });
    await expectCountersExact(t, post._id);
    await expectCountersExact(t, other._id);
    const read = await t.request('GET', `/api/posts/${post._id}`, { token: staying.token });
    expect(read.body).toMatchObject({ reactions: { heart: 1, support: 0, celebrate: 0, sad: 0 }, commentCount: 1 });
  });

  it('deleting a post with reactions and comments removes them with it', async () => {
    const author = await createMember(t);
    const reader = await createMember(t);
    const post = await createPost(t, author, { visibility: 'public' });
    await react(reader, post._id, 'heart');
    await comment(reader, post._id);
    expect((await t.request('DELETE', `/api/posts/${post._id}`, { token: author.token })).status).toBe(200);
    const [left] = await t.deps.database.rows<{ n: number }>(
      sql`select (select count(*) from post_reactions where post_id = ${post._id})::int
               + (select count(*) from post_comments where post_id = ${post._id})::int as n`,
    );
    expect(left!.n).toBe(0);
  });
});
