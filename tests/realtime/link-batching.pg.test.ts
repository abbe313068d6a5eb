// The realtime link's publisher (server/realtime/cluster-link.ts) sends what queued while one
// statement was out in the next statement together: one round trip and one commit for many
// broadcasts, not one each (bench/README.md, "The send path"). The other processes still hear
// every broadcast as its own notification, in order, identical ones included (PostgreSQL folds
// identical notifications of one transaction into one). PostgreSQL only: PGlite has no link.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMessageKeys } from '../../server/crypto/message-keys.js';
import { createLogger } from '../../server/log.js';
import { type ClusterAdapter, createPostgresAdapter } from '../../server/realtime/cluster-link.js';
import { isolatedDatabase } from '../security/isolated-database.js';
import { startRoundTripCounter, type RoundTripCounter } from '../setup/round-trip-counter.js';
import { quietPeriod, waitFor } from '../setup/wait.js';

const NAMESPACE = '/batching';
let isolated: NonNullable<Awaited<ReturnType<typeof isolatedDatabase>>>;
let counter: RoundTripCounter;
let cluster: ClusterAdapter;
let io: Server;
let peer: pg.Client;
/** What a peer process hears on the namespace's channel: each broadcast's payload, in order. */
const heard: unknown[] = [];
/** Their raw payloads: each starts with the sender's uid (how a process drops its own unread). */
const raw: string[] = [];

beforeAll(async () => {
  isolated = (await isolatedDatabase('link_batching'))!;
  const target = new URL(isolated.url);
  counter = await startRoundTripCounter({ host: target.hostname, port: Number(target.port || 5432) });
  const counted = new URL(isolated.url);
  counted.hostname = '127.0.0.1';
  counted.port = String(counter.port);
  const keyring = parseMessageKeys(`k1:${randomBytes(32).toString('base64')}`);
  cluster = createPostgresAdapter(counted.toString(), keyring, createLogger('silent'), {
    resyncLocal: () => {},
    resyncPeers: () => {},
  });
  io = new Server({ adapter: cluster.adapter as never });
  peer = new pg.Client({ connectionString: isolated.url });
  await peer.connect();
  peer.on('notification', (notification) => {
    const message = JSON.parse(notification.payload!) as { type: number; data?: { packet?: { data?: unknown[] } } };
    // BROADCAST (3) only: heartbeats come and go on their own.
    if (message.type !== 3) return;
    heard.push(message.data?.packet?.data?.[1]);
    raw.push(notification.payload!);
  });
  await peer.query(`LISTEN "socket.io#${NAMESPACE}"`);
});
afterAll(async () => {
  await peer?.end();
  // No HTTP server to close: the adapters' own timers (heartbeats) stop.
  for (const name of ['/', NAMESPACE]) io?.of(name).adapter.close();
  await cluster?.close();
  await counter?.close();
  await isolated?.drop();
});

describe('the realtime link publisher', () => {
  it('sends the broadcasts that queue up together, in order, each heard once, identical ones too', async () => {
    const nsp = io.of(NAMESPACE);
    // Warm: the publisher's connection is open and its statement prepared.
    nsp.to('room').emit('event', { n: 'warm' });
    await waitFor(() => heard.length === 1, { timeoutMs: 10_000 });
    const before = counter.count();
    const sent: unknown[] = [];
    for (let i = 0; i < 200; i++) sent.push({ n: i });
    // Identical broadcasts in a row: each must still arrive (not folded into one).
    sent.push({ n: 'same' }, { n: 'same' }, { n: 'same' });
    for (const payload of sent) nsp.to('room').emit('event', payload);
    await waitFor(() => heard.length === 1 + sent.length, { timeoutMs: 10_000 });
    const roundTrips = counter.count() - before;
    // One statement per broadcast before (203); now the first goes alone, the rest together,
    // and each repeat of an identical one starts a new statement.
    expect(roundTrips).toBeLessThanOrEqual(8);
    expect(heard.slice(1)).toEqual(sent);
    const uid = (nsp.adapter as unknown as { uid: string }).uid;
    expect(raw.every((payload) => payload.startsWith(`{"uid":"${uid}",`))).toBe(true);
    await quietPeriod(300, 'no broadcast arrives twice');
    expect(heard.length).toBe(1 + sent.length);
  });
});
