// Event shifts (issue #26): time slots of an event with a capacity that members sign up for
// (setup, stewarding, clean-up). Shifts and their signups go with the event (FK cascade), the
// signups with the member's account; signups are deleted 30 days after the event ends, with the
// RSVPs (server/domains/events/rsvp-sweep.ts). Logic in server/domains/shifts/.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, idColumn } from './columns.js';
import { events } from './events.js';

export const eventShifts = pgTable(
  'event_shifts',
  {
    id: idColumn(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    startsAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    endsAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    capacity: integer().notNull(),
    /** Short free text: "setup", "stewards". Null when the organizers gave none. */
    role: text(),
    createdAt: createdAt(),
  },
  (t) => [
    index('event_shifts_event_id_idx').on(t.eventId, t.startsAt, t.id),
    check('event_shifts_capacity_positive', sql`${t.capacity} >= 1`),
    check('event_shifts_ends_after_start', sql`${t.endsAt} > ${t.startsAt}`),
  ],
);

export const eventShiftSignups = pgTable(
  'event_shift_signups',
  {
    id: idColumn(),
    shiftId: uuid()
      .notNull()
      .references(() => eventShifts.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('event_shift_signups_shift_user_key').on(t.shiftId, t.userId),
    index('event_shift_signups_user_id_idx').on(t.userId),
  ],
);

export type EventShift = typeof eventShifts.$inferSelect;
