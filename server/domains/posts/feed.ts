// Lists of posts, newest first, cursor over `_id` (UUIDv7: id order is creation order):
// the feed in its three scopes, a member's public posts, and the caller's saved posts. Every list
// applies postVisibleTo in its SQL; hidden posts are left out of every list (admins open them by id).
// Blocks are part of postVisibleTo; the feeds also leave out the posts of members the caller
// muted (notMutedBy), a member's own page and the saved posts do not (docs/safety.md).
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { preparedObjectRows, sqlToQuery, type PreparedRows } from '../../../db/drizzle-internals.js';
import { AppError } from '../../errors.js';
import { decodeCursor, toPage } from '../../lib/pagination.js';
import type { Caller, MemberServiceContext, ServiceContext } from '../../service/context.js';
import type { PostOutput } from './schemas.js';
import { postColumns, selectPosts, toPost, type PostRow } from './view.js';
import type { Config } from '../../config.js';
import { notMutedBy } from '../../shared/block-filters.js';
import {
  memberViewer,
  postByFriendOrSelfVisibleTo,
  postViewerOf,
  postVisibleTo,
  type PostViewer,
} from './visibility.js';

interface PageInput {
  cursor?: string;
  limit: number;
}

type PostPage = { items: PostOutput[]; nextCursor: string | null };

function page(rows: PostRow[], limit: number, config: Pick<Config, 'PUBLIC_URL'>): PostPage {
  const cut = toPage(rows, limit, (r) => r.id);
  return { items: cut.items.map((row) => toPost(row, config)), nextCursor: cut.nextCursor };
}

/** `and <column> < cursor id`, or nothing on the first page. */
function before(column: SQL, cursor: string | undefined): SQL {
  return cursor === undefined ? sql`` : sql`and ${column} < ${decodeCursor(cursor)}`;
}

/** `and the post carries the tag`, or nothing without a tag filter (post_tags' primary key). */
function taggedWith(tag: string | undefined): SQL {
  return tag === undefined
    ? sql``
    : sql`and exists (select 1 from post_tags pt where pt.tag = ${tag} and pt.post_id = p.id)`;
}

/** The feeds' mute condition (anonymous readers have no mutes). */
function mutedLeftOut(viewer: PostViewer): SQL {
  return viewer.id ? notMutedBy(viewer.id, sql`p.author_id`) : sql`true`;
}

export async function feed(
  ctx: MemberServiceContext,
  input: PageInput & { scope: string; tag?: string },
): Promise<PostPage> {
  const viewer = memberViewer(ctx.user);
  if (input.scope === 'public') return publicFeed(ctx, viewer, input);
  if (input.scope.startsWith('grove:')) return groveFeed(ctx, viewer, input.scope.slice(6).toLowerCase(), input);
  return friendsFeed(ctx, viewer, input);
}

/**
 * The caller's own posts and their friends' posts that the caller may see. Candidates come from
 * the caller's inbox (feed_entries, kept by triggers: bench/README.md "Friends feed"), walked
 * backwards on its primary key; each candidate is re-checked here, so a friendship that ended or
 * a grove the caller left hides the post on the very next request.
 */
async function friendsFeed(
  ctx: ServiceContext,
  viewer: PostViewer,
  input: PageInput & { tag?: string },
): Promise<PostPage> {
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
  const shape = { cursor: after !== undefined, admin: viewer.isSiteAdmin, tag: input.tag !== undefined };
  const statement = preparedFriendsFeed(ctx.database.db, shape);
  const rows = await statement.execute({ ...friendsFeedValues(viewer, after, input.limit), tag: input.tag });
  return page(rows, input.limit, ctx.config);
}

export interface FriendsFeedShape {
  cursor: boolean;
  admin: boolean;
  /** With the `tag` placeholder: only posts that carry that tag. */
  tag?: boolean;
}

/**
 * The friends feed statement, with placeholders `me`, `before` and `pageSize` (also run by the
 * feed benchmark's bare handler, bench/feed/): one page plus one row, newest first. Its text
 * depends only on the shape, so it is prepared once per connection: parsing and planning it cost
 * more than running it (bench/README.md, "Friends feed"). Its plan is the same whatever the
 * viewer (a backward walk of the viewer's inbox), so a generic plan is safe.
 */
export function friendsFeedStatement(shape: FriendsFeedShape): SQL {
  const me = sql.placeholder('me');
  const viewer: PostViewer = { id: me, isSiteAdmin: shape.admin };
  return sql`select ${postColumns(viewer)}
    from feed_entries fe join posts p on p.id = fe.post_id join users u on u.id = p.author_id
    where fe.owner_id = ${me} ${shape.cursor ? sql`and fe.post_id < ${sql.placeholder('before')}` : sql``}
      and p.hidden_at is null and ${postByFriendOrSelfVisibleTo(viewer)} and ${notMutedBy(me, sql`p.author_id`)}
      ${shape.tag ? sql`and exists (select 1 from post_tags pt where pt.tag = ${sql.placeholder('tag')} and pt.post_id = p.id)` : sql``}
    order by fe.post_id desc limit ${sql.placeholder('pageSize')}`;
}

