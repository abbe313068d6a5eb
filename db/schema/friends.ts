// Friend invite codes. Friendships are made only through them (spec: Friend invite states);
// the friendships themselves live in friendships.ts, the one source of truth events read.
//
// Only the SHA-256 of a code is stored: the issuer sees it once, when it is made. A code is
// single use: accepting it deletes its row in the same transaction that writes the friendship,
// so "used", "revoked", "expired" and "never existed" are all simply "no live row" and look the
// same to whoever tries a code. Expired rows are swept (server/domains/friends/invite-sweep.ts).
import { index, pgTable, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { bytea, createdAt, idColumn } from './columns.js';

export const friendInvites = pgTable(
  'friend_invites',
  {
    id: idColumn(),
    /** Their codes die with their account (cascade): nothing keeps pointing at a deleted member. */
    issuerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: bytea().notNull(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('friend_invites_code_hash_key').on(t.codeHash),
    // The issuer's open invites, paged by id (and counted against the open-invite limit).
    index('friend_invites_issuer_id_id_idx').on(t.issuerId, t.id),
    index('friend_invites_expires_at_idx').on(t.expiresAt),
  ],
);

export type FriendInvite = typeof friendInvites.$inferSelect;
