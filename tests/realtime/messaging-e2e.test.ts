// End to end with the messaging routes: REST calls change conversations, real socket.io clients
// see exactly what they should (every member's sockets, no one else), and leaving a
// conversation stops deliveries at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { befriend, send, startConversation } from '../messaging/helpers.js';
import { createMember, type TestApp, type TestMember } from '../setup/harness.js';
import {
  connectReady,
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

async function login(m: TestMember): Promise<string> {
  const res = await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } });
  expect(res.status).toBe(200);
  return res.body.token;
}

/**
 * Proves the socket never received message `body`: the member then sends a marker message in a
 * conversation of their own; once the marker arrives (in order, same process), `body` had not.
 */
async function expectNoMessage(
  socket: Parameters<typeof recorder>[0],
  log: ReturnType<typeof recorder>,
  body: string,
  member: TestMember,
  ownConversationId: string,
) {
  const marker = `marker-${Math.random().toString(36).slice(2)}`;
  const arrived = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('marker not delivered')), 5_000);
    socket.on('message.created', (payload: { message: { body: string } }) => {
      if (payload.message.body !== marker) return;
      clearTimeout(timer);
      resolve();
    });
  });
  await send(t, member, ownConversationId, marker);
  await arrived;
  expect(log.of('message.created').map((p) => p.message.body)).not.toContain(body);
}

describe('messaging over sockets', () => {
  it('a new conversation is announced to every member and its messages reach every member socket only', async () => {
    const [a, b, outsider] = await Promise.all([createMember(t), createMember(t), createMember(t)]);
    await befriend(t, a, b);
    await befriend(t, a, outsider);
    const [a1, a2, b1, o1] = await Promise.all([
      connectReady(server.url, a.token),
      connectReady(server.url, await login(a)),
      connectReady(server.url, b.token),
      connectReady(server.url, outsider.token),
    ]);
    const logOutsider = recorder(o1.socket);
    const announced = [a1, a2, b1].map((s) => nextEvent(s.socket, 'conversation.created'));
    const conversation = await startConversation(t, a, [b]);
    for (const payload of await Promise.all(announced)) expect(payload.conversation._id).toBe(conversation._id);

    // The sockets joined the new room when it was created: no reconnect needed.
    const delivered = [a1, a2, b1].map((s) => nextEvent(s.socket, 'message.created'));
    const sent = await send(t, b, conversation._id, 'meet at 6');
    for (const payload of await Promise.all(delivered)) {
      expect(payload.message._id).toBe(sent._id);
      expect(payload.message.body).toBe('meet at 6');
      expect(payload.message.expiresAt).toBe(sent.expiresAt);
    }
    // The outsider saw nothing: a conversation of their own, created afterwards, arrives first.
    const own = await startConversation(t, outsider, [a]);
    await expectNoMessage(o1.socket, logOutsider, 'meet at 6', outsider, own._id);
    expect(logOutsider.of('conversation.created').map((p) => p.conversation._id)).toEqual([own._id]);
  });

  it('a socket opened later joins the rooms of its conversations from the membership table', async () => {
    const [a, b] = await Promise.all([createMember(t), createMember(t)]);
    await befriend(t, a, b);
    const conversation = await startConversation(t, a, [b]);
    const { socket, ready } = await connectReady(server.url, b.token);
    expect(ready.conversationIds).toEqual([conversation._id]);
    const got = nextEvent(socket, 'message.created');
    await send(t, a, conversation._id, 'hello later socket');
    expect((await got).message.body).toBe('hello later socket');
  });

  it('leaving a conversation stops deliveries to every socket of the leaver at once', async () => {
    const [a, b, c] = await Promise.all([createMember(t), createMember(t), createMember(t)]);
    await befriend(t, a, b);
    await befriend(t, a, c);
    const group = await startConversation(t, a, [b, c], 'group');
    const [c1, c2, b1] = await Promise.all([
      connectReady(server.url, c.token),
      connectReady(server.url, await login(c)),
      connectReady(server.url, b.token),
    ]);
    const left = [c1, c2].map((s) => nextEvent(s.socket, 'conversation.left'));
    const changed = nextEvent(b1.socket, 'conversation.changed');
    const res = await t.request('DELETE', `/api/conversations/${group._id}/leave`, { token: c.token });
    expect(res.status).toBe(200);
    expect(await Promise.all(left)).toEqual([{ conversationId: group._id }, { conversationId: group._id }]);
    expect((await changed).conversation._id).toBe(group._id);

    const logs = [recorder(c1.socket), recorder(c2.socket)];
    const toB = nextEvent(b1.socket, 'message.created');
    await send(t, a, group._id, 'after c left');
    expect((await toB).message.body).toBe('after c left');
    const own = await startConversation(t, c, [a]);
    for (const [i, s] of [c1, c2].entries()) await expectNoMessage(s.socket, logs[i]!, 'after c left', c, own._id);
  });

  it('a message deleted for everyone is announced to the members', async () => {
    const [a, b] = await Promise.all([createMember(t), createMember(t)]);
    await befriend(t, a, b);
    const conversation = await startConversation(t, a, [b]);
    const { socket } = await connectReady(server.url, b.token);
    const sent = await send(t, a, conversation._id, 'oops');
    const deleted = nextEvent(socket, 'message.deleted');
    const res = await t.request('DELETE', `/api/conversations/${conversation._id}/messages/${sent._id}`, {
      token: a.token,
    });
    expect(res.status).toBe(200);
    expect(await deleted).toEqual({ conversationId: conversation._id, messageId: sent._id });
  });
});
