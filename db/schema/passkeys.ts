// WebAuthn passkeys of a member, and the single-use challenges of their ceremonies.
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { bytea, createdAt, idColumn } from './columns.js';

export const passkeys = pgTable(
  'passkeys',
  {
    id: idColumn(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The authenticator's credential id, base64url as WebAuthn sends it; unique across accounts. */
    credentialId: text().notNull(),
    /** COSE public key: verifies assertions; never returned by the API. */
    publicKey: bytea().notNull(),
    /** The signature counter last seen (0 for authenticators that do not count). */
    counter: integer().notNull().default(0),
    /** Hints for the browser (usb, nfc, ble, internal, hybrid), as the authenticator reported them. */
    transports: jsonb().$type<string[]>().notNull().default([]),
    /** The member's own label ("Laptop", "Phone"). */
    name: text().notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('passkeys_credential_id_key').on(t.credentialId), index('passkeys_user_id_idx').on(t.userId)],
);

export const webauthnChallengePurposes = ['register', 'confirm', 'sign-in', 'second-factor'] as const;
export type WebauthnChallengePurpose = (typeof webauthnChallengePurposes)[number];

export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: idColumn(),
    /** The random challenge (base64url) the authenticator signs. */
    challenge: text().notNull(),
    purpose: text({ enum: webauthnChallengePurposes }).notNull(),
    /** The member it was made for (register, confirm, second-factor); null for a sign-in by passkey alone. */
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the sign-in ticket a second-factor challenge belongs to. */
    ticketHash: bytea(),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('webauthn_challenges_expires_at_idx').on(t.expiresAt),
    index('webauthn_challenges_user_id_idx').on(t.userId),
  ],
);

export type Passkey = typeof passkeys.$inferSelect;
export type WebauthnChallenge = typeof webauthnChallenges.$inferSelect;
