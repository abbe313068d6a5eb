// Places on the public map. The submitter is kept for moderation only and never leaves the
// server (privacy rule 1). Text search uses an expression GIN index created by the custom
// migration `places_search` (function places_search_document(name, address, tags)).
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './accounts.js';
import { geoPoint, idColumn } from './columns.js';

export const placeTypes = ['sanctuary', 'restaurant', 'cafe', 'grocery', 'shop', 'organization', 'venue'] as const;
export const veganLevels = ['full', 'options'] as const;
export const placeStatuses = ['pending', 'approved', 'rejected'] as const;

export type PlaceType = (typeof placeTypes)[number];
export type VeganLevel = (typeof veganLevels)[number];
export type PlaceStatus = (typeof placeStatuses)[number];

export const places = pgTable(
  'places',
  {
    id: idColumn(),
    /** Public address; derived from the name, unique across every status. */
    slug: text().notNull(),
    name: text().notNull(),
    type: text({ enum: placeTypes }).notNull(),
    veganLevel: text({ enum: veganLevels }).notNull(),
    address: text().notNull(),
    hours: text(),
    website: text().notNull(),
    tags: text().array().notNull().default(sql`'{}'::text[]`),
    /** Absolute https image URLs. */
    photos: text().array().notNull().default(sql`'{}'::text[]`),
    location: geoPoint().notNull(),
    status: text({ enum: placeStatuses }).notNull().default('pending'),
    /** Moderation only; never in a response. Null once the member deleted their account. */
    submitterId: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    reviewedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Why an admin rejected it (optional): shown to the submitter and admins, who alone can read a rejected place. */
    rejectionReason: text(),
    /** Reviews of the place and the sum of their ratings, kept by the review writes (db/schema/place-social.ts). */
    reviewCount: integer().notNull().default(0),
    ratingSum: integer().notNull().default(0),
  },
  (t) => [
    uniqueIndex('places_slug_key').on(t.slug),
    index('places_location_gist').using('gist', t.location),
    // Public lists without a box and the admin queue page through one status in id order.
    index('places_status_id_idx').on(t.status, t.id),
    index('places_submitter_id_idx').on(t.submitterId),
  ],
);

export type Place = typeof places.$inferSelect;
