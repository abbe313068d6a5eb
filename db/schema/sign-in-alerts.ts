// Sign-in alerts (docs/accounts.md, "Sign-in alerts"): the browser families an account has
// signed in from, and the single-use "this was not me" links mailed when a new one appears.
import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid, date } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { bytea, createdAt, idColumn } from './columns.js';

/**
 * One row per account and browser family (`Browser|OS`, the sessions' `device` key) that has
 * signed in to it. Only the family: never an address or the raw User-Agent.
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    family: text().notNull(),
    firstSeenOn: date({ mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.family] })],
);

/**
 * The "this was not me" link of a sign-in alert: single-use, SIGN_IN_ALERT_LINK_HOURS long,
 * stored as the SHA-256 of its token. `family` is the one the alert was about: using the link
 * forgets it, so the next sign-in from it alerts again.
 */
export const signInAlertTokens = pgTable(
  'sign_in_alert_tokens',
  {
    id: idColumn(),
    tokenHash: bytea().notNull(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    family: text().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('sign_in_alert_tokens_token_hash_key').on(t.tokenHash),
    index('sign_in_alert_tokens_user_id_idx').on(t.userId),
    index('sign_in_alert_tokens_expires_at_idx').on(t.expiresAt),
  ],
);
