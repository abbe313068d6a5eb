// Capacity under concurrency: RSVPs to one event take turns on the event row's seat lock
// (server/domains/events/waitlist.ts), so 50 members saying `going` at once to 10 seats leave
// exactly 10 going and 40 waiting, in one queue without gaps; concurrent withdrawals promote
// exactly as many, first come first served. Real concurrent connections: PostgreSQL only.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function seats(eventId: string) {
  const [row] = await t.deps.database.rows<{ going: number; waiting: number }>(
    sql`select count(*) filter (where status = 'going' and waitlist_order is null)::int as going,
               count(*) filter (where waitlist_order is not null)::int as waiting
        from event_rsvps where event_id = ${eventId}::uuid`,
  );
  return { going: Number(row!.going), waiting: Number(row!.waiting) };
}

describe('capacity against concurrent RSVPs (PostgreSQL)', () => {
  it('50 concurrent going RSVPs to 10 seats: exactly 10 going, 40 waitlisted at positions 1..40', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { capacity: 10 });
    const members: TestMember[] = [];
    for (let i = 0; i < 50; i += 10)
      members.push(...(await Promise.all(Array.from({ length: 10 }, () => createMember(t)))));
    const answers = await Promise.all(
      members.map((m) =>
        t.request('POST', `/api/events/${event._id}/rsvp`, { token: m.token, body: { status: 'going' } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const states = answers.map((a) => a.body as { myRsvp: string; myWaitlistPosition: number | null });
    expect(states.filter((s) => s.myRsvp === 'going')).toHaveLength(10);
    expect(states.filter((s) => s.myRsvp === 'waitlisted')).toHaveLength(40);
    expect(await seats(event._id)).toEqual({ going: 10, waiting: 40 });
    const shown = await t.request('GET', `/api/events/${event.slug}`);
    expect(shown.body).toMatchObject({ seatsLeft: 0, rsvpCounts: { going: 10, waitlisted: 40 } });
    // Each waiting member was told a distinct place, as the queue stands when they joined it.
    const places = states.flatMap((s) => (s.myWaitlistPosition === null ? [] : [s.myWaitlistPosition]));
    expect([...places].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));

    // Five seated members leave at once: exactly the first five waiting are seated.
    const seated = members.filter((_, i) => states[i]!.myRsvp === 'going').slice(0, 5);
    const waiting = members
      .map((m, i) => ({ m, place: states[i]!.myWaitlistPosition }))
      .filter((x) => x.place !== null)
      .sort((a, b) => a.place! - b.place!);
    const left = await Promise.all(
      seated.map((m) => t.request('DELETE', `/api/events/${event._id}/rsvp`, { token: m.token })),
    );
    expect(left.map((a) => a.status)).toEqual(Array(5).fill(200));
    expect(await seats(event._id)).toEqual({ going: 10, waiting: 35 });
    const promoted = await t.deps.database.rows<{ user_id: string }>(
      sql`select user_id from event_rsvps where event_id = ${event._id}::uuid and status = 'going' and waitlist_order is null`,
    );
    const promotedIds = new Set(promoted.map((r) => r.user_id));
    expect(waiting.slice(0, 5).every((x) => promotedIds.has(x.m.id))).toBe(true);
    expect(waiting.slice(5).some((x) => promotedIds.has(x.m.id))).toBe(false);
  });
});
