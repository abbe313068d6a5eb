// Members, their sessions and their magic-link tokens.

import { sql } from 'drizzle-orm';
import { check, date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bytea, createdAt, idColumn } from './columns.js';

export const userRoles = ['member', 'admin'] as const;
export type UserRole = (typeof userRoles)[number];

/** Languages a member can choose for the web, mail and push (the i18n runtime's LOCALES). */
export const accountLocales = ['en', 'de', 'es', 'fr', 'pt'] as const;
export type AccountLocale = (typeof accountLocales)[number];

export const users = pgTable(
  'users',
  {
    id: idColumn(),
    /** Stored lower-cased and trimmed; unique. */
    email: text().notNull(),
    /** Stored lower-cased; unique; the member's public name. */
    handle: text().notNull(),
    /** argon2id PHC string; null for accounts that only ever used magic links. */
    passwordHash: text(),
    role: text({ enum: userRoles }).notNull().default('member'),
    /** The member's chosen language; null = not chosen (the web negotiates, mail and push use en). */
    locale: text({ enum: accountLocales }),
    /**
     * IANA zone for dates in the web, mail and push; null = not chosen. Private: where someone
     * lives, so it is returned only to the member themselves, never on a profile.
     */
    timeZone: text(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), uniqueIndex('users_handle_key').on(t.handle)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: idColumn(),
    /** SHA-256 of the bearer token; the token itself is never stored. */
    tokenHash: bytea().notNull(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    /**
     * The browser family that signed in, as a key `Browser|OS` ("Firefox|Linux", "|" when the
     * client named neither: the API client); null for sessions older than this column. Never the
     * raw User-Agent (server/domains/sign-in-alerts/device.ts).
     */
    device: text(),
    /** The last UTC day the session was used, written at most once a day (null: not since this column). */
    lastSeenOn: date({ mode: 'string' }),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_user_id_idx').on(t.userId),
    index('sessions_expires_at_idx').on(t.expiresAt),
  ],
);

export const magicLinkTokens = pgTable(
  'magic_link_tokens',
  {
    id: idColumn(),
    tokenHash: bytea().notNull(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    /**
     * Set when the link was mailed to confirm a sign-in with Apple or Google whose email alone does
     * not prove the account is theirs: opening it also links this identity (provider's `sub`).
     */
    linkProvider: text({ enum: ['apple', 'google'] }),
    linkSubject: text(),
  },
  (t) => [
    uniqueIndex('magic_link_tokens_token_hash_key').on(t.tokenHash),
    index('magic_link_tokens_user_id_idx').on(t.userId),
    index('magic_link_tokens_expires_at_idx').on(t.expiresAt),
    check('magic_link_tokens_link_pair', sql`(${t.linkProvider} is null) = (${t.linkSubject} is null)`),
  ],
);

export type User = typeof users.$inferSelect;
export type Session = typeof sessions.$inferSelect;
