// Rate-limit counters, shared by every server process (server/auth/rate-limit.ts).
import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const rateLimits = pgTable(
  'rate_limits',
  {
    /**
     * `<scope>:<subject>[:<address>]`, each part an HMAC (RATE_LIMIT_KEY_SECRET) of the value, never
     * the value itself: e.g. `login:account-ip:<hmac of the email>:<hmac of the address>`.
     */
    key: text().primaryKey(),
    windowStart: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    /** When the row may be swept; windowStart + window length. */
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    count: integer().notNull(),
    /** Backoff counters only: no attempt is let through before this. */
    blockedUntil: timestamp({ withTimezone: true, mode: 'date' }),
    /** Backoff counters only: whether the latest hit was refused (read back by the same statement). */
    refused: boolean().notNull().default(false),
  },
  // The TTL sweep deletes by expires_at.
  (t) => [index('rate_limits_expires_at_idx').on(t.expiresAt)],
);
