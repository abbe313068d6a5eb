// A grove ban against a withdrawal of the same RSVP still in flight. The withdrawal holds the
// event's seat lock and then deletes the row; the ban must take that lock before it deletes the
// member's RSVPs, or the two wait on each other until PostgreSQL aborts one as a deadlock. Needs
// a second connection to hold the withdrawal open, so PostgreSQL only (*.pg.test.ts).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { waitFor } from '../setup/wait.js';
import { createEvent, groveWithOrganizer } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('a grove ban against a concurrent withdrawal (PostgreSQL)', () => {
  it('waits for the withdrawal instead of deadlocking, then bans', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const member = await createMember(t, { prefix: 'wd' });
    await t.request('POST', `/api/groves/${grove._id}/join`, { token: member.token });
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const rsvp = await t.request('POST', `/api/events/${event._id}/rsvp`, {
      token: member.token,
      body: { status: 'going' },
    });
    expect(rsvp.status, rsvp.text).toBe(200);

    // The withdrawal's order (events/rsvp.ts removeRsvp): the event's seat lock, then the row.
    let locked!: () => void;
    const seatLockHeld = new Promise<void>((r) => {
      locked = r;
    });
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const withdrawal = t.deps.database.db.transaction(async (tx) => {
      await t.deps.database.rows(sql`select 1 from events where id = ${event._id}::uuid for no key update`, tx);
      locked();
      await held;
      await t.deps.database.rows(
        sql`delete from event_rsvps where event_id = ${event._id}::uuid and user_id = ${member.id}::uuid`,
        tx,
      );
    });
    await seatLockHeld;
    const ban = t.request('POST', `/api/groves/${grove._id}/bans`, {
      token: organizer.token,
      body: { handle: member.handle },
    });
    await waitFor(
      async () => {
        const [row] = await t.deps.database.rows<{ n: number }>(
          sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        return row!.n >= 1;
      },
      { timeoutMs: 10_000, message: "the ban waiting on the event's seat lock" },
    );
    release();
    await withdrawal; // a deadlock would abort one of the two here or below
    const answer = await ban;
    expect(answer.status, answer.text).toBe(200);
    const left = await t.deps.database.rows(sql`select 1 from event_rsvps where event_id = ${event._id}::uuid`);
    expect(left).toHaveLength(0);
  });
});
