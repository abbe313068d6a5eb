// What one address or one account can cost the `/messages` handshake: an address whose
// handshakes keep failing (unknown tokens or tickets) is refused before any lookup until its
// window ends, other addresses are not; one member holds at most REALTIME_MAX_SOCKETS_PER_MEMBER
// sockets on a process. Both refusals are connect_error `rate_limited`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSecretToken } from '../../server/auth/tokens.js';
import { MESSAGES_NAMESPACE } from '../../server/realtime/protocol.js';
import { createMember, type TestApp } from '../setup/harness.js';
import { waitFor } from '../setup/wait.js';
import {
  connectReady,
  disconnection,
  nextEvent,
  refusedHandshake,
  type RealtimeServer,
  socketTo,
  startRealtimeApp,
  stopRealtimeApp,
} from './socket-harness.js';

let t: TestApp;
let server: RealtimeServer;
beforeAll(async () => {
  ({ t, server } = await startRealtimeApp({
    TRUST_PROXY: 'true',
    RATE_LIMIT_REALTIME_FAILURES_PER_IP: '3',
    RATE_LIMIT_REALTIME_FAILURES_WINDOW_SECONDS: '600',
    REALTIME_MAX_SOCKETS_PER_MEMBER: '2',
  }));
});
afterAll(() => stopRealtimeApp({ t, server }));

const from = (address: string) => ({ 'x-forwarded-for': address });

/** The member's sockets as the server counts them (it counts a close when it sees the transport end). */
const serverSocketsOf = (memberId: string) =>
  [...server.service.io.of(MESSAGES_NAMESPACE).sockets.values()].filter((s) => s.data.userId === memberId).length;

async function connectFrom(address: string, token: string) {
  const socket = socketTo(server.url, { token, headers: from(address) });
  await nextEvent(socket, 'ready');
  return socket;
}

describe('failed handshakes per address', () => {
  it('refuses an address after its failures, even with a valid token, until the window ends; others connect', async () => {
    const member = await createMember(t);
    const address = '203.0.113.7';
    for (let i = 0; i < 3; i++) {
      const { data } = await refusedHandshake(server.url, { token: generateSecretToken(), headers: from(address) });
      expect(data?.code).toBe('unauthorized');
    }
    // Over its limit now: refused before any lookup, a valid token or a ticket alike.
    const refused = await refusedHandshake(server.url, { token: member.token, headers: from(address) });
    expect(refused.data).toEqual({
      code: 'rate_limited',
      message: expect.stringMatching(/^Too many failed connection attempts; try again in \d+ seconds\.$/),
    });
    const ticketRefused = await refusedHandshake(server.url, {
      auth: { ticket: 'x'.repeat(52) },
      headers: from(address),
    });
    expect(ticketRefused.data?.code).toBe('rate_limited');

    // Another address (the member elsewhere, or other members behind another NAT) is not affected.
    const elsewhere = await connectFrom('198.51.100.9', member.token);
    expect(elsewhere.connected).toBe(true);
    elsewhere.close();

    t.clock.advance(601_000);
    const again = await connectFrom(address, member.token);
    expect(again.connected).toBe(true);
    again.close();
  });

  it('counts only failures: many successful handshakes from one address are never limited', async () => {
    const member = await createMember(t);
    for (let i = 0; i < 6; i++) {
      const socket = await connectFrom('192.0.2.44', member.token);
      socket.close();
      await waitFor(() => serverSocketsOf(member.id) === 0, { message: 'the server to see the socket closed' });
    }
  });
});

describe('open sockets per member', () => {
  it('refuses the member a socket past the cap, accepts one once another closes; other members are not affected', async () => {
    const member = await createMember(t);
    const first = await connectFrom('192.0.2.10', member.token);
    await connectFrom('192.0.2.11', member.token);
    const { data } = await refusedHandshake(server.url, { token: member.token, headers: from('192.0.2.12') });
    expect(data).toEqual({ code: 'rate_limited', message: expect.stringContaining('too many open connections') });

    const other = await connectReady(server.url, (await createMember(t)).token);
    expect(other.socket.connected).toBe(true);

    const gone = disconnection(first);
    first.close();
    await gone;
    // The server counts the close when it sees the transport end.
    await waitFor(() => serverSocketsOf(member.id) < 2, { message: 'the server to count the closed socket' });
    const socket = socketTo(server.url, { token: member.token, headers: from('192.0.2.13') });
    const accepted = await new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(true));
      socket.once('connect_error', () => resolve(false));
    });
    expect(accepted).toBe(true);
  });
});
