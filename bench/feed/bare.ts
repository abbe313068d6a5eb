// The bare baselines of the feed benchmark: Hono + postgres.js, no tRPC, no OpenAPI adapter, no
// zod, no middleware, answering `GET /api/feed?scope=friends[&cursor=…]` with the same JSON as
// the real API. Like the API it looks the bearer token's session up first (one indexed query).
//
// mode 'design': the API's own statement, friendsFeedStatement() (server/domains/posts/feed.ts),
//   turned into SQL text once per shape by Drizzle's dialect and prepared, as the API prepares it.
// mode 'naive': the same select list and the same visibility rules (friendOrSelfPostVisibleTo)
//   over the plan the design replaces, candidates straight from `posts`: `WHERE author IN (me
//   and my friends) ORDER BY id DESC LIMIT n`, the friends as the IN list PostgreSQL hashes
//   once per execution (the natural plan for it: probing the friendship per row, as the design
//   does for its 21 rows, would cost the naive walk one probe per post it passes over), prepared
//   the same way.
import { Hono } from 'hono';
import postgres from 'postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import { fillPlaceholders, sql, type SQL } from 'drizzle-orm';
import { hashSecretToken } from '../../server/auth/tokens.js';
import { decodeCursor, encodeCursor } from '../../server/lib/pagination.js';
import { friendsFeedStatement, friendsFeedValues, type FriendsFeedShape } from '../../server/domains/posts/feed.js';
import { postColumns, toPost, type PostRow } from '../../server/domains/posts/view.js';
import { friendOrSelfPostVisibleTo, type PostViewer } from '../../server/domains/posts/visibility.js';

/** The public address every feed bench server answers with (image URLs are built from it), so their pages match byte for byte. */
export const BENCH_PUBLIC_URL = 'http://127.0.0.1:3000';

/**
 * 'design' and 'naive' run their statement on every request; 'floor' answers from memory what
 * the design statement answered the first time (per viewer, cursor and limit): the handler's
 * fixed cost (HTTP, the session lookup, mapping and writing the same page), which no plan can
 * take away, so `naive / floor` bounds what any plan can gain per request.
 */
export type FeedBareMode = 'design' | 'naive' | 'floor';

/** The naive plan: every post by the caller or a friend, newest first, visibility checked by the same rules as the design. */
export function naiveFriendsFeedStatement(shape: FriendsFeedShape): SQL {
  const me = sql.placeholder('me');
  const viewer: PostViewer = { id: me, isSiteAdmin: shape.admin };
  return sql`select ${postColumns(viewer)}
    from posts p join users u on u.id = p.author_id
    where p.hidden_at is null ${shape.cursor ? sql`and p.id < ${sql.placeholder('before')}` : sql``}
      and (p.author_id = ${me} or p.author_id in (select ff.friend_id from friendships ff where ff.user_id = ${me}))
      and ${friendOrSelfPostVisibleTo(viewer)}
    order by p.id desc limit ${sql.placeholder('pageSize')}`;
}

export function createFeedBareApp(url: string, mode: FeedBareMode, poolMax = 10) {
  const client = postgres(url, { max: poolMax, onnotice: () => {} });
  const dialect = new PgDialect({ casing: 'snake_case' });
  const build = mode === 'naive' ? naiveFriendsFeedStatement : friendsFeedStatement;
  const remembered = new Map<string, PostRow[]>();
  const templates = new Map<string, { sql: string; params: unknown[] }>();
  const template = (shape: FriendsFeedShape) => {
    const key = `${+shape.cursor}${+shape.admin}`;
    let found = templates.get(key);
    if (!found) {
      found = dialect.sqlToQuery(build(shape));
      templates.set(key, found);
    }
    return found;
  };
  const app = new Hono();
  app.get('/api/feed', async (c) => {
    const token = c.req.header('authorization')?.replace(/^Bearer /, '') ?? '';
    const [session] = await client<{ id: string; role: string }[]>`
      select u.id, u.role from sessions s join users u on u.id = s.user_id
      where s.token_hash = ${Buffer.from(hashSecretToken(token))} and s.expires_at > now() limit 1`;
    if (!session) return c.json({ error: { code: 'unauthorized', message: 'Sign in.' } }, 401);
    if ((c.req.query('scope') ?? 'friends') !== 'friends')
      return c.json({ error: { code: 'validation_failed', message: 'scope' } }, 400);
    const limit = Math.min(100, Math.max(1, Number(c.req.query('limit') ?? 20) || 20));
    const cursor = c.req.query('cursor');
    const viewer = { id: session.id, isSiteAdmin: session.role === 'admin' };
    const before = cursor ? decodeCursor(cursor) : undefined;
    const query = template({ cursor: before !== undefined, admin: viewer.isSiteAdmin });
    const params = fillPlaceholders(query.params, friendsFeedValues(viewer, before, limit));
    const key = `${viewer.id} ${before} ${limit}`;
    let rows = mode === 'floor' ? remembered.get(key) : undefined;
    if (!rows) {
      rows = (await client.unsafe(query.sql, params as never[], { prepare: true })) as unknown as PostRow[];
      if (mode === 'floor') remembered.set(key, rows);
    }
    const items = rows.slice(0, limit).map((row) => toPost(row, { PUBLIC_URL: BENCH_PUBLIC_URL }));
    const last = items[items.length - 1];
    return c.json({ items, nextCursor: rows.length > limit && last ? encodeCursor(last._id) : null });
  });
  return { app, close: () => client.end({ timeout: 5 }) };
}
