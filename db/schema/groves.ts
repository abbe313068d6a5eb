// Groves (local groups) and their memberships. Member lists never leave the server: public
// views show counts only.
import { sql } from 'drizzle-orm';
import {
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { bytea, createdAt, idColumn } from './columns.js';

export const groveRoles = ['member', 'organizer'] as const;
export type GroveRole = (typeof groveRoles)[number];
/**
 * Who may join: `open` (anyone, at once), `approval` (a join is a request an organizer accepts or
 * declines) or `invite` (only with an organizer-issued code). New groves start at `approval`.
 */
export const groveJoinPolicies = ['open', 'approval', 'invite'] as const;
export type GroveJoinPolicy = (typeof groveJoinPolicies)[number];

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
    joinPolicy: text({ enum: groveJoinPolicies }).notNull().default('approval'),
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

/** Pending join requests of `approval` groves; accepting turns one into a membership. */
export const groveJoinRequests = pgTable(
  'grove_join_requests',
  {
    id: idColumn(),
    groveId: uuid()
      .notNull()
      .references(() => groves.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('grove_join_requests_grove_user_key').on(t.groveId, t.userId),
    index('grove_join_requests_user_id_idx').on(t.userId),
  ],
);

/** Members an organizer removed and barred from joining again (until unbanned). */
export const groveBans = pgTable(
  'grove_bans',
  {
    groveId: uuid()
      .notNull()
      .references(() => groves.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    /**
     * Why the organizers banned the member (issue 24: moderation decisions take a reason). Shown
     * to the grove's organizers only, never to the member (the API never confirms a ban to them).
     * Null for bans made before it was asked for.
     */
    reason: text(),
  },
  (t) => [primaryKey({ columns: [t.groveId, t.userId] }), index('grove_bans_user_id_idx').on(t.userId)],
);

/** Organizer-issued invite codes: only the SHA-256 is stored; each has an expiry and a use budget. */
export const groveInvites = pgTable(
  'grove_invites',
  {
    id: idColumn(),
    groveId: uuid()
      .notNull()
      .references(() => groves.id, { onDelete: 'cascade' }),
    codeHash: bytea().notNull(),
    /**
     * The organizer who issued it. Their codes die with their account: an organizer who deletes
     * it (a taken phone, a panic) must not leave working ways into the grove behind.
     */
    createdBy: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    usesLeft: integer().notNull(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('grove_invites_code_hash_key').on(t.codeHash),
    index('grove_invites_grove_id_idx').on(t.groveId),
    index('grove_invites_created_by_idx').on(t.createdBy),
    check('grove_invites_uses_left_nonnegative', sql`${t.usesLeft} >= 0`),
  ],
);

export type Grove = typeof groves.$inferSelect;
