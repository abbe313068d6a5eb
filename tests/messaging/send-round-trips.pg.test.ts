// The message POST is the hot write of the realtime path (bench/README.md, "The send path"): its
// latency is the delivery latency. It is held to three round trips to PostgreSQL, counted on the
// wire: the session lookup, the per-member write limit, and one statement that checks the
// membership and stores the message with its push-queue row (autocommit: no BEGIN/COMMIT, so no
// pooled connection is held between round trips). PostgreSQL only: PGlite has no wire.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client.js';
import { isolatedDatabase } from '../security/isolated-database.js';
import { createTestApp, type TestApp } from '../setup/harness.js';
import { startRoundTripCounter, type RoundTripCounter } from '../setup/round-trip-counter.js';
import { circle, send, startConversation } from './helpers.js';

let t: TestApp;
let counter: RoundTripCounter;
let appDatabase: Database;
let isolated: Awaited<ReturnType<typeof isolatedDatabase>>;

beforeAll(async () => {
  isolated = (await isolatedDatabase('send_round_trips'))!;
  const target = new URL(isolated.url);
  counter = await startRoundTripCounter({ host: target.hostname, port: Number(target.port || 5432) });
  const counted = new URL(isolated.url);
  counted.hostname = '127.0.0.1';
  counted.port = String(counter.port);
  // One connection, so the warm-up below prepares every statement on the connection that is counted.
  appDatabase = await openDatabase({ url: counted.toString(), poolMax: 1 });
  t = await createTestApp({}, { wrapDatabase: () => appDatabase });
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
  it('takes three round trips: session, write limit, and one statement for membership, message and push queue', async () => {
    const [a, b, c] = await circle(t, 3);
    const group = await startConversation(t, a!, [b!, c!]);
    await send(t, b!, group._id, 'warm-up'); // prepares the statements on the connection
    expect(await roundTripsOf(() => send(t, b!, group._id, 'counted'))).toBe(3);
  });

  it('refuses a non-member in as many round trips, storing nothing', async () => {
    const [a, b, c] = await circle(t, 3);
    const group = await startConversation(t, a!, [b!]);
    await send(t, a!, group._id, 'warm-up');
    let status = 0;
    const trips = await roundTripsOf(async () => {
      const res = await t.request('POST', `/api/conversations/${group._id}/messages`, {
        token: c!.token,
        body: { body: 'let me in' },
      });
      status = res.status;
    });
    expect(status).toBe(404);
    expect(trips).toBe(3);
  });
});
