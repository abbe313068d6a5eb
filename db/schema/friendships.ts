// Friendships between two members. Each friendship is stored as TWO rows, one per direction
// (a→b and b→a), written and deleted together, so "friends of X" is one indexed lookup on
// user_id. Accepting a friend invite creates them (server/domains/friends/); events (and posts)
// read them for `friends` visibility: this table is the one source of truth.
//
// Both rows of a friendship carry the same `id` (the Friend `_id` of the API), a UUIDv7 made by
// the app when the invite is accepted, so a friends list pages by creation order. The column
// default only covers rows written by hand (tests, benches) that predate the id; the app
// always sets it.
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
    /** Shared by both rows of the friendship: the Friend `_id`. */
    id: uuid().notNull().default(sql`gen_random_uuid()`),
    /** When the two became friends (`since`). */
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.friendId] }),
    // Deleting an account cascades through friend_id too; without it that is a full scan.
    index('friendships_friend_id_idx').on(t.friendId),
    // A member's friends list, paged by friendship id.
    index('friendships_user_id_id_idx').on(t.userId, t.id),
    check('friendships_not_self', sql`${t.userId} <> ${t.friendId}`),
  ],
);
