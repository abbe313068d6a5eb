// Factories for the messaging tests: friendships (two rows, as the social milestone writes them),
// a shared grove, conversations and messages through the API.
import { sql } from 'drizzle-orm';
import { createSession } from '../../server/auth/sessions.js';
import type { RealtimePublisher } from '../../server/shared/realtime-publisher.js';
import type { AppDeps } from '../../server/trpc/context.js';
import { createAdmin, createGrove } from '../events/helpers.js';
import { createMember, type TestApp, type TestMember } from '../setup/harness.js';

export async function befriend(t: TestApp, a: TestMember, b: TestMember) {
  await t.deps.database.rows(
    sql`insert into friendships (user_id, friend_id) values (${a.id}, ${b.id}), (${b.id}, ${a.id}) on conflict do nothing`,
  );
}

export async function unfriend(t: TestApp, a: TestMember, b: TestMember) {
  await t.deps.database.rows(
    sql`delete from friendships where (user_id = ${a.id} and friend_id = ${b.id}) or (user_id = ${b.id} and friend_id = ${a.id})`,
  );
}

/** An open grove both members join. */
export async function shareGrove(t: TestApp, members: TestMember[]) {
  const admin = await createAdmin(t);
  const grove = await createGrove(t, admin);
  for (const m of members) {
    const res = await t.request('POST', `/api/groves/${grove._id}/join`, { token: m.token, body: {} });
    if (res.status !== 200) throw new Error(`join failed: ${res.status} ${res.text}`);
  }
  return grove;
}

/** `count` members, all friends of the first. */
export async function circle(t: TestApp, count: number) {
  const members: TestMember[] = [];
  for (let i = 0; i < count; i++) members.push(await createMember(t, { prefix: `c${i}` }));
  for (const other of members.slice(1)) await befriend(t, members[0]!, other);
  return members;
}

export async function startConversation(t: TestApp, by: TestMember, with_: TestMember[], title?: string) {
  const res = await t.request('POST', '/api/conversations', {
    token: by.token,
    body: { memberIds: with_.map((m) => m.id), ...(title ? { title } : {}) },
  });
  if (res.status !== 201) throw new Error(`start conversation failed: ${res.status} ${res.text}`);
  return res.body as { _id: string; kind: string; members: { _id: string; handle: string }[] };
}

export async function send(t: TestApp, by: TestMember, conversationId: string, body: string) {
  const res = await t.request('POST', `/api/conversations/${conversationId}/messages`, {
    token: by.token,
    body: { body },
  });
  if (res.status !== 201) throw new Error(`send failed: ${res.status} ${res.text}`);
  return res.body as { _id: string; body: string; createdAt: string; expiresAt: string };
}

export interface Emitted {
  kind: 'emit' | 'join' | 'leave';
  room?: string;
  event?: string;
  payload?: any;
  userId?: string;
  conversationId?: string;
}

/** Installs a publisher that records every call into the app's link; returns the record and an uninstall function. */
export function recordRealtime(deps: Pick<AppDeps, 'realtime'>): {
  calls: Emitted[];
  publisher: RealtimePublisher;
  uninstall: () => void;
} {
  const calls: Emitted[] = [];
  const publisher: RealtimePublisher = {
    emit: (room, event, payload) => calls.push({ kind: 'emit', room, event, payload }),
    joinConversation: (userId, conversationId) => calls.push({ kind: 'join', userId, conversationId }),
    leaveConversation: (userId, conversationId) => calls.push({ kind: 'leave', userId, conversationId }),
    disconnectSession: () => {},
    disconnectUser: () => {},
  };
  deps.realtime.install(publisher);
  return { calls, publisher, uninstall: () => deps.realtime.install(null) };
}

/** A fresh session for the member at the clock's current time (sessions expire after 30 days). */
export async function renewSession(t: TestApp, member: TestMember): Promise<TestMember> {
  const { token } = await createSession(t.deps.database.db, member.id, t.clock.now(), 30);
  return { ...member, token };
}
