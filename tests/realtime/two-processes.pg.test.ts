// Several processes behave as one: two real server processes (A, B) and this test process (C,
// the same realtime service in-process) on one PostgreSQL database, joined by
// @socket.io/postgres-adapter. What one process publishes reaches sockets on the others; joins,
// leaves and disconnects apply everywhere. PostgreSQL only: PGlite belongs to one process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationRoom, realtime, userRoom } from '../../server/realtime/publish.js';
import { http, startServer, type ServerProcess } from '../multiprocess/server-process.js';
import { testDatabaseUrl } from '../setup/database.js';
import { createTestApp, type TestApp, unique } from '../setup/harness.js';
import {
  closeAllSockets,
  connectReady,
  disconnection,
  expectNothingBefore,
  nextEvent,
  type RealtimeServer,
  recorder,
  startRealtimeServer,
} from './socket-harness.js';

const databaseUrl = testDatabaseUrl()!;
let a: ServerProcess;
let b: ServerProcess;
let t: TestApp;
let c: RealtimeServer;

beforeAll(async () => {
  [a, b] = await Promise.all([startServer(databaseUrl), startServer(databaseUrl)]);
  t = await createTestApp();
  c = await startRealtimeServer(t);
}, 120_000);
afterAll(async () => {
  closeAllSockets();
  await c?.close();
  await t?.close();
  await Promise.all([a?.stop(), b?.stop()]);
});

async function register(server: ServerProcess) {
  const handle = unique('rt').toLowerCase().slice(0, 30);
  const body = { email: `${handle}@example.test`, password: `pw-${handle}-long-enough`, handle };
  const res = await http(server.url, 'POST', '/api/auth/register', { body });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.user._id as string, token: res.body.token as string, ...body };
}

async function login(server: ServerProcess, m: { email: string; password: string }) {
  const res = await http(server.url, 'POST', '/api/auth/login', { body: { email: m.email, password: m.password } });
  expect(res.status, res.text).toBe(200);
  return res.body.token as string;
}

/** Cross-process broadcasts are asynchronous: a join applied on B is visible after a round trip. */
async function settled(socket: Parameters<typeof nextEvent>[0], userId: string) {
  const sentinel = `sync-${Math.random().toString(36).slice(2)}`;
  const got = nextEvent(socket, sentinel);
  realtime().emit(userRoom(userId), sentinel, {});
  await got;
}

describe('fan-out across processes (PostgreSQL adapter)', () => {
  it('a socket on process B receives what process C publishes to its user room', async () => {
    const m = await register(a);
    const onB = await connectReady(b.url, m.token);
    const onA = await connectReady(a.url, await login(b, m));
    const got = [onB, onA].map((s) => nextEvent(s.socket, 'message:new'));
    realtime().emit(userRoom(m.id), 'message:new', { text: 'across processes' });
    expect(await Promise.all(got)).toEqual([{ text: 'across processes' }, { text: 'across processes' }]);
  });

  it('joins and leaves made in one process apply to sockets on the others', async () => {
    const [m, other] = await Promise.all([register(a), register(b)]);
    const onB = await connectReady(b.url, m.token);
    const otherOnA = await connectReady(a.url, other.token);
    const conversation = `conv-${unique()}`;
    realtime().joinConversation(m.id, conversation);
    await settled(onB.socket, m.id);
    const got = nextEvent(onB.socket, 'message:new');
    const logOther = recorder(otherOnA.socket);
    realtime().emit(conversationRoom(conversation), 'message:new', { n: 1 });
    expect(await got).toEqual({ n: 1 });
    await expectNothingBefore(otherOnA.socket, logOther, 'message:new', (event) =>
      realtime().emit(userRoom(other.id), event, {}),
    );

    realtime().leaveConversation(m.id, conversation);
    const logB = recorder(onB.socket);
    realtime().emit(conversationRoom(conversation), 'message:new', { n: 2 });
    await expectNothingBefore(onB.socket, logB, 'message:new', (event) => realtime().emit(userRoom(m.id), event, {}));
  });

  it('a session revoked through process A disconnects its socket on process B at once', async () => {
    const m = await register(a);
    const second = await login(a, m);
    const onB = await connectReady(b.url, second);
    const keep = await connectReady(b.url, m.token);
    const sessions = await http(a.url, 'GET', '/api/me/sessions', { token: m.token });
    const target = sessions.body.items.find((s: { current: boolean }) => !s.current);
    const ended = nextEvent(onB.socket, 'session:ended');
    const gone = disconnection(onB.socket);
    expect((await http(a.url, 'DELETE', `/api/me/sessions/${target._id}`, { token: m.token })).status).toBe(200);
    expect(await ended).toEqual({ reason: 'revoked' });
    expect(await gone).toBe('io server disconnect');
    expect(keep.socket.connected).toBe(true);
  });

  it('logout through B and account deletion through A disconnect sockets on the other process', async () => {
    const m = await register(a);
    const onA = await connectReady(a.url, m.token);
    const goneA = disconnection(onA.socket);
    expect((await http(b.url, 'POST', '/api/auth/logout', { token: m.token })).status).toBe(200);
    expect(await goneA).toBe('io server disconnect');

    const n = await register(b);
    const sockets = await Promise.all([connectReady(b.url, n.token), connectReady(c.url, await login(a, n))]);
    const gone = sockets.map((s) => disconnection(s.socket));
    expect((await http(a.url, 'DELETE', '/api/me', { token: n.token })).status).toBe(200);
    expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
  });

  it('neither server process logged an error', () => {
    for (const server of [a, b]) {
      expect(server.exited()).toBeNull();
      expect(server.output()).not.toMatch(/"level":(50|60)/);
    }
  });
});
