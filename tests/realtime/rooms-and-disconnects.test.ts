// Rooms, delivery through the publisher seam, and the session ends that must reach open sockets
// at once: revoking one session, revoking the others, logout, a password change, panic,
// account deletion, and a session expiring while connected.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationRoom, userRoom } from '../../server/shared/realtime-publisher.js';
import { befriend, startConversation } from '../messaging/helpers.js';
import { createMember, type TestApp, type TestMember } from '../setup/harness.js';
import {
  connectReady,
  disconnection,
  expectNothingBefore,
  nextEvent,
  type RealtimeServer,
  recorder,
  startRealtimeApp,
  stopRealtimeApp,
} from './socket-harness.js';

let t: TestApp;
let server: RealtimeServer;
beforeAll(async () => {
  ({ t, server } = await startRealtimeApp());
});
afterAll(() => stopRealtimeApp({ t, server }));

async function secondSession(m: TestMember): Promise<string> {
  const res = await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } });
  expect(res.status).toBe(200);
  return res.body.token;
}

const toUser = (userId: string) => (event: string) => t.deps.realtime.publisher.emit(userRoom(userId), event, {});

describe('rooms and delivery', () => {
  it('joins the rooms of its conversations on connect and receives their events', async () => {
    const [a, b, c] = await Promise.all([createMember(t), createMember(t), createMember(t)]);
    await befriend(t, a, b);
    await befriend(t, a, c);
    const ab = await startConversation(t, a, [b]);
    const abc = await startConversation(t, a, [b, c], 'all three');
    const [sa, sa2, sb, sc] = await Promise.all([
      connectReady(server.url, a.token),
      connectReady(server.url, await secondSession(a)),
      connectReady(server.url, b.token),
      connectReady(server.url, c.token),
    ]);
    expect(sa.ready).toEqual({ userId: a.id, conversationIds: [ab._id, abc._id].sort() });
    expect(sc.ready.conversationIds).toEqual([abc._id]);

    // Every socket of every member receives; the non-member does not.
    const logC = recorder(sc.socket);
    const got = [sa, sa2, sb].map((s) => nextEvent(s.socket, 'message:new'));
    t.deps.realtime.publisher.emit(conversationRoom(ab._id), 'message:new', { text: 'hello' });
    expect(await Promise.all(got)).toEqual([{ text: 'hello' }, { text: 'hello' }, { text: 'hello' }]);
    await expectNothingBefore(sc.socket, logC, 'message:new', toUser(c.id));

    // A user room reaches that member's sockets only.
    const logB = recorder(sb.socket);
    const both = [sa, sa2].map((s) => nextEvent(s.socket, 'conversation:created'));
    t.deps.realtime.publisher.emit(userRoom(a.id), 'conversation:created', { _id: 'c-new' });
    await Promise.all(both);
    await expectNothingBefore(sb.socket, logB, 'conversation:created', toUser(b.id));
  });

  it('joinConversation adds every socket of the member; leaveConversation stops deliveries', async () => {
    const [a, b] = await Promise.all([createMember(t), createMember(t)]);
    const [s1, s2, sb] = await Promise.all([
      connectReady(server.url, a.token),
      connectReady(server.url, await secondSession(a)),
      connectReady(server.url, b.token),
    ]);
    t.deps.realtime.publisher.joinConversation(a.id, 'c-join');
    t.deps.realtime.publisher.joinConversation(b.id, 'c-join');
    const got = [s1, s2, sb].map((s) => nextEvent(s.socket, 'message:new'));
    t.deps.realtime.publisher.emit(conversationRoom('c-join'), 'message:new', { n: 1 });
    await Promise.all(got);

    t.deps.realtime.publisher.leaveConversation(a.id, 'c-join');
    const logs = [recorder(s1.socket), recorder(s2.socket)];
    const toB = nextEvent(sb.socket, 'message:new');
    t.deps.realtime.publisher.emit(conversationRoom('c-join'), 'message:new', { n: 2 });
    expect(await toB).toEqual({ n: 2 });
    await expectNothingBefore(s1.socket, logs[0]!, 'message:new', toUser(a.id));
    expect(logs[1]!.names()).not.toContain('message:new');
  });

  it('a client cannot emit into rooms: the namespace ignores client events', async () => {
    const [a, b] = await Promise.all([createMember(t), createMember(t)]);
    await befriend(t, a, b);
    await startConversation(t, a, [b]);
    const [sa, sb] = await Promise.all([connectReady(server.url, a.token), connectReady(server.url, b.token)]);
    const logB = recorder(sb.socket);
    sa.socket.emit('message:new', { forged: true });
    sa.socket.emit('join', 'conversation:other');
    await expectNothingBefore(sb.socket, logB, 'message:new', toUser(b.id));
    expect(sa.socket.connected).toBe(true);
  });
});

