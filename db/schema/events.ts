// Events, hosted by exactly one grove or organization, and their RSVPs. RSVP rows are deleted
// 30 days after the event ends (server/domains/events/rsvp-sweep.ts); the private calendar feed tokens
// (hashed) live here too.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { bytea, createdAt, geoPoint, idColumn } from './columns.js';
import { eventSeries } from './event-series.js';
import { groves } from './groves.js';
import { organizations } from './organizations.js';
import { places } from './places.js';

export const eventTypes = [
  'protest',
  'vigil',
  'outreach',
  'potluck',
  'sanctuary_day',
  'screening',
  'meeting',
  'other',
] as const;
export const eventVisibilities = ['public', 'grove', 'friends'] as const;
export const meetingPointVisibilities = ['everyone', 'rsvp'] as const;
export const eventStatuses = ['scheduled', 'cancelled'] as const;
export const rsvpStatuses = ['going', 'interested'] as const;

export const events = pgTable(
  'events',
  {
    id: idColumn(),
    slug: text().notNull(),
    title: text().notNull(),
    type: text({ enum: eventTypes }).notNull(),
    startsAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    endsAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    hostGroveId: uuid().references(() => groves.id, { onDelete: 'cascade' }),
    hostOrganizationId: uuid().references(() => organizations.id, { onDelete: 'cascade' }),
    /** Who created it (for `friends` visibility). Null once that member deleted their account. */
    creatorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    venueName: text(),
    address: text(),
    /** Region text shown to everyone, also when the meeting point is hidden. */
    area: text().notNull(),
    meetingPointText: text(),
    meetingPointLocation: geoPoint(),
    meetingPointVisibility: text({ enum: meetingPointVisibilities }).notNull().default('everyone'),
    /** With an RSVP-only meeting point: RSVPs start pending and see the point once an organizer approves. */
    rsvpApproval: boolean().notNull().default(false),
    placeId: uuid().references(() => places.id, { onDelete: 'set null' }),
    coverImage: text(),
    description: text().notNull().default(''),
    visibility: text({ enum: eventVisibilities }).notNull().default('public'),
    status: text({ enum: eventStatuses }).notNull().default('scheduled'),
    /**
     * Seats for `going` RSVPs (pending ones included); null = unlimited. Further `going` RSVPs wait
     * on the waitlist (event_rsvps.waitlist_order), promoted first come first served (rsvp.ts).
     */
    capacity: integer(),
    /**
     * The IANA zone the event happens in (server/domains/events/time-zone.ts). Null only on rows
     * from before the column existed, until the backfill job (event-time-zone-backfill.ts) fills them.
     */
    timeZone: text(),
    /** The recurring series this occurrence belongs to (server/domains/events/series.ts); null for a single event. */
    seriesId: uuid().references(() => eventSeries.id, { onDelete: 'set null' }),
    /** The occurrence's scheduled local start in the series (its RECURRENCE-ID), `YYYY-MM-DDTHH:MM:SS`. */
    occurrenceWall: text(),
    /** Edited on its own (`scope: this`): series-wide edits leave it alone. */
    seriesOverridden: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('events_slug_key').on(t.slug),
    check('events_one_host', sql`(${t.hostGroveId} is null) <> (${t.hostOrganizationId} is null)`),
    check('events_capacity_positive', sql`${t.capacity} is null or ${t.capacity} >= 1`),
    index('events_host_grove_id_idx').on(t.hostGroveId, t.id),
    index('events_host_organization_id_idx').on(t.hostOrganizationId, t.id),
    index('events_creator_id_idx').on(t.creatorId),
    // Deleting a place (a deleted member's pending submission) sets place_id null here.
    index('events_place_id_idx').on(t.placeId),
    index('events_ends_at_idx').on(t.endsAt),
    // The `area` filter: lower(area) = lower(input), OR-ed with the hosting grove's region.
    index('events_area_lower_idx').on(sql`lower(${t.area})`),
    index('events_visibility_id_idx').on(t.visibility, t.id),
    // GET /api/events: start-time order with a (startsAt, id) keyset cursor.
    index('events_starts_at_id_idx').on(t.startsAt, t.id),
    // GET /api/events?area=…&from=…: each arm of the area filter (the event's own area, a grove
    // of that region hosting it) reads only its upcoming rows (events_find; bench/README.md).
    index('events_area_starts_at_idx').on(sql`lower(${t.area})`, t.startsAt, t.id),
    index('events_host_grove_starts_at_idx').on(t.hostGroveId, t.startsAt, t.id),
    // `q` reads search_document, a stored generated tsvector column, and its GIN index
    // events_search_gin: both made by the events_find migration and left out of this table on
    // purpose, so no `select events.*` carries the document (server/domains/events/search.ts).
    // The longest event, read from the end of this index, bounds `from` on starts_at too
    // (server/domains/events/service.ts listEvents), so an upcoming list skips past events.
    index('events_duration_idx').on(sql`(${t.endsAt} - ${t.startsAt})`),
    // The time zone backfill finds the rows it has left to do without reading every event.
    // GET /api/events?series=…: a series' occurrences in start order.
    index('events_series_starts_at_idx').on(t.seriesId, t.startsAt, t.id).where(sql`${t.seriesId} is not null`),
    index('events_time_zone_missing_idx').on(t.id).where(sql`${t.timeZone} is null`),
  ],
);

/** Waitlist order across all events: a `going` RSVP that found its event full takes the next value. */
export const eventRsvpWaitlistSeq = pgSequence('event_rsvps_waitlist_seq');

export const eventRsvps = pgTable(
  'event_rsvps',
  {
    id: idColumn(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text({ enum: rsvpStatuses }).notNull(),
    /** Waiting for an organizer's approval (events with `rsvpApproval`); not counted publicly. */
    pending: boolean().notNull().default(false),
    /**
     * Set while a `going` RSVP waits for a seat (the event is at capacity): its place in the queue
     * (event_rsvps_waitlist_seq, lowest first). Null for a seated `going` and for `interested`.
     */
    waitlistOrder: bigint({ mode: 'number' }),
    /** Set when an organizer checked the member in at the event (server/domains/event-announcements/attendance.ts). */
    checkedInAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('event_rsvps_event_user_key').on(t.eventId, t.userId),
    index('event_rsvps_user_id_idx').on(t.userId),
    // RSVP counts: `where event_id = ? and status = ?` (view.ts, rsvp.ts) read only this index.
    index('event_rsvps_event_id_status_idx').on(t.eventId, t.status),
    // Promotion: the event's first waiting RSVP.
    index('event_rsvps_waitlist_idx').on(t.eventId, t.waitlistOrder).where(sql`${t.waitlistOrder} is not null`),
  ],
);

/**
 * Reveal log: every member to whom an event's RSVP-only meeting point was served, with the first
 * time, kept even after they withdraw or leave. Deleted with the RSVP rows (30 days after the
 * event) and with the member's account.
 */
export const eventReveals = pgTable(
  'event_reveals',
  {
    id: idColumn(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    firstRevealedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('event_reveals_event_user_key').on(t.eventId, t.userId),
    index('event_reveals_user_id_idx').on(t.userId),
  ],
);

/** One private calendar feed per member; only the SHA-256 of the secret token is stored. */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    userId: uuid()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: bytea().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('calendar_feeds_token_hash_key').on(t.tokenHash)],
);

export type Event = typeof events.$inferSelect;
export type EventRsvp = typeof eventRsvps.$inferSelect;
