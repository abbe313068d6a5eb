// The session check and the per-member write limit of a member write route in one round trip
// (bench/README.md, "The send path"). A write route used to look the session up, then count the
// hit on `write:<scope>:<hmac(user id)>`: two round trips. One statement now does both: it reads
// the session (the same rules as validateSessionToken: token hash, not expired, user present)
// and, in a data-modifying CTE, counts the hit only when that session is valid (the same
// fixed-window upsert as hitRateLimit, committed asynchronously the same way: the statement is
// its own transaction, and a read loses nothing by an asynchronous commit).
//
// The counter's key holds an HMAC of the user id, made in Node (the secret never goes to the
// database), so the statement needs the user id before it runs. A token's session belongs to one
// user for its whole life, so the user id is remembered per token hash (bounded, per database
// handle). That remembers no session: the statement checks the session on every request, a
// revoked or expired one is refused by the very next request, and a remembered user id that
// does not match the session counts no hit. A token not seen yet by this process takes the two
// round trips of before, once.
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { type PreparedRows, preparedValueRows, sqlToQuery } from '../../db/drizzle-internals.js';
import { sessions, users } from '../../db/schema/index.js';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Config } from '../config.js';
import type { Metrics } from '../lib/metrics.js';
import {
  fixedWindowResult,
  fixedWindowUpsert,
  hitRateLimit,
  type RateLimitResult,
  type RateLimitRule,
  rateLimitKey,
  rateLimitSecret,
} from './rate-limit.js';
import { type AuthenticatedSession, validateSessionToken } from './sessions.js';
import { hashSecretToken, looksLikeSecretToken } from './tokens.js';

type Deps = {
  database: Database;
  config: Pick<Config, 'RATE_LIMIT_KEY_SECRET' | 'DATA_DIR'>;
  metrics?: Metrics;
};

export interface SessionWithHit {
  /** The session, or null (unknown, expired or malformed token): then no hit was counted. */
  auth: AuthenticatedSession | null;
  /** The write-limit hit, counted only for a valid session. */
  hit: RateLimitResult | null;
}

type Columns = [string, PgColumn][];
const sessionColumns: Columns = Object.entries(getTableColumns(sessions));
const userColumns: Columns = Object.entries(getTableColumns(users));

const param = (name: string) => sql.placeholder(name);

function selectList(columns: Columns): SQL {
  return sql.join(
    columns.map(([, column]) => sql`${column}`),
    sql`, `,
  );
}

function statementText(): SQL {
  const valid = sql`${sessions.tokenHash} = ${param('tokenHash')} and ${sessions.expiresAt} > ${param('now')}::timestamptz`;
  // A qual, so the planner evaluates it (see rate-limit.ts counterStatement); no row, no hit.
  const source = sql`select ${param('key')}::text, ${param('now')}::timestamptz, ${param('windowEnd')}::timestamptz, 1
    from ${sessions} inner join ${users} on ${users.id} = ${sessions.userId}
    where ${valid} and ${sessions.userId} = ${param('userId')}::uuid
      and set_config('synchronous_commit', 'off', true) = 'off'`;
  return sql`with hit as (${fixedWindowUpsert(source)})
    select ${selectList(sessionColumns)}, ${selectList(userColumns)}, hit.count, hit.expires_at
    from ${sessions} inner join ${users} on ${users.id} = ${sessions.userId} left join hit on true
    where ${valid}
    limit 1`;
}

const prepared = new WeakMap<DbOrTx, PreparedRows<unknown[]>>();
/** Token hash → user id, per database handle. Cleared when full (a miss costs one extra round trip). */
const userOfToken = new WeakMap<DbOrTx, Map<string, string>>();
const REMEMBERED_TOKENS = 10_000;

function mapColumns(columns: Columns, row: unknown[], offset: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) {
    const [key, column] = columns[i]!;
    const value = row[offset + i];
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out;
}

/**
 * Validates `token` and, when its session is valid, counts one hit of `rule` (a fixed-window
 * rule) on the member's counter `<rule.scope>:<hmac(user id)>`: one round trip when this
 * process has seen the token before, two otherwise.
 */
export async function validateSessionAndHit(
  deps: Deps,
  token: string,
  rule: RateLimitRule,
  now: Date,
): Promise<SessionWithHit> {
  if (!looksLikeSecretToken(token)) return { auth: null, hit: null };
  const db = deps.database.db;
  const tokenHash = hashSecretToken(token);
  let known = userOfToken.get(db);
  if (!known) {
    known = new Map();
    userOfToken.set(db, known);
  }
  const remembered = Buffer.from(tokenHash).toString('base64');
  const userId = known.get(remembered);
  if (userId !== undefined) {
    let statement = prepared.get(db);
    if (!statement) {
      statement = preparedValueRows(db, sqlToQuery(statementText()), 'sessions_validate_token_write_hit');
      prepared.set(db, statement);
    }
    const [row] = await statement.execute({
      tokenHash,
      now: now.toISOString(),
      userId,
      key: rateLimitKey(rateLimitSecret(deps.config), rule.scope, [userId]),
      windowEnd: new Date(now.getTime() + rule.windowSeconds * 1000).toISOString(),
    });
    if (!row) {
      // The session is gone (signed out, revoked, expired): its token will not be seen again.
      known.delete(remembered);
      return { auth: null, hit: null };
    }
    const auth = {
      session: mapColumns(sessionColumns, row, 0),
      user: mapColumns(userColumns, row, sessionColumns.length),
    } as unknown as AuthenticatedSession;
    const count = row[sessionColumns.length + userColumns.length];
    const expiresAt = row[sessionColumns.length + userColumns.length + 1] as string | Date | null;
    // A session of another user than remembered (cannot happen: a token hash names one session).
    if (count === null || count === undefined || expiresAt === null) {
      known.delete(remembered);
      return { auth, hit: await hitRateLimit(deps, rule, [auth.user.id], now) };
    }
    return { auth, hit: fixedWindowResult(deps, rule, count, expiresAt, now) };
  }
  const auth = await validateSessionToken(db, token, now);
  if (!auth) return { auth: null, hit: null };
  if (known.size >= REMEMBERED_TOKENS) known.clear();
  known.set(remembered, auth.user.id);
  return { auth, hit: await hitRateLimit(deps, rule, [auth.user.id], now) };
}
