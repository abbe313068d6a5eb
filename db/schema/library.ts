// The media library, guides and the private watchlist (privacy rule 6).
//
// Nothing here records viewing: a watchlist entry says only that a member saved an item (and
// when), never whether or when they watched it, and no table keeps a count of saves
// (tests/library/watchlist-privacy.test.ts reads the catalog to prove it). Media items and
// guides name no member: admins edit them, but no author is stored.
import { sql, type SQL } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, idColumn } from './columns.js';

export const mediaKinds = ['documentary', 'film', 'series', 'talk', 'short'] as const;
export const mediaTags = ['ethics', 'health', 'environment', 'activism', 'cooking'] as const;
/** Trailer hosts whose players are embedded on click (their privacy-enhanced player URLs). */
export const trailerProviders = ['youtube', 'vimeo'] as const;

export type MediaKind = (typeof mediaKinds)[number];
export type MediaTag = (typeof mediaTags)[number];
export type TrailerProvider = (typeof trailerProviders)[number];
export interface WatchLink {
  platform: string;
  url: string;
}

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
const updatedAt = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const mediaItems = pgTable(
  'media_items',
  {
    id: idColumn(),
    /** Public address; unique, stable across renames. */
    slug: text().notNull(),
    kind: text({ enum: mediaKinds }).notNull(),
    title: text().notNull(),
    year: integer(),
    synopsis: text().notNull().default(''),
    tags: text({ enum: mediaTags }).array().notNull().default(sql`'{}'::text[]`),
    /** An absolute https URL or an upload key (docs/library.md). */
    poster: text(),
    watchLinks: jsonb().$type<WatchLink[]>().notNull().default(sql`'[]'::jsonb`),
    /** Provider and video id only: the embed URL is built by the server, never stored HTML. */
    trailerProvider: text({ enum: trailerProviders }),
    trailerVideoId: text(),
    featured: boolean().notNull().default(false),
    /** Null while a draft: the public sees published items only. */
    publishedAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Word-prefix text search (`q`) over title and synopsis, 'simple' config as for places. */
    searchDocument: tsvector()
      .notNull()
      .generatedAlwaysAs(
        (): SQL => sql`to_tsvector('simple'::regconfig, ${mediaItems.title} || ' ' || ${mediaItems.synopsis})`,
      ),
  },
  (t) => [
    uniqueIndex('media_items_slug_key').on(t.slug),
    // Public pages: published only, featured first or plain id order.
    index('media_items_published_order_idx').on(t.featured, t.id).where(sql`${t.publishedAt} is not null`),
    index('media_items_published_id_idx').on(t.id).where(sql`${t.publishedAt} is not null`),
    index('media_items_tags_gin').using('gin', t.tags),
    index('media_items_search_gin').using('gin', t.searchDocument),
  ],
);

/** The small admin-managed set of guide categories. */
export const guideCategories = pgTable(
  'guide_categories',
  {
    id: idColumn(),
    slug: text().notNull(),
    name: text().notNull(),
    description: text().notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('guide_categories_slug_key').on(t.slug)],
);

export const guides = pgTable(
  'guides',
  {
    id: idColumn(),
    slug: text().notNull(),
    title: text().notNull(),
    /** A category in use cannot be deleted (409). */
    categoryId: uuid()
      .notNull()
      .references(() => guideCategories.id, { onDelete: 'restrict' }),
    summary: text().notNull().default(''),
    /** Markdown source, as the admin wrote it. */
    body: text().notNull(),
    /** Sanitised HTML rendered from `body` at write time (server/domains/guides/markdown.ts). */
    bodyHtml: text().notNull(),
    /** Renderer version that produced bodyHtml; older ones are re-rendered on read. */
    renderVersion: integer().notNull(),
    readingMinutes: integer().notNull(),
    /** An absolute https URL or an upload key, like media posters. */
    coverImage: text(),
    publishedAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('guides_slug_key').on(t.slug),
    index('guides_category_id_idx').on(t.categoryId, t.id),
    index('guides_published_id_idx').on(t.id).where(sql`${t.publishedAt} is not null`),
  ],
);

/**
 * A member's private watchlist: saved, nothing more. `createdAt` is when the item was saved
 * (it orders the list); there is deliberately no watched flag, progress or view time.
 */
export const watchlistEntries = pgTable(
  'watchlist_entries',
  {
    id: idColumn(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mediaItemId: uuid()
      .notNull()
      .references(() => mediaItems.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('watchlist_entries_user_media_key').on(t.userId, t.mediaItemId),
    index('watchlist_entries_user_id_idx').on(t.userId, t.id),
    index('watchlist_entries_media_item_id_idx').on(t.mediaItemId),
  ],
);

export type MediaItem = typeof mediaItems.$inferSelect;
export type Guide = typeof guides.$inferSelect;
export type GuideCategory = typeof guideCategories.$inferSelect;
