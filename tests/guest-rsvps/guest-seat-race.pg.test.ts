// Guests and members share seats under the event's seat lock: 10 guests confirming and 10
// members saying `going` at once to 5 seats leave exactly 5 seated (guests and members together),
// every other member waitlisted and every other guest refused (409), never over capacity.
// Real concurrent connections: PostgreSQL only.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, groveWithOrganizer } from '../events/helpers.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { askAsGuest, CONFIRM_SUBJECT, guestEmail, tokenIn } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('guest seats against concurrent member RSVPs (PostgreSQL)', () => {
  it('10 guests and 10 members at once for 5 seats: exactly 5 seated, never over', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { capacity: 5 });
    const members = await Promise.all(Array.from({ length: 10 }, () => createMember(t)));
    const tokens: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const email = guestEmail();
      await askAsGuest(t, event._id, email);
      tokens.push(await tokenIn(t, email, CONFIRM_SUBJECT));
    }
    const [guestAnswers, memberAnswers] = await Promise.all([
      Promise.all(tokens.map((token) => t.request('POST', '/api/guest-rsvps/confirm', { body: { token } }))),
      Promise.all(
        members.map((m) =>
          t.request('POST', `/api/events/${event._id}/rsvp`, { token: m.token, body: { status: 'going' } }),
        ),
      ),
    ]);
    const guestsIn = guestAnswers.filter((a) => a.status === 200).length;
    expect(guestAnswers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual(Array(10 - guestsIn).fill(409));
    expect(memberAnswers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const membersIn = memberAnswers.filter((a) => a.body.myRsvp === 'going').length;
    expect(guestsIn + membersIn).toBe(5);
    const [row] = await t.deps.database.rows<{ members: number; guests: number }>(sql`
      select (select count(*)::int from event_rsvps where event_id = ${event._id} and waitlist_order is null) as members,
             (select count(*)::int from event_guest_rsvps where event_id = ${event._id} and confirmed_at is not null) as guests`);
    expect(Number(row!.members) + Number(row!.guests)).toBe(5);
    expect((await t.request('GET', `/api/events/${event.slug}`)).body).toMatchObject({
      seatsLeft: 0,
      rsvpCounts: { going: 5, waitlisted: 10 - membersIn },
    });
  });
});
