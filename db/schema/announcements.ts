// Event announcements and check-in (issue #26). Logic in server/domains/event-announcements/.
//
// An announcement is organizer-written text sent to an event's members going (and, if asked,
// waitlisted) at send time; `event_announcement_recipients` keeps that audience, so a member
// lists an announcement only if they were sent it and are still going or waitlisted. Both go
// with the event (FK cascade) and 30 days after it ends, with the RSVPs
// (server/domains/events/rsvp-sweep.ts). The check-in flag lives on the RSVP row
// (event_rsvps.checked_in_at), so the same sweep removes it.
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, idColumn } from './columns.js';
import { events } from './events.js';

export const eventAnnouncements = pgTable(
  'event_announcements',
  {
    id: idColumn(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** The organizer who sent it; null once they deleted their account (the text stays with the event). */
    authorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    text: text().notNull(),
    includeWaitlisted: boolean().notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('event_announcements_event_id_idx').on(t.eventId, t.id),
    index('event_announcements_author_id_idx').on(t.authorId),
    check('event_announcements_text_length', sql`char_length(${t.text}) between 1 and 2000`),
  ],
);

export const eventAnnouncementRecipients = pgTable(
  'event_announcement_recipients',
  {
    announcementId: uuid()
      .notNull()
      .references(() => eventAnnouncements.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.announcementId, t.userId] }),
    index('event_announcement_recipients_user_id_idx').on(t.userId),
  ],
);

/**
 * A member's choice that a check-in logs the event in their action log by itself (off by default:
 * the log is private and an automatic entry is the member's choice). One row once they chose.
 */
export const attendanceSettings = pgTable('attendance_settings', {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  autoLogAttendance: boolean().notNull().default(false),
  updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type EventAnnouncement = typeof eventAnnouncements.$inferSelect;
