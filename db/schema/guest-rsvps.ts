// Guest RSVPs: a visitor without an account RSVPs to a public event with an email address,
// confirmed by a single-use link (server/domains/guest-rsvps/). Only SHA-256 of the confirm and
// withdraw tokens is stored. Rows go 30 days after their event ends, like members' RSVPs, with
// the event, and (unconfirmed) once the confirm link has expired.
import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bytea, createdAt, idColumn } from './columns.js';
import { events, rsvpStatuses } from './events.js';

export const eventGuestRsvps = pgTable(
  'event_guest_rsvps',
  {
    id: idColumn(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /**
     * Normalised (trimmed, lower case) like users.email, which the house stores as it is; never
     * logged and never served whole (organizers see `j…@example.org`).
     */
    email: text().notNull(),
    status: text({ enum: rsvpStatuses }).notNull(),
    /** The language the guest asked in (the web page's); their mails use it. Null: English. */
    locale: text(),
    /** Set until the confirm link is used; null once confirmed (single use). */
    confirmTokenHash: bytea(),
    confirmExpiresAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Null until the guest opened the link; only confirmed rows count or take seats. */
    confirmedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Set at confirmation; lives as long as the row (the withdraw link in the mail). */
    withdrawTokenHash: bytea(),
    /** With an RSVP-only meeting point: waiting for an organizer before the point is mailed. */
    pending: boolean().notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('event_guest_rsvps_event_email_key').on(t.eventId, t.email),
    uniqueIndex('event_guest_rsvps_confirm_token_key').on(t.confirmTokenHash),
    uniqueIndex('event_guest_rsvps_withdraw_token_key').on(t.withdrawTokenHash),
    // Seat and count subqueries (events/guest-seats.ts): confirmed guests of one event.
    index('event_guest_rsvps_event_status_idx').on(t.eventId, t.status).where(sql`${t.confirmedAt} is not null`),
    index('event_guest_rsvps_unconfirmed_idx').on(t.confirmExpiresAt).where(sql`${t.confirmedAt} is null`),
  ],
);

/**
 * Reveal log for guests: the RSVP-only meeting point was mailed to this guest (at approval),
 * kept after they withdraw, like event_reveals for members; deleted with the guest rows.
 */
export const eventGuestReveals = pgTable(
  'event_guest_reveals',
  {
    id: idColumn(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** The guest row's id at the time (no reference: the row may be withdrawn since). */
    guestRsvpId: uuid().notNull(),
    /** `j…@example.org`: what organizers may see of the address. */
    emailHint: text().notNull(),
    firstRevealedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('event_guest_reveals_event_guest_key').on(t.eventId, t.guestRsvpId)],
);

export type EventGuestRsvp = typeof eventGuestRsvps.$inferSelect;
