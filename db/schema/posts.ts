// Posts, their comments, reactions and saves, and the friends-feed inbox.
// Who may read a post is decided in SQL by server/domains/posts/visibility.ts; `hidden_at` is the
// moderation action (set through the report-target registry): a hidden post or comment answers
// 404 to everyone but site admins. The reaction and comment counters are kept by triggers
// (migration post_counter_triggers). Everything a member wrote or did here cascades from `users`,
// so account deletion removes it in the same transaction.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, idColumn } from './columns.js';
import { groves } from './groves.js';

export const postVisibilityValues = ['public', 'friends', 'grove'] as const;
export type PostVisibility = (typeof postVisibilityValues)[number];
export const reactionKindValues = ['heart', 'support', 'celebrate', 'sad'] as const;
export type ReactionKind = (typeof reactionKindValues)[number];

export const posts = pgTable(
  'posts',
  {
    id: idColumn(),
    authorId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: text().notNull(),
    visibility: text({ enum: postVisibilityValues }).notNull(),
    /** The grove of a `grove` post (the author was a member when posting); null otherwise. */
    groveId: uuid().references(() => groves.id, { onDelete: 'cascade' }),
    /** Upload keys (the uploads milestone validates them); order as given. */
    imageKeys: text().array().notNull().default(sql`'{}'::text[]`),
    /** Set by moderation: the post then answers 404 to everyone but site admins. */
    hiddenAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    // Counters read by every post view instead of counting per row (bench/README.md, "Friends
    // feed"). Kept exact by database triggers on post_reactions and post_comments, in the
    // transaction of the write (migration post_counter_triggers); never written by service code.
    heartCount: integer().notNull().default(0),
    supportCount: integer().notNull().default(0),
    celebrateCount: integer().notNull().default(0),
    sadCount: integer().notNull().default(0),
    /** Comments that are not hidden by moderation. */
    commentCount: integer().notNull().default(0),
  },
  (t) => [
    check('posts_grove_iff_grove_visibility', sql`(${t.visibility} = 'grove') = (${t.groveId} is not null)`),
    // A member's posts newest first (handle posts, the fan-out triggers, account deletion).
    index('posts_author_id_idx').on(t.authorId, t.id),
    // The grove feed: one grove's posts newest first.
    index('posts_grove_id_idx').on(t.groveId, t.id).where(sql`${t.groveId} is not null`),
    // The public feed: a backward walk of this partial index, 20 rows a page.
    index('posts_public_id_idx').on(t.id).where(sql`${t.visibility} = 'public' and ${t.hiddenAt} is null`),
  ],
);

export const postComments = pgTable(
  'post_comments',
  {
    id: idColumn(),
    postId: uuid()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    authorId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: text().notNull(),
    /** Set by moderation: the comment then answers 404 to everyone but site admins. */
    hiddenAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('post_comments_post_id_idx').on(t.postId, t.id), index('post_comments_author_id_idx').on(t.authorId)],
);

/** One reaction per member per post; setting another kind replaces it. */
export const postReactions = pgTable(
  'post_reactions',
  {
    postId: uuid()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text({ enum: reactionKindValues }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // Also the caller's own reaction on a post; the counts per kind are counters on `posts`.
    primaryKey({ columns: [t.postId, t.userId] }),
    index('post_reactions_user_id_idx').on(t.userId),
  ],
);

/** Private bookmarks: only the saver ever sees them. */
export const postSaves = pgTable(
  'post_saves',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postId: uuid()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.postId] }), index('post_saves_post_id_idx').on(t.postId)],
);

/**
 * The `#tags` of each post (server/domains/posts/tags.ts: NFC, lower case), written with the post;
 * the feed's `tag` filter walks (tag, post_id) backwards, newest first, one page at a time.
 * Existing posts were filled by migration post_tags_backfill. Goes with its post.
 */
export const postTags = pgTable(
  'post_tags',
  {
    tag: text().notNull(),
    postId: uuid()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.tag, t.postId] }), index('post_tags_post_id_idx').on(t.postId)],
);

/**
 * The friends feed's inbox ("fan-out on write"): one row per (reader, post) for every post by the
 * reader or by someone who was the reader's friend when either the post or the friendship was
 * made. Kept by database triggers on `posts` and `friendships` (migration posts_feed_triggers), so
 * every writer of either table keeps it right. It only narrows the candidates: the feed query
 * still checks the friendship and the post's visibility on every read, so a stale row is never
 * shown. Design and measurements: bench/README.md, "Friends feed".
 */
export const feedEntries = pgTable(
  'feed_entries',
  {
    ownerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postId: uuid()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.postId] }), index('feed_entries_post_id_idx').on(t.postId)],
);

export type Post = typeof posts.$inferSelect;
export type PostComment = typeof postComments.$inferSelect;