describe('session ends reach open sockets at once', () => {
  it('DELETE /api/me/sessions/:id disconnects that session only', async () => {
    const m = await createMember(t);
    const other = await secondSession(m);
    const [mine, theirs] = await Promise.all([connectReady(server.url, m.token), connectReady(server.url, other)]);
    const sessions = await t.request('GET', '/api/me/sessions', { token: m.token });
    const target = sessions.body.items.find((s: { current: boolean }) => !s.current);
    const ended = nextEvent(theirs.socket, 'session:ended');
    const gone = disconnection(theirs.socket);
    expect((await t.request('DELETE', `/api/me/sessions/${target._id}`, { token: m.token })).status).toBe(200);
    expect(await ended).toEqual({ reason: 'revoked' });
    expect(await gone).toBe('io server disconnect');
    expect(mine.socket.connected).toBe(true);
  });

  it('revoke-others and a password change disconnect every other session, not this one', async () => {
    const m = await createMember(t);
    const [mine, o1] = await Promise.all([
      connectReady(server.url, m.token),
      connectReady(server.url, await secondSession(m)),
    ]);
    const gone = disconnection(o1.socket);
    const res = await t.trpc(m.token).me.revokeOtherSessions.mutate({});
    expect(res.revokedSessions).toBe(1);
    expect(await gone).toBe('io server disconnect');

    const o2 = await connectReady(server.url, await secondSession(m));
    const gone2 = disconnection(o2.socket);
    const patched = await t.request('PATCH', '/api/me', {
      token: m.token,
      body: { newPassword: 'another long enough password', currentPassword: m.password },
    });
    expect(patched.status).toBe(200);
    expect(await gone2).toBe('io server disconnect');
    expect(mine.socket.connected).toBe(true);
  });

  it('logout disconnects the sockets of that session', async () => {
    const m = await createMember(t);
    const { socket } = await connectReady(server.url, m.token);
    const gone = disconnection(socket);
    expect((await t.trpc(m.token).auth.logout.mutate({})).ok).toBe(true);
    expect(await gone).toBe('io server disconnect');
  });

  it('panic disconnects every socket of the member', async () => {
    const m = await createMember(t);
    const sockets = await Promise.all([
      connectReady(server.url, m.token),
      connectReady(server.url, await secondSession(m)),
    ]);
    const gone = sockets.map((s) => disconnection(s.socket));
    expect((await t.request('POST', '/api/me/panic', { token: m.token, body: {} })).status).toBe(200);
    expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
  });

  it('account deletion disconnects every socket of the member and nobody else', async () => {
    const [m, bystander] = await Promise.all([createMember(t), createMember(t)]);
    const sockets = await Promise.all([
      connectReady(server.url, m.token),
      connectReady(server.url, await secondSession(m)),
    ]);
    const other = await connectReady(server.url, bystander.token);
    const gone = sockets.map((s) => disconnection(s.socket));
    expect((await t.request('DELETE', '/api/me', { token: m.token })).status).toBe(200);
    expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
    expect(other.socket.connected).toBe(true);
  });

  it('a session that expires while connected is cut at its expiresAt', async () => {
    const m = await createMember(t);
    // The session ends 600 ms from now (by the test clock, which here matches real time).
    t.clock.set(new Date());
    await t.deps.database.rows(
      sql`update sessions set expires_at = ${new Date(t.clock.now().getTime() + 600).toISOString()} where user_id = ${m.id}`,
    );
    const { socket } = await connectReady(server.url, m.token);
    const ended = nextEvent(socket, 'session:ended', 5000);
    const gone = disconnection(socket);
    expect(await ended).toEqual({ reason: 'expired' });
    expect(await gone).toBe('io server disconnect');
  });

  it('the periodic re-check cuts sockets whose session expired or was deleted without a publish', async () => {
    const [expiring, swept, alive] = await Promise.all([createMember(t), createMember(t), createMember(t)]);
    const sockets = await Promise.all([expiring, swept, alive].map((m) => connectReady(server.url, m.token)));
    // One session's row now ends in the past (as the clock sees it); another is deleted behind
    // the service's back (as the expiry sweep does).
    await t.deps.database.rows(
      sql`update sessions set expires_at = ${new Date(t.clock.now().getTime() - 1).toISOString()} where user_id = ${expiring.id}`,
    );
    await t.deps.database.rows(sql`delete from sessions where user_id = ${swept.id}`);
    const reasons = sockets.slice(0, 2).map((s) => nextEvent(s.socket, 'session:ended'));
    expect(await server.service.recheckSessions()).toBe(2);
    expect(await Promise.all(reasons)).toEqual([{ reason: 'revoked' }, { reason: 'revoked' }]);
    expect(sockets[2]!.socket.connected).toBe(true);
  });
});
