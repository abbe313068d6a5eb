// Sign-in identities at Apple and Google linked to a member, and the identity tokens already
// used (a stolen token cannot be replayed while it is still within its lifetime).
import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { bytea, createdAt } from './columns.js';

export const identityProviders = ['apple', 'google'] as const;
export type IdentityProvider = (typeof identityProviders)[number];

export const externalIdentities = pgTable(
  'external_identities',
  {
    provider: text({ enum: identityProviders }).notNull(),
    /** The provider's stable subject (`sub`): the identity, whatever the email becomes later. */
    subject: text().notNull(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.subject] }),
    // One identity per provider per member: a second Apple account cannot attach to the same member.
    uniqueIndex('external_identities_user_provider_key').on(t.userId, t.provider),
  ],
);

export const usedIdentityTokens = pgTable(
  'used_identity_tokens',
  {
    /** SHA-256 of the whole JWT; the token itself is never stored. */
    tokenHash: bytea().primaryKey(),
    /** The token's own `exp`: after it the token is refused anyway, so the row can go. */
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('used_identity_tokens_expires_at_idx').on(t.expiresAt)],
);
