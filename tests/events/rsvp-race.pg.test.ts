// An RSVP against a cancel that is still uncommitted: the RSVP statement takes the event row
// FOR SHARE, so it waits for the cancel and then refuses. Needs a second connection to hold the
// cancel open, so PostgreSQL only (*.pg.test.ts).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from './helpers.js';
import { waitFor } from '../setup/wait.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('RSVP against a concurrent cancel (PostgreSQL)', () => {
  it('a new or changed RSVP waits for an uncommitted cancel, then answers 409 and writes nothing', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const [fresh, changer] = await Promise.all([createMember(t), createMember(t)]);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    await t.request('POST', `/api/events/${event._id}/rsvp`, { token: changer.token, body: { status: 'going' } });
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let updated!: () => void;
    const cancelWritten = new Promise<void>((r) => {
      updated = r;
    });
    const canceller = t.deps.database.db.transaction(async (tx) => {
      await t.deps.database.rows(sql`update events set status = 'cancelled' where id = ${event._id}`, tx);
      updated();
      await held;
    });
    await cancelWritten;
    const pending = [
      t.request('POST', `/api/events/${event._id}/rsvp`, { token: fresh.token, body: { status: 'going' } }),
      t.request('POST', `/api/events/${event._id}/rsvp`, { token: changer.token, body: { status: 'interested' } }),
    ];
    // Both must be waiting on the event's row lock before the cancel commits. Under a
    // read-then-write (or a plain snapshot read) they would answer 200 instead and never wait.
    await waitFor(
      async () => {
        const [row] = await t.deps.database.rows<{ n: number }>(
          sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        return row!.n >= 2;
      },
      { timeoutMs: 10_000, message: "both RSVPs waiting on the event's row lock" },
    );
    release();
    await canceller;
    const answers = await Promise.all(pending);
    expect(answers.map((a) => a.status)).toEqual([409, 409]);
    const rows = await t.deps.database.rows<{ status: string }>(
      sql`select status from event_rsvps where event_id = ${event._id}`,
    );
    expect(rows.map((r) => r.status)).toEqual(['going']);
  });
});
