// A ban and an RSVP to one of the grove's events, each while the other is still uncommitted:
// the RSVP takes the grove row FOR SHARE before it writes, the ban holds it FOR UPDATE while it
// writes the ban and withdraws the member's RSVPs, so whichever comes second sees the first and
// a banned member never keeps an RSVP. Needs a second connection to hold a transaction open, so
// PostgreSQL only (*.pg.test.ts).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from '../events/helpers.js';
import { waitFor } from '../setup/wait.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function setting() {
  const { grove, organizer } = await groveWithOrganizer(t);
  const event = await createEvent(
    t,
    organizer,
    { groveId: grove._id },
    {
      visibility: 'public',
      meetingPoint: { text: 'Loading bay' },
      meetingPointVisibility: 'rsvp',
      rsvpApproval: false,
    },
  );
  const member = await createMember(t);
  return { grove, organizer, event, member };
}

/** Runs `body` in a transaction on its own connection and keeps it open until `release()`. */
function heldTransaction(
  body: (tx: Parameters<Parameters<TestApp['deps']['database']['db']['transaction']>[0]>[0]) => Promise<void>,
) {
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  let ready!: () => void;
  const written = new Promise<void>((r) => {
    ready = r;
  });
  const done = t.deps.database.db.transaction(async (tx) => {
    await body(tx);
    ready();
    await held;
  });
  return { written, release, done };
}

/** Resolves once a statement of this database waits on another transaction's lock. */
const someoneWaitsOnALock = (what: string) =>
  waitFor(
    async () => {
      const [row] = await t.deps.database.rows<{ n: number }>(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      return row!.n > 0;
    },
    { timeoutMs: 10_000, message: what },
  );

const rsvpCount = async (eventId: string, userId: string) =>
  (
    await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from event_rsvps where event_id = ${eventId} and user_id = ${userId}`,
    )
  )[0]!.n;

describe('ban against a concurrent RSVP (PostgreSQL)', () => {
  it('an RSVP that arrives during an uncommitted ban waits, then answers 403 and writes nothing', async () => {
    const { grove, event, member } = await setting();
    // The ban's own statements, held open: the grove row FOR UPDATE, then the ban row.
    const ban = heldTransaction(async (tx) => {
      await t.deps.database.rows(sql`select id from groves where id = ${grove._id} for update`, tx);
      await t.deps.database.rows(
        sql`insert into grove_bans (grove_id, user_id) values (${grove._id}, ${member.id})`,
        tx,
      );
    });
    await ban.written;
    const rsvp = t.request('POST', `/api/events/${event._id}/rsvp`, { token: member.token, body: { status: 'going' } });
    await someoneWaitsOnALock('the RSVP to wait on the uncommitted ban');
    ban.release();
    await ban.done;
    const answer = await rsvp;
    expect(answer.status).toBe(403);
    expect(await rsvpCount(event._id, member.id)).toBe(0);
  });

  it('a ban that arrives during an uncommitted RSVP waits, then withdraws it', async () => {
    const { grove, organizer, event, member } = await setting();
    // The RSVP's own statements, held open: the grove row FOR SHARE, then the RSVP row.
    const rsvp = heldTransaction(async (tx) => {
      await t.deps.database.rows(sql`select id from groves where id = ${grove._id} for share`, tx);
      await t.deps.database.rows(
        sql`insert into event_rsvps (id, event_id, user_id, status) values (gen_random_uuid(), ${event._id}, ${member.id}, 'going')`,
        tx,
      );
    });
    await rsvp.written;
    const ban = t.request('POST', `/api/groves/${grove._id}/bans`, {
      token: organizer.token,
      body: { handle: member.handle },
    });
    await someoneWaitsOnALock('the ban to wait on the uncommitted RSVP');
    rsvp.release();
    await rsvp.done;
    expect((await ban).status).toBe(200);
    expect(await rsvpCount(event._id, member.id)).toBe(0);
    const seen = await t.request('GET', `/api/events/${event.slug}`, { token: member.token });
    expect(seen.body.meetingPoint).toBeNull();
  });
});
