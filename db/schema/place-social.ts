// Member content attached to places: reviews and place lists. A review names its author only
// for moderation and for the author's own edits; the author's handle leaves the server only
// when `show_handle` is true (spec: Place review). The rating aggregate a place read shows is
// kept on the place row (places.review_count, places.rating_sum), updated in the same
// transaction as every review write, so the place list never aggregates reviews.
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, idColumn } from './columns.js';
import { places } from './places.js';

export const placeReviews = pgTable(
  'place_reviews',
  {
    id: idColumn(),
    placeId: uuid()
      .notNull()
      .references(() => places.id, { onDelete: 'cascade' }),
    /** Never in a response. Account deletion removes the reviews first (it fixes the aggregate). */
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: smallint().notNull(),
    text: text().notNull(),
    /** `YYYY-MM`, or null when not given. */
    monthVisited: text(),
    showHandle: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [
    // One review per member and place; also the lookup of "my review" of a place.
    uniqueIndex('place_reviews_place_id_user_id_key').on(t.placeId, t.userId),
    // A place's reviews, newest first.
    index('place_reviews_place_id_id_idx').on(t.placeId, t.id),
    index('place_reviews_user_id_idx').on(t.userId),
    check('place_reviews_rating_range', sql`${t.rating} between 1 and 5`),
    check('place_reviews_month_format', sql`${t.monthVisited} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
  ],
);

export const placeLists = pgTable(
  'place_lists',
  {
    id: idColumn(),
    /** The owner; never in a response (the handle is shown only when `show_handle`). */
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Public address of a shared list; always carries a random suffix (lists can be private). */
    slug: text().notNull(),
    name: text().notNull(),
    description: text(),
    isPublic: boolean().notNull().default(false),
    showHandle: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('place_lists_slug_key').on(t.slug),
    // The owner's lists in id order (also the index of the foreign key).
    index('place_lists_user_id_id_idx').on(t.userId, t.id),
  ],
);

export const placeListItems = pgTable(
  'place_list_items',
  {
    listId: uuid()
      .notNull()
      .references(() => placeLists.id, { onDelete: 'cascade' }),
    placeId: uuid()
      .notNull()
      .references(() => places.id, { onDelete: 'cascade' }),
    addedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.listId, t.placeId] }), index('place_list_items_place_id_idx').on(t.placeId)],
);

export type PlaceReview = typeof placeReviews.$inferSelect;
export type PlaceList = typeof placeLists.$inferSelect;
