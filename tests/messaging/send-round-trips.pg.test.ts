// The message POST is the hot write of the realtime path (bench/README.md, "The send path"): its
// latency is the delivery latency. It is held to two round trips to PostgreSQL, counted on the
// wire: one statement that checks the session and counts the per-member write limit
// (server/auth/session-write-limit.ts), and one that checks the membership and stores the message
// with its push outbox row (autocommit: no BEGIN/COMMIT, so no pooled connection is held between
// round trips). PostgreSQL only: PGlite has no wire.
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client.js';
import { isolatedDatabase } from '../security/isolated-database.js';
import { createTestApp, type TestApp } from '../setup/harness.js';
import { startRoundTripCounter, type RoundTripCounter } from '../setup/round-trip-counter.js';
import { circle, send, startConversation } from './helpers.js';
import { waitFor } from '../setup/wait.js';

let t: TestApp;
let counter: RoundTripCounter;
let appDatabase: Database;
let isolated: Awaited<ReturnType<typeof isolatedDatabase>>;
/** The per-member write limit here (starting a conversation counts in the same scope as sending). */
const LIMIT = 6;

beforeAll(async () => {
  isolated = (await isolatedDatabase('send_round_trips'))!;
  const target = new URL(isolated.url);
  counter = await startRoundTripCounter({ host: target.hostname, port: Number(target.port || 5432) });
  const counted = new URL(isolated.url);
  counted.hostname = '127.0.0.1';
  counted.port = String(counter.port);
  // One connection, so the warm-up below prepares every statement on the connection that is counted.
  appDatabase = await openDatabase({ url: counted.toString(), poolMax: 1 });
  t = await createTestApp({ RATE_LIMIT_WRITES_PER_MEMBER: String(LIMIT) }, { wrapDatabase: () => appDatabase });
});
afterAll(async () => {
  await t?.close();
  await appDatabase?.close();
  await counter?.close();
  await isolated?.drop();
});

/** Round trips to PostgreSQL made while `work` runs. */
async function roundTripsOf(work: () => Promise<unknown>): Promise<number> {
  const before = counter.count();
  await work();
  return counter.count() - before;
}

describe('the message POST', () => {
  it('takes two round trips: session with write limit, and one statement for membership, message and push queue', async () => {
    const [a, b, c] = await circle(t, 3);
    const group = await startConversation(t, a!, [b!, c!]);
    // Prepares the statements on the connection (a token's first write route takes one more trip).
    await send(t, b!, group._id, 'warm-up');
    await send(t, b!, group._id, 'warm-up');
    expect(await roundTripsOf(() => send(t, b!, group._id, 'counted'))).toBe(2);
  });

  it('refuses a non-member in as many round trips, storing nothing', async () => {
    const [a, b, c] = await circle(t, 3);
    const group = await startConversation(t, a!, [b!]);
    await send(t, a!, group._id, 'warm-up');
    await t.request('POST', `/api/conversations/${group._id}/messages`, { token: c!.token, body: { body: 'warm-up' } });
    let status = 0;
    const trips = await roundTripsOf(async () => {
      const res = await t.request('POST', `/api/conversations/${group._id}/messages`, {
        token: c!.token,
        body: { body: 'let me in' },
      });
      status = res.status;
    });
    expect(status).toBe(404);
    expect(trips).toBe(2);
    const [stored] = await isolated!.database.rows<{ n: number }>(
      sql`select count(*)::int as n from messages where sender_id = ${c!.id}`,
    );
    expect(stored!.n).toBe(0);
  });
});

describe('the rules the one statement keeps', () => {
  it('a leave in progress makes the send wait, and the send then finds no membership (404, nothing stored)', async () => {
    const [a, b, c] = await circle(t, 3);
    const group = await startConversation(t, a!, [b!, c!]);
    const leaver = postgres(isolated!.url, { max: 1, onnotice: () => {} });
    try {
      let status = 0;
      await leaver.begin(async (tx) => {
        await tx`delete from conversation_members where conversation_id = ${group._id} and user_id = ${c!.id}`;
        void t
          .request('POST', `/api/conversations/${group._id}/messages`, { token: c!.token, body: { body: 'racing' } })
          .then((res) => (status = res.status));
        // The send must be waiting on the membership row's lock before the leave commits.
        await waitFor(
          async () => {
            const [waiting] = await isolated!.database.rows<{ n: number }>(
              sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
            );
            return waiting!.n > 0 || status !== 0;
          },
          { intervalMs: 10, timeoutMs: 10_000, message: 'the send to wait on the membership row lock' },
        );
        expect(status).toBe(0);
      }); // the leave commits here
      await expect.poll(() => status).toBe(404);
      const [stored] = await isolated!.database.rows<{ n: number }>(
        sql`select count(*)::int as n from messages where conversation_id = ${group._id} and sender_id = ${c!.id}`,
      );
      expect(stored!.n).toBe(0);
    } finally {
      await leaver.end();
    }
  });

  it('the write limit holds under a burst of concurrent sends: exactly the limit stored, the rest 429', async () => {
    const [a, b] = await circle(t, 2);
    const pair = await startConversation(t, a!, [b!]);
    const answers = await Promise.all(
      Array.from({ length: 3 * LIMIT }, (_, i) =>
        t.request('POST', `/api/conversations/${pair._id}/messages`, { token: b!.token, body: { body: `burst ${i}` } }),
      ),
    );
    expect(answers.filter((res) => res.status === 201)).toHaveLength(LIMIT);
    expect(answers.filter((res) => res.status === 429)).toHaveLength(2 * LIMIT);
    const [stored] = await isolated!.database.rows<{ n: number; queued: number }>(
      sql`select count(*)::int as n, count(q.subject_id)::int as queued
          from messages m left join push_outbox q on q.kind = 'message' and q.subject_id = m.id
          where m.conversation_id = ${pair._id}`,
    );
    expect(stored).toEqual({ n: LIMIT, queued: LIMIT });
  });

  it('the write-limit counter commits asynchronously in its own statement only: the message and later statements commit durably', async () => {
    const [a, b] = await circle(t, 2);
    const pair = await startConversation(t, a!, [b!]);
    await send(t, b!, pair._id, 'then check the setting');
    // One pooled connection: the same one that just ran the counter and the send.
    const [setting] = await appDatabase.rows<{ synchronous_commit: string }>(sql`show synchronous_commit`);
    expect(setting!.synchronous_commit).toBe('on');
  });
});
