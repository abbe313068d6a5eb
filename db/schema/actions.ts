// The private action log (privacy rule 3: only its owner ever reads an entry) and each member's
// running totals, which feed the anonymous aggregates only while the member opts in.
//
// A confirmed "event attended" entry keeps its own copy of what the member needs (the event's
// title; the date is `occurred_on`): RSVP rows are deleted 30 days after the event and events
// can be deleted, and the log must outlive both. `event_id` is kept while the event exists (so a
// suggestion is not offered twice) and set null when the event goes; `place_id` likewise.
import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, idColumn } from './columns.js';
import { events } from './events.js';
import { places } from './places.js';

export const actionKinds = ['event_attended', 'outreach', 'volunteer_shift', 'other'] as const;
export type ActionKind = (typeof actionKinds)[number];

export const actionEntries = pgTable(
  'action_entries',
  {
    id: idColumn(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text({ enum: actionKinds }).notNull(),
    occurredOn: date({ mode: 'string' }).notNull(),
    /** Duration in whole minutes (the API speaks quarter hours); null when not given. */
    minutes: integer(),
    note: text(),
    /** volunteer_shift: a place of the map (null once that place is deleted) … */
    placeId: uuid().references(() => places.id, { onDelete: 'set null' }),
    /** … and its name as it was when logged, or the member's own free text. */
    placeName: text(),
    /** event_attended confirmed from an RSVP: the event while it exists … */
    eventId: uuid().references(() => events.id, { onDelete: 'set null' }),
    /** … and its title as it was when confirmed (the entry outlives the RSVP and the event). */
    eventTitle: text(),
    /** Logged by an organizer's check-in (the member's autoLogAttendance): an un-check removes it again. */
    fromCheckIn: boolean().notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    // The owner's log, newest first (cursor over id).
    index('action_entries_user_id_id_idx').on(t.userId, t.id),
    // One confirmation per event per member.
    uniqueIndex('action_entries_user_event_key').on(t.userId, t.eventId).where(sql`${t.eventId} is not null`),
    index('action_entries_event_id_idx').on(t.eventId),
    index('action_entries_place_id_idx').on(t.placeId),
    check(
      'action_entries_minutes_quarter_hours',
      sql`${t.minutes} is null or (${t.minutes} between 15 and 1440 and ${t.minutes} % 15 = 0)`,
    ),
    check(
      'action_entries_hours_required',
      sql`${t.kind} not in ('outreach', 'volunteer_shift') or ${t.minutes} is not null`,
    ),
    check(
      'action_entries_place_only_volunteer',
      sql`${t.kind} = 'volunteer_shift' or (${t.placeId} is null and ${t.placeName} is null)`,
    ),
    check(
      'action_entries_event_only_attended',
      sql`${t.kind} = 'event_attended' or (${t.eventId} is null and ${t.eventTitle} is null)`,
    ),
  ],
);

/**
 * One row per member who ever logged an action: running totals kept in the same transaction as
 * every insert and delete of an entry (single-row atomic updates, so concurrent writes cannot
 * drift), and the aggregate opt-in (off by default). Aggregates read only rows with
 * `aggregate_opt_in`, so opting out removes the member's contribution from the next query.
 */
export const actionTotals = pgTable(
  'action_totals',
  {
    userId: uuid()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    actions: integer().notNull().default(0),
    minutes: integer().notNull().default(0),
    aggregateOptIn: boolean().notNull().default(false),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // The service-wide aggregate reads only contributing rows.
    index('action_totals_contributing_idx').on(t.userId).where(sql`${t.aggregateOptIn} and ${t.actions} > 0`),
    check('action_totals_nonnegative', sql`${t.actions} >= 0 and ${t.minutes} >= 0`),
  ],
);

export type ActionEntry = typeof actionEntries.$inferSelect;
