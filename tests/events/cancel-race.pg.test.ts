// Cancelling is final even against a concurrent PATCH. The interleaving is forced, not left to
// timing: a second connection holds the event's row lock, the app's PATCHes queue behind it (seen
// in pg_stat_activity as waiting on a lock), and only then is the lock let go. PostgreSQL only:
// it needs two connections to one database.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../setup/database.js';
import { createTestApp, type ApiResponse, type TestApp } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from './helpers.js';
import { waitFor } from '../setup/wait.js';

let t: TestApp;
let other: postgres.Sql;
beforeAll(async () => {
  t = await createTestApp();
  other = postgres(testDatabaseUrl()!, { max: 2, onnotice: () => {} });
});
afterAll(async () => {
  await other?.end();
  await t?.close();
});

/** Resolves once `count` statements updating events wait on a lock in this database. */
async function waitersOnEvents(count: number) {
  await waitFor(
    async () => {
      const [row] = await other<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query ilike 'update "events"%'`;
      return row!.n >= count;
    },
    { timeoutMs: 10_000, message: `${count} PATCH(es) waiting on the event's row lock` },
  );
}

/** Runs `statement` (which takes a row lock) in a transaction held open until `release` is called. */
function holdRowLock(statement: (tx: postgres.TransactionSql) => Promise<unknown>) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const done = other.begin(async (tx) => {
    await statement(tx);
    locked();
    await released;
  });
  return { isLocked, release, done };
}

async function eventRow(id: string) {
  const [row] = await other<{ status: string; title: string }[]>`select status, title from events where id = ${id}`;
  return row!;
}

describe('a cancelled event stays cancelled under concurrent PATCHes', () => {
  it('an edit that read the event before a cancel committed answers 409 and changes nothing', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    // Another request's cancel, written but not yet committed.
    const cancel = holdRowLock((tx) => tx`update events set status = 'cancelled' where id = ${event._id}`);
    await cancel.isLocked;
    // The edit reads the event (still scheduled to it), passes its checks, then waits on the row.
    const edit = t.request('PATCH', `/api/events/${event._id}`, {
      token: organizer.token,
      body: { title: 'Edited after cancel', status: 'scheduled' },
    });
    await waitersOnEvents(1);
    cancel.release();
    await cancel.done;
    const res = await edit;
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('conflict');
    expect(await eventRow(event._id)).toEqual({ status: 'cancelled', title: event.title });
  });

  it('of two PATCHes queued on one event, a cancel that gets the row first wins; the edit after it answers 409', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const gate = holdRowLock((tx) => tx`select id from events where id = ${event._id} for update`);
    await gate.isLocked;
    const cancel = t.request('PATCH', `/api/events/${event._id}`, {
      token: organizer.token,
      body: { status: 'cancelled' },
    });
    await waitersOnEvents(1);
    // Queued second: it reads the event as scheduled, like the cancel did.
    const unCancel: Promise<ApiResponse> = t.request('PATCH', `/api/events/${event._id}`, {
      token: organizer.token,
      body: { status: 'scheduled', title: 'Resurrected' },
    });
    await waitersOnEvents(2);
    gate.release();
    await gate.done;
    const [cancelled, resurrected] = await Promise.all([cancel, unCancel]);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(resurrected.status).toBe(409);
    expect(await eventRow(event._id)).toEqual({ status: 'cancelled', title: event.title });
    const read = await t.request('GET', `/api/events/${event.slug}`);
    expect(read.body).toMatchObject({ status: 'cancelled', title: event.title });
  });

  it('an edit that commits before the cancel is kept, and the cancel still applies (happy)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const edit = holdRowLock((tx) => tx`update events set title = 'Edited first' where id = ${event._id}`);
    await edit.isLocked;
    const cancel = t.request('PATCH', `/api/events/${event._id}`, {
      token: organizer.token,
      body: { status: 'cancelled' },
    });
    await waitersOnEvents(1);
    edit.release();
    await edit.done;
    const res = await cancel;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'cancelled', title: 'Edited first' });
  });
});
