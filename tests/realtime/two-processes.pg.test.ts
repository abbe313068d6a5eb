// Several processes behave as one: two real server processes (A, B) and this test process (C,
// the same realtime service in-process) on one PostgreSQL database, joined by
// @socket.io/postgres-adapter. What one process publishes reaches sockets on the others; joins,
// leaves and disconnects apply everywhere. PostgreSQL only: PGlite belongs to one process.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationRoom, userRoom } from '../../server/shared/realtime-publisher.js';
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
/** Every process of a deployment shares the message keys. */
const env = { MESSAGE_KEYS: `k1:${randomBytes(32).toString('base64')}` };
let a: ServerProcess;
let b: ServerProcess;
let t: TestApp;
let c: RealtimeServer;

beforeAll(async () => {
  [a, b] = await Promise.all([startServer(databaseUrl, env), startServer(databaseUrl, env)]);
  t = await createTestApp(env);
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
  t.deps.realtime.publisher.emit(userRoom(userId), sentinel, {});
  await got;
}

describe('fan-out across processes (PostgreSQL adapter)', () => {
  it('a socket on process B receives what process C publishes to its user room', async () => {
    const m = await register(a);
    const onB = await connectReady(b.url, m.token);
    const onA = await connectReady(a.url, await login(b, m));
    const got = [onB, onA].map((s) => nextEvent(s.socket, 'message:new'));
    t.deps.realtime.publisher.emit(userRoom(m.id), 'message:new', { text: 'across processes' });
    expect(await Promise.all(got)).toEqual([{ text: 'across processes' }, { text: 'across processes' }]);
  });

  it('joins and leaves made in one process apply to sockets on the others', async () => {
    const [m, other] = await Promise.all([register(a), register(b)]);
    const onB = await connectReady(b.url, m.token);
    const otherOnA = await connectReady(a.url, other.token);
    const conversation = `conv-${unique()}`;
    t.deps.realtime.publisher.joinConversation(m.id, conversation);
    await settled(onB.socket, m.id);
    const got = nextEvent(onB.socket, 'message:new');
    const logOther = recorder(otherOnA.socket);
    t.deps.realtime.publisher.emit(conversationRoom(conversation), 'message:new', { n: 1 });
    expect(await got).toEqual({ n: 1 });
    await expectNothingBefore(otherOnA.socket, logOther, 'message:new', (event) =>
      t.deps.realtime.publisher.emit(userRoom(other.id), event, {}),
    );

    t.deps.realtime.publisher.leaveConversation(m.id, conversation);
    const logB = recorder(onB.socket);
    t.deps.realtime.publisher.emit(conversationRoom(conversation), 'message:new', { n: 2 });
    await expectNothingBefore(onB.socket, logB, 'message:new', (event) =>
      t.deps.realtime.publisher.emit(userRoom(m.id), event, {}),
    );
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

  it("a message sent through the REST API of process A reaches the members' sockets on B and C", async () => {
    const [sender, reader] = await Promise.all([register(a), register(b)]);
    await t.deps.database.rows(
      sql`insert into friendships (user_id, friend_id) values (${sender.id}, ${reader.id}), (${reader.id}, ${sender.id})`,
    );
    const onB = await connectReady(b.url, reader.token);
    const onC = await connectReady(c.url, await login(a, reader));
    const announced = nextEvent(onB.socket, 'conversation.created');
    const started = await http(a.url, 'POST', '/api/conversations', {
      token: sender.token,
      body: { memberIds: [reader.id] },
    });
    expect(started.status, started.text).toBe(201);
    expect((await announced).conversation._id).toBe(started.body._id);

    const delivered = [onB, onC].map((s) => nextEvent(s.socket, 'message.created'));
    const posted = await http(a.url, 'POST', `/api/conversations/${started.body._id}/messages`, {
      token: sender.token,
      body: { body: 'sent through A' },
    });
    expect(posted.status, posted.text).toBe(201);
    for (const payload of await Promise.all(delivered)) expect(payload.message._id).toBe(posted.body._id);

    // Larger than a NOTIFY payload (8000 bytes): it travels through socket_io_attachments,
    // sealed, so the table never holds the text.
    const canary = `canary-${unique()}`;
    const long = `${canary} ${'ж'.repeat(3900)}`;
    const bigOnB = nextEvent(onB.socket, 'message.created');
    const big = await http(a.url, 'POST', `/api/conversations/${started.body._id}/messages`, {
      token: sender.token,
      body: { body: long },
    });
    expect(big.status, big.text).toBe(201);
    expect((await bigOnB).message.body).toBe(long);
    const rows = await t.deps.database.rows<{ n: number; plain: number }>(
      sql`select count(*)::int as n, count(*) filter (where position(convert_to(${canary}, 'UTF8') in payload) > 0)::int as plain from socket_io_attachments`,
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
    expect(rows[0]!.plain).toBe(0);
  });

  it('neither server process logged an error', () => {
    for (const server of [a, b]) {
      expect(server.exited()).toBeNull();
      expect(server.output()).not.toMatch(/"level":(50|60)/);
    }
  });
});