export function friendsFeedValues(viewer: PostViewer, beforeId: string | undefined, limit: number) {
  return { me: viewer.id, before: beforeId, pageSize: limit + 1 };
}

type RowsStatement = PreparedRows<PostRow>;
const preparedByDb = new WeakMap<Db, Map<string, RowsStatement>>();

function preparedFriendsFeed(db: Db, shape: FriendsFeedShape): RowsStatement {
  let cache = preparedByDb.get(db);
  if (!cache) {
    cache = new Map();
    preparedByDb.set(db, cache);
  }
  const name = `posts_friends_feed_${+shape.cursor}${+shape.admin}${+(shape.tag ?? false)}`;
  let statement = cache.get(name);
  if (!statement) {
    statement = preparedObjectRows<PostRow>(db, sqlToQuery(friendsFeedStatement(shape)), name);
    cache.set(name, statement);
  }
  return statement;
}

async function publicFeed(
  ctx: ServiceContext,
  viewer: PostViewer,
  input: PageInput & { tag?: string },
): Promise<PostPage> {
  if (input.tag !== undefined) return publicTagFeed(ctx, viewer, { ...input, tag: input.tag });
  const rows = await selectPosts(
    ctx.database,
    viewer,
    sql`from posts p join users u on u.id = p.author_id
        where p.visibility = 'public' and p.hidden_at is null ${before(sql`p.id`, input.cursor)}
          and ${postVisibleTo(viewer)} and ${mutedLeftOut(viewer)}
        order by p.id desc limit ${input.limit + 1}`,
  );
  return page(rows, input.limit, ctx.config);
}

/**
 * Public posts with one tag: a backward walk of post_tags' primary key (tag, post_id), so a page
 * costs the same for a tag on three posts and one on a million.
 */
async function publicTagFeed(
  ctx: ServiceContext,
  viewer: PostViewer,
  input: PageInput & { tag: string },
): Promise<PostPage> {
  const rows = await selectPosts(
    ctx.database,
    viewer,
    sql`from post_tags pt join posts p on p.id = pt.post_id join users u on u.id = p.author_id
        where pt.tag = ${input.tag} ${before(sql`pt.post_id`, input.cursor)}
          and p.visibility = 'public' and p.hidden_at is null and ${postVisibleTo(viewer)} and ${mutedLeftOut(viewer)}
        order by pt.post_id desc limit ${input.limit + 1}`,
  );
  return page(rows, input.limit, ctx.config);
}

/** Members of the grove only; anyone else (site admins too) gets the answer of a missing grove. */
async function groveFeed(
  ctx: ServiceContext,
  viewer: PostViewer,
  groveId: string,
  input: PageInput & { tag?: string },
): Promise<PostPage> {
  const [allowed] = await ctx.database.rows<{ ok: boolean }>(
    sql`select true as ok from grove_members gm where gm.grove_id = ${groveId} and gm.user_id = ${viewer.id}`,
  );
  if (!allowed) throw new AppError('not_found', 'No such grove among the groves you belong to.');
  const rows = await selectPosts(
    ctx.database,
    viewer,
    sql`from posts p join users u on u.id = p.author_id
        where p.grove_id = ${groveId} and p.hidden_at is null ${before(sql`p.id`, input.cursor)}
          and ${postVisibleTo(viewer)} and ${mutedLeftOut(viewer)} ${taggedWith(input.tag)}
        order by p.id desc limit ${input.limit + 1}`,
  );
  return page(rows, input.limit, ctx.config);
}

/** Public posts only, whoever asks (friends of the member included); an unknown handle is 404. */
export async function handlePosts(
  ctx: ServiceContext,
  caller: Caller,
  input: PageInput & { handle: string },
): Promise<PostPage> {
  const viewer = postViewerOf(caller);
  const [author] = await ctx.database.rows<{ id: string }>(
    sql`select id from users where handle = ${input.handle.toLowerCase()}`,
  );
  if (!author) throw new AppError('not_found', 'No member with that handle.');
  const rows = await selectPosts(
    ctx.database,
    viewer,
    sql`from posts p join users u on u.id = p.author_id
        where p.author_id = ${author.id} and p.visibility = 'public' and p.hidden_at is null
          ${before(sql`p.id`, input.cursor)} and ${postVisibleTo(viewer)}
        order by p.id desc limit ${input.limit + 1}`,
  );
  return page(rows, input.limit, ctx.config);
}

/** The caller's saved posts, newest post first; a post the caller can no longer see drops out. */
export async function savedPosts(ctx: MemberServiceContext, input: PageInput): Promise<PostPage> {
  const viewer = memberViewer(ctx.user);
  const rows = await selectPosts(
    ctx.database,
    viewer,
    sql`from post_saves sv join posts p on p.id = sv.post_id join users u on u.id = p.author_id
        where sv.user_id = ${ctx.user.id} and p.hidden_at is null ${before(sql`sv.post_id`, input.cursor)}
          and ${postVisibleTo(viewer)}
        order by sv.post_id desc limit ${input.limit + 1}`,
  );
  return page(rows, input.limit, ctx.config);
}
