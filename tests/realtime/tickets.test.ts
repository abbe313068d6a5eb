// Socket tickets (POST /api/realtime/tickets): how the web front end's pages, which never hold
// the session token, open the `/messages` socket. Single use, 60 seconds, bound to the session
// that asked for it, good for the handshake only.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type TestApp, type TestMember } from '../setup/harness.js';
import { befriend, send, startConversation } from '../messaging/helpers.js';
import {
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
  ({ t, server } = await startRealtimeApp());
});
afterAll(() => stopRealtimeApp({ t, server }));

async function ticketFor(member: TestMember): Promise<{ ticket: string; expiresAt: string }> {
  const res = await t.request('POST', '/api/realtime/tickets', { token: member.token, body: {} });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function connectWithTicket(ticket: string) {
  const socket = socketTo(server.url, { auth: { ticket } });
  const ready = await nextEvent<{ userId: string; conversationIds: string[] }>(socket, 'ready');
  return { socket, ready };
}

const ticketRefused = {
  code: 'unauthorized',
  message: 'The ticket is invalid, already used or expired, or its session ended.',
};

describe('POST /api/realtime/tickets', () => {
  it('issues a 60-second ticket to a member (REST), and refuses an anonymous caller', async () => {
    const m = await createMember(t);
    const before = t.clock.now().getTime();
    const { ticket, expiresAt } = await ticketFor(m);
    expect(ticket).toMatch(/^[a-z2-7]{52}$/);
    expect(ticket).not.toBe(m.token);
    expect(new Date(expiresAt).getTime() - before).toBe(60_000);
    // Only its hash is stored.
    const rows = await t.deps.database.rows<{ token_hash: Uint8Array }>(sql`select token_hash from realtime_tickets`);
    expect(rows.some((r) => Buffer.from(r.token_hash).toString('utf8').includes(ticket))).toBe(false);

    const anonymous = await t.request('POST', '/api/realtime/tickets', { body: {} });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('unauthorized');
  });

  it('issues tickets through the typed client too', async () => {
    const m = await createMember(t);
    const { ticket } = await t.trpc(m.token).realtime.createTicket.mutate({});
    const { ready } = await connectWithTicket(ticket);
    expect(ready.userId).toBe(m.id);
  });

  it('is not a Bearer token: the API refuses it on every other route', async () => {
    const m = await createMember(t);
    const { ticket } = await ticketFor(m);
    const res = await t.request('GET', '/api/me', { token: ticket });
    expect(res.status).toBe(401);
  });
});

describe('the socket handshake with a ticket', () => {
  it('opens the socket as the member whose session asked, with their conversation rooms', async () => {
    const [a, b] = [await createMember(t), await createMember(t)];
    await befriend(t, a, b);
    const conversation = await startConversation(t, a, [b]);
    const { socket, ready } = await connectWithTicket((await ticketFor(b)).ticket);
    expect(ready).toEqual({ userId: b.id, conversationIds: [conversation._id] });
    const delivered = nextEvent(socket, 'message.created');
    await send(t, a, conversation._id, 'Banner pick-up at 6');
    expect((await delivered).message.body).toBe('Banner pick-up at 6');
  });

  it('is single use: the second handshake with the same ticket is refused', async () => {
    const m = await createMember(t);
    const { ticket } = await ticketFor(m);
    await connectWithTicket(ticket);
    expect((await refusedHandshake(server.url, { auth: { ticket } })).data).toEqual(ticketRefused);
  });

  it('expires after 60 seconds (by the service clock)', async () => {
    const m = await createMember(t);
    const { ticket } = await ticketFor(m);
    const { ticket: spare } = await ticketFor(m);
    t.clock.advance(59_000);
    await connectWithTicket(spare);
    t.clock.advance(1_000);
    expect((await refusedHandshake(server.url, { auth: { ticket } })).data).toEqual(ticketRefused);
    // An expired ticket is gone with the next issue.
    await ticketFor(m);
    const left = await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from realtime_tickets where expires_at <= ${t.clock.now().toISOString()}`,
    );
    expect(left[0]!.n).toBe(0);
  });

  it('dies with its session: refused after logout, and a socket opened with one is cut on revocation', async () => {
    const m = await createMember(t);
    const { ticket: unused } = await ticketFor(m);
    const { socket } = await connectWithTicket((await ticketFor(m)).ticket);
    const ended = nextEvent(socket, 'session:ended');
    const gone = disconnection(socket);
    expect((await t.request('POST', '/api/auth/logout', { token: m.token })).status).toBe(200);
    expect(await ended).toEqual({ reason: 'revoked' });
    await gone;
    expect((await refusedHandshake(server.url, { auth: { ticket: unused } })).data).toEqual(ticketRefused);
  });

  it('is bound to the session that asked: it never stands for the member presenting it', async () => {
    const [a, b] = [await createMember(t), await createMember(t)];
    const { ticket: ticketOfA } = await ticketFor(a);
    // B presents A's ticket along with B's own token: refused (one credential only).
    const both = await refusedHandshake(server.url, { auth: { ticket: ticketOfA, token: b.token } });
    expect(both.data?.code).toBe('unauthorized');
    // A session token is no ticket, and a ticket of B's opens B's socket only.
    expect((await refusedHandshake(server.url, { auth: { ticket: b.token } })).data).toEqual(ticketRefused);
    const { ready } = await connectWithTicket((await ticketFor(b)).ticket);
    expect(ready.userId).toBe(b.id);
    // A's ticket, never redeemed by the refused attempts, still opens A's socket only.
    expect((await connectWithTicket(ticketOfA)).ready.userId).toBe(a.id);
  });

  it('refuses a ticket sent in the URL', async () => {
    const m = await createMember(t);
    const { ticket } = await ticketFor(m);
    const refused = await refusedHandshake(server.url, { query: { ticket } });
    expect(refused.data?.code).toBe('unauthorized');
    expect(refused.data?.message).toContain('never in the URL');
  });
});
