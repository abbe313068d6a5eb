// Friendships between two members. Each friendship is stored as TWO rows, one per direction
// (a→b and b→a), written and deleted together, so "friends of X" is one indexed lookup on
// user_id. The social milestone creates them (invites); events read them for `friends` visibility.
import { check, index, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './accounts.js';

export const friendships = pgTable(
  'friendships',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    friendId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.friendId] }),
    // Deleting an account cascades through friend_id too; without it that is a full scan.
    index('friendships_friend_id_idx').on(t.friendId),
    check('friendships_not_self', sql`${t.userId} <> ${t.friendId}`),
  ],
);
