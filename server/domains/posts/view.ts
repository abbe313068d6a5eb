// Reading posts as a caller sees them: one statement per page that brings each post with its
// author's handle, its reaction counts per kind and its comment count (counter columns of
// `posts`, kept exact by triggers: migrations/0026_post_counter_triggers.sql), the caller's own
// reaction and whether the caller saved it (one primary-key probe each, evaluated only for the
// rows of the page: no query per post). Callers pass the FROM/WHERE part, which always includes
// the visibility condition of visibility.ts.
import { sql, type SQL } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../../db/client.js';
import type { ReactionKind } from '../../../db/schema/posts.js';
import type { PostOutput } from './schemas.js';
import type { PostViewer } from './visibility.js';
import type { Config } from '../../config.js';
import { imageUrlFor } from '../uploads/image-storage.js';
import { type ImageDetails, imageOutputsFor } from '../uploads/image-output.js';

export interface PostRow {
  id: string;
  author_id: string;
  handle: string;
  body: string;
  visibility: PostOutput['visibility'];
  grove_id: string | null;
  image_keys: string[];
  hidden: boolean;
  created_at: Date | string;
  heart_count: number;
  support_count: number;
  celebrate_count: number;
  sad_count: number;
  my_reaction: ReactionKind | null;
  comment_count: number;
  saved: boolean;
  /** The attached uploads of image_keys (any order): size, alt text, variants. */
  image_details: ({ key: string } & ImageDetails)[] | null;
}

/** The reaction counters of post `p`, one column per kind (named as in PostRow). */
export const reactionCountColumns = sql`p.heart_count, p.support_count, p.celebrate_count, p.sad_count`;

/** The images' details, in the same statement (an index probe per image key, no query per post). */
const imageDetailsColumn = sql`(select json_agg(json_build_object('key', i.key, 'alt', i.alt, 'width', i.width,
    'height', i.height, 'variants', i.variants)) from image_uploads i where i.key = any(p.image_keys)) as image_details`;

/** The select list of a post view; `p` is the post, `u` its author. */
export function postColumns(viewer: PostViewer): SQL {
  const me = viewer.id;
  const mine = me
    ? sql`(select r.kind from post_reactions r where r.post_id = p.id and r.user_id = ${me})`
    : sql`null::text`;
  const saved = me ? sql`exists (select 1 from post_saves s where s.user_id = ${me} and s.post_id = p.id)` : sql`false`;
  return sql`p.id, p.author_id, u.handle, p.body, p.visibility, p.grove_id, p.image_keys,
    (p.hidden_at is not null) as hidden, p.created_at,
    ${reactionCountColumns}, ${mine} as my_reaction, p.comment_count, ${saved} as saved,
    ${imageDetailsColumn}`;
}

export type ReactionCountRow = Pick<PostRow, 'heart_count' | 'support_count' | 'celebrate_count' | 'sad_count'>;

export function reactionCounts(row: ReactionCountRow): Record<ReactionKind, number> {
  return {
    heart: Number(row.heart_count),
    support: Number(row.support_count),
    celebrate: Number(row.celebrate_count),
    sad: Number(row.sad_count),
  };
}

export function toPost(row: PostRow, config: Pick<Config, 'PUBLIC_URL'>): PostOutput {
  return {
    _id: row.id,
    author: { _id: row.author_id, handle: row.handle },
    body: row.body,
    visibility: row.visibility,
    groveId: row.grove_id,
    imageKeys: row.image_keys ?? [],
    imageUrls: (row.image_keys ?? []).map((key) => imageUrlFor(config, key)),
    images: imageOutputsFor(
      config,
      row.image_keys ?? [],
      new Map((row.image_details ?? []).map(({ key, ...details }) => [key, details])),
    ),
    reactions: reactionCounts(row),
    myReaction: row.my_reaction,
    commentCount: Number(row.comment_count),
    saved: Boolean(row.saved),
    hidden: Boolean(row.hidden),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** Post views for `fromWhere` (which names `posts p` and `users u`), ordered and limited by the caller. */
export async function selectPosts(
  database: Database,
  viewer: PostViewer,
  fromWhere: SQL,
  executor?: DbOrTx,
): Promise<PostRow[]> {
  return database.rows<PostRow>(sql`select ${postColumns(viewer)} ${fromWhere}`, executor);
}
