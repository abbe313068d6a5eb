// Second factors: TOTP (an authenticator app), its recovery codes, and the tickets that carry a
// sign-in from the first factor to the second (server/domains/auth/second-factor.ts and
// server/domains/two-factor/; docs/accounts.md, "Two-step sign-in").
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { bytea, createdAt, idColumn } from './columns.js';

/**
 * One authenticator per account. The shared secret is sealed under MESSAGE_KEYS (record
 * `totp-secret`, bound to the user id) and never returned after enrolment started.
 */
export const totpCredentials = pgTable('totp_credentials', {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretKeyId: text().notNull(),
  secretNonce: bytea().notNull(),
  secretCiphertext: bytea().notNull(),
  createdAt: createdAt(),
  /** Null while the enrolment waits for its first code: an unconfirmed secret is no second factor. */
  confirmedAt: timestamp({ withTimezone: true, mode: 'date' }),
  /** The 30-second time step of the last accepted code: a code is never accepted twice. */
  lastUsedStep: bigint({ mode: 'number' }),
});

/** Single-use recovery codes, SHA-256 only (80 random bits each); a used code's row is deleted. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: idColumn(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: bytea().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('recovery_codes_user_code_key').on(t.userId, t.codeHash)],
);

/**
 * A first factor passed for an account with a second factor: no session yet, only this ticket
 * (32 random bytes, base64url, SHA-256 stored), single-use, for 5 minutes and 5 attempts.
 */
export const signInTickets = pgTable(
  'sign_in_tickets',
  {
    id: idColumn(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: bytea().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    /** Answers tried with this ticket (counted before each check); the ticket dies at the limit. */
    attempts: integer().notNull().default(0),
  },
  (t) => [
    uniqueIndex('sign_in_tickets_token_hash_key').on(t.tokenHash),
    index('sign_in_tickets_user_id_idx').on(t.userId),
    index('sign_in_tickets_expires_at_idx').on(t.expiresAt),
  ],
);

export type TotpCredential = typeof totpCredentials.$inferSelect;
export type SignInTicket = typeof signInTickets.$inferSelect;
