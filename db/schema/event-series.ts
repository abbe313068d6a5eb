// Recurring events: one row per series; each occurrence is an `events` row of its own (own id,
// slug, RSVPs) pointing here (server/domains/events/series.ts). The rule is expanded on the
// series' LOCAL wall time, so a weekly 18:00 stays 18:00 across daylight-saving changes.
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, idColumn } from './columns.js';

export const eventSeries = pgTable('event_series', {
  id: idColumn(),
  /** The RRULE (RFC 5545) without DTSTART, e.g. `FREQ=WEEKLY;BYDAY=TH;COUNT=10`. */
  rule: text().notNull(),
  /** IANA zone the rule is expanded in (the occurrences' zone). */
  timeZone: text().notNull(),
  /** DTSTART as local wall time in `timeZone`, `YYYY-MM-DDTHH:MM:SS`. */
  startWall: text().notNull(),
  /** Length of an occurrence, for the calendar feeds' series VEVENT. */
  durationSeconds: integer().notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type EventSeries = typeof eventSeries.$inferSelect;
