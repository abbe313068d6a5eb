// Fixed-window rate-limit counters, shared by every server process.
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const rateLimits = pgTable(
  'rate_limits',
  {
    /** e.g. `login:ip:203.0.113.9` or `login:account:<sha256 of the email>` */
    key: text().primaryKey(),
    windowStart: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    /** When the row may be swept; windowStart + window length. */
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    count: integer().notNull(),
  },
  // The TTL sweep deletes by expires_at.
  (t) => [index('rate_limits_expires_at_idx').on(t.expiresAt)],
);
