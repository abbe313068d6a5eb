// Blocks and mutes between members (issue #25; docs/safety.md). One row per (who, whom), one
// direction each: `member_blocks` is read both ways (a block holds in both directions), so its
// primary key (blocker, blocked) answers "did I block them" and the index on (blocked, blocker)
// answers "did they block me", each a single index probe; `member_mutes` is read one way only.
// Both go with either account (ON DELETE CASCADE), which is all account deletion needs.
import { check, index, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './accounts.js';

export const memberBlocks = pgTable(
  'member_blocks',
  {
    blockerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    // "Did the author block me": a probe from the blocked side; also the cascade's path.
    index('member_blocks_blocked_id_blocker_id_idx').on(t.blockedId, t.blockerId),
    check('member_blocks_not_self', sql`${t.blockerId} <> ${t.blockedId}`),
  ],
);

export const memberMutes = pgTable(
  'member_mutes',
  {
    muterId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mutedId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.muterId, t.mutedId] }),
    // Deleting the muted account cascades through muted_id: without it that is a full scan. Both
    // columns, so a probe from this side never filters the many muters of a much-muted member.
    index('member_mutes_muted_id_muter_id_idx').on(t.mutedId, t.muterId),
    check('member_mutes_not_self', sql`${t.muterId} <> ${t.mutedId}`),
  ],
);

export type MemberBlock = typeof memberBlocks.$inferSelect;
export type MemberMute = typeof memberMutes.$inferSelect;
