// Groves (local groups) and their memberships. Member lists never leave the server: public
// views show counts only.
import { sql } from 'drizzle-orm';
import { doublePrecision, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, idColumn } from './columns.js';

export const groveRoles = ['member', 'organizer'] as const;
export type GroveRole = (typeof groveRoles)[number];

export const groves = pgTable(
  'groves',
  {
    id: idColumn(),
    slug: text().notNull(),
    name: text().notNull(),
    description: text().notNull().default(''),
    /** Area name matched by the events `area` filter. */
    regionName: text().notNull(),
    /** Optional bounding box of the region, in degrees (all four or none). */
    regionWest: doublePrecision(),
    regionSouth: doublePrecision(),
    regionEast: doublePrecision(),
    regionNorth: doublePrecision(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('groves_slug_key').on(t.slug), index('groves_region_name_idx').on(sql`lower(${t.regionName})`)],
);

export const groveMembers = pgTable(
  'grove_members',
  {
    groveId: uuid()
      .notNull()
      .references(() => groves.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text({ enum: groveRoles }).notNull().default('member'),
    joinedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.groveId, t.userId] }), index('grove_members_user_id_idx').on(t.userId, t.groveId)],
);

export type Grove = typeof groves.$inferSelect;
