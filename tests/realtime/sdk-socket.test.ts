// The client SDK's typed socket (client-sdk/src/socket.ts) against the real namespace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMessages, isHandshakeRefusal, type MessagesSocket } from '../../client-sdk/src/socket.js';
import { userRoom } from '../../server/shared/realtime-publisher.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { type RealtimeServer, startRealtimeServer } from './socket-harness.js';

let t: TestApp;
let server: RealtimeServer;
const opened: MessagesSocket[] = [];
beforeAll(async () => {
  t = await createTestApp();
  server = await startRealtimeServer(t);
});
afterAll(async () => {
  for (const socket of opened) socket.close();
  await server?.close();
  await t?.close();
});

const open = (
  token: Parameters<typeof connectMessages>[0]['token'],
  more: Partial<Parameters<typeof connectMessages>[0]> = {},
) => {
  const socket = connectMessages({
    baseUrl: `${server.url}/`,
    token,
    socketOptions: { transports: ['websocket'] },
    ...more,
  });
  opened.push(socket);
  return socket;
};

describe('client-sdk connectMessages', () => {
  it('sends the token from a getter in the auth object and receives typed events', async () => {
    const m = await createMember(t);
    const socket = open(async () => m.token);
    const ready = await new Promise<{ userId: string; conversationIds: string[] }>((resolve) =>
      socket.on('ready', resolve),
    );
    expect(ready.userId).toBe(m.id);
    const ended = new Promise((resolve) => socket.on('session:ended', resolve));
    const gone = new Promise((resolve) => socket.on('disconnect', resolve));
    await t.request('POST', '/api/auth/logout', { token: m.token });
    expect(await ended).toEqual({ reason: 'revoked' });
    expect(await gone).toBe('io server disconnect');
  });

  it('reports a refused handshake with its code and does not retry by itself', async () => {
    const socket = open('not-a-token');
    const error = await new Promise<unknown>((resolve) => socket.on('connect_error', resolve));
    expect(isHandshakeRefusal(error, 'unauthorized')).toBe(true);
    expect(isHandshakeRefusal(error, 'unavailable')).toBe(false);
    expect(isHandshakeRefusal(new Error('xhr poll error'))).toBe(false);
    expect(socket.active).toBe(false);
  });

  it('a plain-string token works and events published to the member arrive', async () => {
    const m = await createMember(t);
    const socket = open(m.token);
    await new Promise((resolve) => socket.on('ready', resolve));
    const got = new Promise((resolve) => socket.on('conversation.left', resolve));
    t.deps.realtime.publisher.emit(userRoom(m.id), 'conversation.left', { conversationId: 'x' });
    expect(await got).toEqual({ conversationId: 'x' });
  });

  it('onResync: called when the server says events may have been missed, and after its own reconnect', async () => {
    const m = await createMember(t);
    const reasons: string[] = [];
    const socket = open(m.token, {
      onResync: (reason) => reasons.push(reason),
      socketOptions: { transports: ['websocket'], reconnectionDelay: 50, reconnectionDelayMax: 100 },
    });
    await new Promise((resolve) => socket.once('ready', resolve));
    expect(reasons, 'not for the first connection').toEqual([]);
    // What the realtime service sends after a gap (server/realtime/service.ts resyncLocalSockets).
    const told = new Promise((resolve) => socket.once('resync', resolve));
    t.deps.realtime.publisher.emit(userRoom(m.id), 'resync', { reason: 'server' });
    await told;
    expect(reasons).toEqual(['server']);
    // The transport drops (a network change): the client reconnects by itself, then catches up.
    const back = new Promise((resolve) => socket.once('ready', resolve));
    socket.io.engine.close();
    await back;
    expect(reasons).toEqual(['server', 'reconnect']);
  });
});
