// Two reads that serve the same member the same RSVP-only meeting points at once, possibly in
// opposite orders, each log the reveals in one statement. If each wrote its rows in the order it
// served them, one could hold the first event's row while waiting for the second's and the other
// the reverse: a deadlock, which PostgreSQL ends by failing one read (a 500). The events list and
// the calendar feed both serve in start order now (issue #21), so the opposite orders are
// exercised on recordReveals itself, as two reads serving them would call it. A trigger installed
// in this file's own database makes every insert into event_reveals wait 300 ms first, so the two
// statements are sure to interleave row by row. PostgreSQL only (PGlite runs one statement at a time).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { slowInsertsInto } from '../setup/slow-inserts.js';
import { recordReveals } from '../../server/domains/events/reveals.js';
import type { EventOutput } from '../../server/domains/events/schemas.js';
import { createEvent, groveWithOrganizer } from './helpers.js';

const HOUR = 3_600_000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('reveals logged by concurrent reads', () => {
  it('two reads serving the same points in opposite orders both answer 200 and log each reveal once', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const base = t.clock.now().getTime() + 48 * HOUR;
    const hidden = (startsIn: number, text: string) => ({
      startsAt: new Date(base + startsIn).toISOString(),
      endsAt: new Date(base + startsIn + HOUR).toISOString(),
      meetingPoint: { text },
      meetingPointVisibility: 'rsvp',
      rsvpApproval: false,
    });
    // Created first (lower id) but starting later: id order and start order disagree.
    const later = await createEvent(t, organizer, { groveId: grove._id }, hidden(5 * HOUR, 'Behind the barn'));
    const sooner = await createEvent(t, organizer, { groveId: grove._id }, hidden(0, 'By the north gate'));
    const member = await createMember(t);
    for (const event of [later, sooner])
      expect(
        (await t.request('POST', `/api/events/${event._id}/rsvp`, { token: member.token, body: { status: 'going' } }))
          .status,
      ).toBe(200);
    const token = await t.request('POST', '/api/me/calendar-token', { token: member.token });
    const feedPath = new URL(token.body.url).pathname;
    // Forget what the RSVP answers revealed, so both reads below write both rows.
    await t.deps.database.rows(sql`delete from event_reveals where user_id = ${member.id}::uuid`);
    await slowInsertsInto(t.deps.database, 'event_reveals');

    const [list, feed] = await Promise.all([
      t.request('GET', `/api/events?groveId=${grove._id}`, { token: member.token }),
      t.request('GET', feedPath),
    ]);
    expect(list.status, list.text).toBe(200);
    expect(list.body.items.map((e: { _id: string }) => e._id)).toEqual([sooner._id, later._id]);
    expect(feed.status, feed.text).toBe(200);
    expect(feed.text.indexOf(sooner._id)).toBeLessThan(feed.text.indexOf(later._id));
    const logged = async () =>
      (
        await t.deps.database.rows<{ event_id: string }>(
          sql`select event_id from event_reveals where user_id = ${member.id}::uuid order by event_id`,
        )
      ).map((r) => r.event_id);
    expect(await logged()).toEqual([later._id, sooner._id].sort());

    // The same points served in opposite orders by two reads at once.
    await t.deps.database.rows(sql`delete from event_reveals where user_id = ${member.id}::uuid`);
    const served = list.body.items as EventOutput[];
    await Promise.all([
      recordReveals(t.deps.database, member.id, served, t.clock.now()),
      recordReveals(t.deps.database, member.id, [...served].reverse(), t.clock.now()),
    ]);
    expect(await logged()).toEqual([later._id, sooner._id].sort());
  }, 30_000);
});
