// The RSVP sweep deletes exactly the rows whose event ended more than 30 days ago, runs under
// the job runner's advisory lock, and is registered with the server's jobs.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createJobRunner } from '../../server/jobs/runner.js';
import { rsvpSweep } from '../../server/domains/events/rsvp-sweep.js';
import { registeredJobs } from '../setup/registered-jobs.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;

async function rsvpCount(eventId: string) {
  const [row] = await t.deps.database.rows<{ n: number }>(
    sql`select count(*)::int as n from event_rsvps where event_id = ${eventId}`,
  );
  return Number(row!.n);
}

it('is one of the server jobs', () => {
  expect(registeredJobs).toContain(rsvpSweep);
});

it('deletes exactly the RSVPs of events that ended more than 30 days ago', async () => {
  const { grove, organizer } = await groveWithOrganizer(t);
  const start = t.clock.now().getTime();
  // Events that end within hours, so the sweeps below (the database is shared with test files
  // running in parallel) only reach rows that ended before about now + 3 h.
  const HOUR = 3_600_000;
  const at = (h: number) => ({
    startsAt: new Date(start + h * HOUR).toISOString(),
    endsAt: new Date(start + (h + 1) * HOUR).toISOString(),
  });
  const early = await createEvent(t, organizer, { groveId: grove._id }, at(0.25));
  const later = await createEvent(t, organizer, { groveId: grove._id }, at(2));
  const members = await Promise.all([createMember(t), createMember(t)]);
  for (const m of members) {
    await t.request('POST', `/api/events/${early._id}/rsvp`, { token: m.token, body: { status: 'going' } });
    await t.request('POST', `/api/events/${later._id}/rsvp`, { token: m.token, body: { status: 'interested' } });
  }
  const runner = createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [rsvpSweep]);
  const earlyEnd = Date.parse(early.endsAt);

  // One millisecond before the 30 days are up: nothing goes.
  t.clock.set(new Date(earlyEnd + 30 * DAY - 1));
  await runner.runOnce(rsvpSweep);
  expect(await rsvpCount(early._id)).toBe(2);

  // Just past 30 days after the early event: its rows go, the later event's stay.
  t.clock.set(new Date(earlyEnd + 30 * DAY + 1));
  const summary = await runner.runOnce(rsvpSweep);
  expect(summary?.rsvps).toBeGreaterThanOrEqual(2);
  expect(await rsvpCount(early._id)).toBe(0);
  expect(await rsvpCount(later._id)).toBe(2);
  const event = await t.request('GET', `/api/events/${early.slug}`);
  expect(event.status).toBe(200);
  expect(event.body.rsvpCounts).toEqual({ going: 0, interested: 0, waitlisted: 0 });

  t.clock.set(new Date(Date.parse(later.endsAt) + 30 * DAY + 1));
  await runner.runOnce(rsvpSweep);
  expect(await rsvpCount(later._id)).toBe(0);
  t.clock.set(new Date(start));
});

it('skips a run while another runner holds the lock', async () => {
  const runner = createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [rsvpSweep]);
  if (t.deps.database.kind === 'pglite') return; // one connection: there is no second session to hold the lock
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const lockTaken = new Promise<void>((r) => (locked = r));
  const holder = t.deps.database.db.transaction(async (tx) => {
    await t.deps.database.rows(sql`select pg_advisory_xact_lock(${rsvpSweep.lockId})`, tx);
    locked();
    await held;
  });
  await lockTaken;
  expect(await runner.runOnce(rsvpSweep)).toBeNull();
  release();
  await holder;
  expect(await runner.runOnce(rsvpSweep)).not.toBeNull();
});
