// Reports on posts and comments (targets registered by the posts domain): only what the reporter
// can see, `hide` as a moderation action (404 to everyone but admins afterwards), and evidence
// that survives the author deleting the post or the whole account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { befriend, createPost, groveWith } from '../posts/helpers.js';
import { findInEveryTable } from '../setup/db-scan.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { adminView, decide, fileReport } from './helpers.js';

let t: TestApp;
let admin: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createMember(t, { admin: true });
});
afterAll(() => t.close());

const report = (token: string, targetType: string, targetId: string) =>
  t.request('POST', '/api/reports', { token, body: { targetType, targetId, reason: 'harassment' } });

async function commentOn(postId: string, author: TestMember, body: string) {
  const res = await t.request('POST', `/api/posts/${postId}/comments`, { token: author.token, body: { body } });
  expect(res.status, res.text).toBe(201);
  return res.body as { _id: string };
}

describe('reporting posts and comments', () => {
  it('reports a visible post (201, REST and tRPC) with a snapshot naming its author for the admins', async () => {
    const author = await createMember(t);
    const friend = await createMember(t);
    await befriend(t, author, friend);
    const stranger = await createMember(t);
    const friendsPost = await createPost(t, author, { visibility: 'friends', body: 'Friends-only words' });
    const publicPost = await createPost(t, author, { visibility: 'public', body: 'Public words' });

    const filed = await fileReport(t, friend, { targetType: 'post', targetId: friendsPost._id });
    expect(filed).toMatchObject({ targetType: 'post', targetId: friendsPost._id, status: 'open' });
    const typed = await t
      .trpc(stranger.token)
      .reports.create.mutate({ targetType: 'post', targetId: publicPost._id, reason: 'spam' });
    expect(typed.status).toBe('open');

    const view = await adminView(t, admin, filed._id, 'targetType=post');
    expect(view.target).toMatchObject({
      author: { _id: author.id, handle: author.handle },
      state: 'present',
      snapshot: { body: 'Friends-only words', authorHandle: author.handle, visibility: 'friends' },
    });
  });

  it('answers 404, identical to a missing post, for a post or comment the reporter cannot see', async () => {
    const author = await createMember(t);
    const outsider = await createMember(t);
    const member = await createMember(t);
    const grove = await groveWith(t, [author, member]);
    const friendsPost = await createPost(t, author, { visibility: 'friends' });
    const grovePost = await createPost(t, author, { visibility: 'grove', groveId: grove._id });
    const comment = await commentOn(grovePost._id, member, 'A grove-only comment');
    const absentPost = await report(outsider.token, 'post', newId());
    const absentComment = await report(outsider.token, 'comment', newId());
    expect(absentPost.status).toBe(404);

    for (const id of [friendsPost._id, grovePost._id]) {
      const res = await report(outsider.token, 'post', id);
      expect(res.status).toBe(404);
      expect(res.text).toBe(absentPost.text);
    }
    const res = await report(outsider.token, 'comment', comment._id);
    expect(res.status).toBe(404);
    expect(res.text).toBe(absentComment.text);
    // A grove member sees both.
    await fileReport(t, member, { targetType: 'post', targetId: grovePost._id });
    const ofComment = await fileReport(t, author, { targetType: 'comment', targetId: comment._id });
    const view = await adminView(t, admin, ofComment._id, 'targetType=comment');
    expect(view.target).toMatchObject({
      author: { _id: member.id, handle: member.handle },
      snapshot: { body: 'A grove-only comment', postId: grovePost._id },
    });
  });

  it('hide: the post then answers 404 to everyone but admins; the reporter sees the action, never who took it', async () => {
    const author = await createMember(t);
    const friend = await createMember(t);
    await befriend(t, author, friend);
    const post = await createPost(t, author, { visibility: 'public', body: 'Abusive words' });
    const filed = await fileReport(t, friend, { targetType: 'post', targetId: post._id });

    const decided = await decide(t, admin, filed._id, {
      status: 'resolved',
      action: 'hide',
      note: 'Clear harassment.',
      publicNote: 'The post was hidden.',
    });
    expect(decided).toMatchObject({ status: 'resolved', action: 'hide', target: { state: 'hidden' } });
    expect(decided.decisions).toMatchObject([{ action: 'hide', moderator: { _id: admin.id } }]);

    const missing = await t.request('GET', `/api/posts/${newId()}`, { token: friend.token });
    for (const who of [author, friend, await createMember(t)]) {
      const res = await t.request('GET', `/api/posts/${post._id}`, { token: who.token });
      expect(res.status).toBe(404);
      expect(res.text).toBe(missing.text);
    }
    expect((await t.request('GET', `/api/posts/${post._id}`, { token: admin.token })).status).toBe(200);
    // Hidden content cannot be reported again by members: it is not visible to them.
    expect((await report((await createMember(t)).token, 'post', post._id)).status).toBe(404);

    const mine = await t.request('GET', '/api/me/reports', { token: friend.token });
    expect(mine.body.items[0]).toMatchObject({ _id: filed._id, action: 'hide', publicNote: 'The post was hidden.' });
    for (const secret of [admin.id, admin.handle, 'Clear harassment.']) expect(mine.text).not.toContain(secret);
  });

  it('hide on a comment: it leaves the comment list of everyone but admins', async () => {
    const author = await createMember(t);
    const commenter = await createMember(t);
    const post = await createPost(t, author, { visibility: 'public' });
    const comment = await commentOn(post._id, commenter, 'Nasty comment');
    const filed = await fileReport(t, author, { targetType: 'comment', targetId: comment._id });
    const decided = await t
      .trpc(admin.token)
      .reports.resolve.mutate({ id: filed._id, status: 'resolved', action: 'hide' });
    expect(decided.target.state).toBe('hidden');
    const list = await t.request('GET', `/api/posts/${post._id}/comments`, { token: commenter.token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((c: { _id: string }) => c._id)).not.toContain(comment._id);
  });

  it('keeps the snapshot when the author deletes the post; hiding it then answers 409', async () => {
    const author = await createMember(t);
    const reporter = await createMember(t);
    const post = await createPost(t, author, { visibility: 'public', body: 'Evidence that will be deleted' });
    const filed = await fileReport(t, reporter, { targetType: 'post', targetId: post._id });
    const del = await t.request('DELETE', `/api/posts/${post._id}`, { token: author.token });
    expect(del.status, del.text).toBe(200);

    const view = await adminView(t, admin, filed._id, 'targetType=post');
    expect(view.target).toMatchObject({
      state: 'deleted',
      author: { _id: author.id },
      snapshot: { body: 'Evidence that will be deleted' },
    });
    const hide = await t.request('PUT', `/api/admin/reports/${filed._id}`, {
      token: admin.token,
      body: { status: 'resolved', action: 'hide' },
    });
    expect(hide.status).toBe(409);
    expect(hide.body.error.code).toBe('conflict');
    // Deciding without the action still works: the report is not stuck.
    await decide(t, admin, filed._id, { status: 'resolved', publicNote: 'The author removed it.' });
  });

  it("keeps the words of a deleted account's post, without its author's id or handle", async () => {
    const author = await createMember(t, { prefix: 'gone' });
    const reporter = await createMember(t);
    const post = await createPost(t, author, { visibility: 'public', body: 'Words kept as evidence' });
    const filed = await fileReport(t, reporter, { targetType: 'post', targetId: post._id });

    expect((await t.request('DELETE', '/api/me', { token: author.token })).status).toBe(200);
    expect(await findInEveryTable(t.deps.database, [author.id, author.email, author.handle])).toEqual([]);
    const view = await adminView(t, admin, filed._id, 'targetType=post');
    expect(view.target).toMatchObject({
      author: null,
      authorDeleted: true,
      state: 'deleted',
      snapshot: { body: 'Words kept as evidence', authorHandle: '[deleted member]' },
    });
  });
});
