// Guests (RSVPs without an account, server/domains/guest-rsvps/) in the events' counts and seats:
// a confirmed `going` guest takes a seat (pending ones included, like members' pending RSVPs) and
// approved guests count in rsvpCounts. Guests never wait on the waitlist: a full event refuses
// them at confirmation. Plain SQL over the table, so events never imports the guests' domain.
import { sql, type SQL } from 'drizzle-orm';

/** Seats held by confirmed `going` guests of the event whose id is `eventId` (an SQL expression). */
export function guestSeats(eventId: SQL): SQL<number> {
  return sql<number>`(select count(*)::int from event_guest_rsvps g where g.event_id = ${eventId} and g.status = 'going' and g.confirmed_at is not null)`;
}

/** Confirmed, approved guests with this status, for the public counts. */
export function guestCount(eventId: SQL, status: 'going' | 'interested'): SQL<number> {
  return sql<number>`(select count(*)::int from event_guest_rsvps g where g.event_id = ${eventId} and g.status = ${status} and g.confirmed_at is not null and not g.pending)`;
}

/**
 * [going, interested, seated] of the event's confirmed guests in one pass, for the event list
 * (view.ts); null when there are none. The first two leave out guests still pending approval.
 */
export function guestCounts(eventId: SQL): SQL<number[] | null> {
  return sql<number[] | null>`(select array[
      count(*) filter (where g.status = 'going' and not g.pending),
      count(*) filter (where g.status = 'interested' and not g.pending),
      count(*) filter (where g.status = 'going')]::int[]
    from event_guest_rsvps g where g.event_id = ${eventId} and g.confirmed_at is not null)`;
}
