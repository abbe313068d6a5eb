// The bare baselines of the feed benchmark: Hono + postgres.js, no tRPC, no OpenAPI adapter, no
// zod, no middleware, answering `GET /api/feed?scope=friends[&cursor=…]` with the same JSON as
// the real API. Like the API it looks the bearer token's session up first (one indexed query).
//
// mode 'design': the API's own statement, friendsFeedStatement() (server/domains/posts/feed.ts),
//   turned into SQL text once per shape by Drizzle's dialect and prepared, as the API prepares it.
// mode 'naive': the same select list and the same condition (author is the caller or a friend,
//   and visible: postByFriendOrSelfVisibleTo) over the plan the design replaces, candidates
//   straight from `posts` (`WHERE author IN (me and my friends) ORDER BY id DESC LIMIT n`),
//   prepared the same way, so the two differ in their plan only.
import { Hono } from 'hono';
import postgres from 'postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import { fillPlaceholders, sql, type SQL } from 'drizzle-orm';
import { hashSecretToken } from '../../server/auth/tokens.js';
import { decodeCursor, encodeCursor } from '../../server/lib/pagination.js';
import { friendsFeedStatement, friendsFeedValues, type FriendsFeedShape } from '../../server/domains/posts/feed.js';
import { postColumns, toPost, type PostRow } from '../../server/domains/posts/view.js';
import { postByFriendOrSelfVisibleTo, type PostViewer } from '../../server/domains/posts/visibility.js';

/** The public address every feed bench server answers with (image URLs are built from it), so their pages match byte for byte. */
export const BENCH_PUBLIC_URL = 'http://127.0.0.1:3000';

export type FeedBareMode = 'design' | 'naive';

/** The naive plan: every post by the caller or a friend, newest first, visibility checked (same condition as the design). */
export function naiveFriendsFeedStatement(shape: FriendsFeedShape): SQL {
  const me = sql.placeholder('me');
  const viewer: PostViewer = { id: me, isSiteAdmin: shape.admin };
  return sql`select ${postColumns(viewer)}
    from posts p join users u on u.id = p.author_id
    where p.hidden_at is null ${shape.cursor ? sql`and p.id < ${sql.placeholder('before')}` : sql``}
      and ${postByFriendOrSelfVisibleTo(viewer)}
    order by p.id desc limit ${sql.placeholder('pageSize')}`;
}

export function createFeedBareApp(url: string, mode: FeedBareMode, poolMax = 10) {
  const client = postgres(url, { max: poolMax, onnotice: () => {} });
  const dialect = new PgDialect({ casing: 'snake_case' });
  const build = mode === 'design' ? friendsFeedStatement : naiveFriendsFeedStatement;
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
    const rows = (await client.unsafe(query.sql, params as never[], { prepare: true })) as unknown as PostRow[];
    const items = rows.slice(0, limit).map((row) => toPost(row, { PUBLIC_URL: BENCH_PUBLIC_URL }));
    const last = items[items.length - 1];
    return c.json({ items, nextCursor: rows.length > limit && last ? encodeCursor(last._id) : null });
  });
  return { app, close: () => client.end({ timeout: 5 }) };
}
