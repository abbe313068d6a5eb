// Factories for the posts tests: members, friendships (both rows, as the friends domain writes
// them), groves with members, and posts created through the API.
import { sql } from 'drizzle-orm';
import { createMember, unique, type TestApp, type TestMember } from '../setup/harness.js';

export async function befriend(t: TestApp, a: TestMember, b: TestMember) {
  await t.deps.database.rows(
    sql`insert into friendships (user_id, friend_id) values (${a.id}, ${b.id}), (${b.id}, ${a.id}) on conflict do nothing`,
  );
}

/** Ends a friendship the way the friends domain does: both rows go. */
export async function unfriend(t: TestApp, a: TestMember, b: TestMember) {
  await t.deps.database.rows(
    sql`delete from friendships where (user_id = ${a.id} and friend_id = ${b.id}) or (user_id = ${b.id} and friend_id = ${a.id})`,
  );
}

/** An open grove (created by a site admin) with the given members joined. */
export async function groveWith(t: TestApp, members: TestMember[]): Promise<{ _id: string; slug: string }> {
  const admin = await createMember(t, { admin: true, prefix: 'gadm' });
  const res = await t.request('POST', '/api/admin/groves', {
    token: admin.token,
    body: { name: unique('Grove '), description: 'A grove', region: { name: unique('Area') }, joinPolicy: 'open' },
  });
  if (res.status !== 201) throw new Error(`create grove failed: ${res.status} ${res.text}`);
  for (const m of members) await joinGrove(t, res.body._id, m);
  return res.body;
}

export async function joinGrove(t: TestApp, groveId: string, member: TestMember) {
  const res = await t.request('POST', `/api/groves/${groveId}/join`, { token: member.token });
  if (res.status !== 200 && res.status !== 201) throw new Error(`join failed: ${res.status} ${res.text}`);
}

export async function leaveGrove(t: TestApp, groveId: string, member: TestMember) {
  await t.deps.database.rows(sql`delete from grove_members where grove_id = ${groveId} and user_id = ${member.id}`);
}

export interface PostBody {
  body?: string;
  visibility: 'public' | 'friends' | 'grove';
  groveId?: string;
  imageKeys?: string[];
}

export async function createPost(t: TestApp, author: TestMember, post: PostBody) {
  const res = await t.request('POST', '/api/posts', {
    token: author.token,
    body: { body: post.body ?? unique('Post '), ...post },
  });
  if (res.status !== 201) throw new Error(`create post failed: ${res.status} ${res.text}`);
  return res.body as { _id: string; body: string; visibility: string; groveId: string | null };
}

/** Moderation's "hide", as the reports domain applies it. */
export async function hidePost(t: TestApp, postId: string) {
  await t.deps.database.rows(sql`update posts set hidden_at = now() where id = ${postId}`);
}

export async function hideComment(t: TestApp, commentId: string) {
  await t.deps.database.rows(sql`update post_comments set hidden_at = now() where id = ${commentId}`);
}
