// Rate-limit counters in PostgreSQL, so every server process shares them. One atomic upsert per
// check. Keys hold an HMAC (RATE_LIMIT_KEY_SECRET) of the address or account, never the value
// itself, and an unsalted hash of a known email cannot be recomputed from a database dump.
//
// Two kinds of counter:
// - fixed window: `limit` hits per window, then 429 until the window ends (per address, and per
//   account *and* address, so an attacker elsewhere cannot lock the owner out);
// - backoff (rule.backoffMaxSeconds set): the per-account ceiling across every address. Past
//   `limit` hits in the window it never locks: it lets one hit through, then refuses for 1 s, then
//   2 s, 4 s… (capped at backoffMaxSeconds) after each further hit it lets through.
import { type SQL, sql } from 'drizzle-orm';
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import path from 'node:path';
import type { Database, DbOrTx } from '../../db/client.js';
import { type PreparedRows, preparedValueRows, sqlToQuery } from '../../db/drizzle-internals.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { Metrics } from '../lib/metrics.js';
import { readOrCreateHexSecret } from '../lib/write-once-file.js';

export interface RateLimitRule {
  /** e.g. 'login:ip', 'login:account-ip' */
  scope: string;
  limit: number;
  windowSeconds: number;
  /** Makes this a backoff counter (never a hard lock past the limit); the longest wait. */
  backoffMaxSeconds?: number;
}

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

type Deps = {
  database: Database;
  config: Pick<Config, 'RATE_LIMIT_KEY_SECRET' | 'DATA_DIR'>;
  /** Refusals are counted by kind (the rule's scope) when metrics are on. */
  metrics?: Metrics;
};

const secrets = new WeakMap<object, Buffer>();

/** Name of the generated secret in DATA_DIR when RATE_LIMIT_KEY_SECRET is unset (not in production). */
export const GENERATED_SECRET_FILE = 'rate-limit-key';

/**
 * RATE_LIMIT_KEY_SECRET, or (development and tests, where config.ts lets it be unset) a secret
 * generated once into DATA_DIR, so restarts and every process sharing DATA_DIR agree.
 */
export function rateLimitSecret(config: Deps['config']): Buffer {
  const known = secrets.get(config);
  if (known) return known;
  let secret: Buffer;
  if (config.RATE_LIMIT_KEY_SECRET) secret = Buffer.from(config.RATE_LIMIT_KEY_SECRET, 'utf8');
  else {
    const file = path.resolve(config.DATA_DIR, GENERATED_SECRET_FILE);
    secret = readOrCreateHexSecret(file);
  }
  secrets.set(config, secret);
  return secret;
}

// The secret as a KeyObject, made once: raw bytes are imported again on every createHmac.
const hmacKeys = new WeakMap<Buffer, KeyObject>();

function keyPart(secret: Buffer, value: string): string {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = createSecretKey(secret);
    hmacKeys.set(secret, key);
  }
  return createHmac('sha256', key).update(value).digest('hex').slice(0, 40);
}

/** `<scope>:<hmac(part 1)>[:<hmac(part 2)>…]`. The first part is the subject (an account or an address). */
export function rateLimitKey(secret: Buffer, scope: string, parts: readonly string[]): string {
  return [scope, ...parts.map((p) => keyPart(secret, p))].join(':');
}

// "expired": the stored window is over, so this hit starts a new one.
const expired = sql`rate_limits.expires_at <= excluded.window_start`;
const blocked = sql`(rate_limits.blocked_until is not null and rate_limits.blocked_until > excluded.window_start)`;
const param = (name: string) => sql.placeholder(name);

/**
 * The counting upsert, with placeholders. On its own (no caller's transaction) it commits
 * asynchronously (`synchronous_commit` off for this statement's transaction): the row lock on a
 * busy counter (one member writing fast, one address) is then held for the statement, not for a
 * WAL flush, so hits on one key no longer queue behind each other's disk flushes (bench/README.md,
 * "The send path"). The counter stays consistent and replicated; a database crash can forget at
 * most the last fraction of a second of hits, never the writes they guard (those commit durably).
 */
function counterStatement(backoff: boolean, ownTransaction: boolean) {
  const values = sql`${param('key')}::text, ${param('at')}::timestamptz, ${param('windowEnd')}::timestamptz, 1`;
  // A qual, so the planner evaluates it (an unused output column it may drop).
  const asynchronous = ownTransaction ? sql` where set_config('synchronous_commit', 'off', true) = 'off'` : sql``;
  const source = sql`select ${values}${backoff ? sql`, null::timestamptz, false` : sql``}${asynchronous}`;
  const limit = sql`${param('limit')}::int`;
  return backoff
    ? sql`
    insert into rate_limits (key, window_start, expires_at, count, blocked_until, refused)
    select key, window_start, expires_at, count, blocked_until, refused
    from (${source}) as hit (key, window_start, expires_at, count, blocked_until, refused)
    on conflict (key) do update set
      count = case when ${expired} then 1 when ${blocked} then rate_limits.count else rate_limits.count + 1 end,
      window_start = case when ${expired} then excluded.window_start else rate_limits.window_start end,
      expires_at = case when ${expired} then excluded.expires_at else rate_limits.expires_at end,
      refused = case when ${expired} then false else ${blocked} end,
      blocked_until = case
        when ${expired} then null
        when ${blocked} then rate_limits.blocked_until
        when rate_limits.count + 1 > ${limit} then excluded.window_start
          + least(${param('backoff')}::int, power(2, least(rate_limits.count - ${limit}, 30))::int) * interval '1 second'
        else null end
    returning count, expires_at, blocked_until, refused`
    : fixedWindowUpsert(source);
}

/**
 * The fixed-window counting upsert over `source`, a select of (key, window_start, expires_at,
 * count = 1) rows: no row, no hit. Also the write-limit half of the member session check
 * (server/auth/session-write-limit.ts). Returns count, expires_at, blocked_until, refused.
 */
export function fixedWindowUpsert(source: SQL): SQL {
  return sql`
    insert into rate_limits (key, window_start, expires_at, count)
    select key, window_start, expires_at, count
    from (${source}) as hit (key, window_start, expires_at, count)
    on conflict (key) do update set
      count = case when ${expired} then 1 else rate_limits.count + 1 end,
      window_start = case when ${expired} then excluded.window_start else rate_limits.window_start end,
      expires_at = case when ${expired} then excluded.expires_at else rate_limits.expires_at end
    returning count, expires_at, blocked_until, refused`;
}

/** A fixed-window hit's answer from the upsert's (count, expires_at) and the rule. */
export function fixedWindowResult(
  deps: Pick<Deps, 'metrics'>,
  rule: RateLimitRule,
  rawCount: unknown,
  expiresAt: string | Date,
  now: Date,
): RateLimitResult {
  const count = Number(rawCount);
  const allowed = count <= rule.limit;
  if (!allowed) deps.metrics?.rateLimitRefused(rule.scope);
  const retryAfterSeconds = Math.max(1, Math.ceil((new Date(expiresAt).getTime() - now.getTime()) / 1000));
  return { allowed, count, retryAfterSeconds };
}

type CounterStatement = PreparedRows<unknown[]>;
const preparedByDb = new WeakMap<DbOrTx, Map<string, CounterStatement>>();

/**
 * Built once per database handle and shape and run as a named prepared statement: every write
 * route runs it, and PostgreSQL then parses it once per connection.
 */
function counter(db: DbOrTx, backoff: boolean, ownTransaction: boolean): CounterStatement {
  let cache = preparedByDb.get(db);
  if (!cache) {
    cache = new Map();
    preparedByDb.set(db, cache);
  }
  const name = `rate_limit_hit_${backoff ? 'backoff' : 'window'}${ownTransaction ? '_async' : ''}`;
  let statement = cache.get(name);
  if (!statement) {
    statement = preparedValueRows(db, sqlToQuery(counterStatement(backoff, ownTransaction)), name);
    cache.set(name, statement);
  }
  return statement;
}

export async function hitRateLimit(
  deps: Deps,
  rule: RateLimitRule,
  parts: readonly string[],
  now: Date,
  executor?: DbOrTx,
): Promise<RateLimitResult> {
  const backoff = rule.backoffMaxSeconds;
  // Inside a caller's transaction the commit is theirs, and stays durable.
  const statement = counter(executor ?? deps.database.db, backoff !== undefined, executor === undefined);
  const rows = (await statement.execute({
    key: rateLimitKey(rateLimitSecret(deps.config), rule.scope, parts),
    at: now.toISOString(),
    windowEnd: new Date(now.getTime() + rule.windowSeconds * 1000).toISOString(),
    limit: rule.limit,
    backoff: backoff ?? 0,
  })) as unknown as [number, string | Date, string | Date | null, boolean][];
  const [rawCount, expiresAt, blockedUntil, refused] = rows[0]!;
  const count = Number(rawCount);
  const secondsUntil = (when: string | Date) =>
    Math.max(1, Math.ceil((new Date(when).getTime() - now.getTime()) / 1000));
  if (backoff !== undefined) {
    const allowed = !refused;
    if (!allowed) deps.metrics?.rateLimitRefused(rule.scope);
    return {
      allowed,
      count,
      retryAfterSeconds: blockedUntil ? secondsUntil(blockedUntil) : 0,
    };
  }
  return fixedWindowResult(deps, rule, rawCount, expiresAt, now);
}

/**
 * Seconds until `parts` may try again under the fixed-window `rule`, without counting a hit: 0
 * while fewer than `limit` hits are in the window (more: a refusal, counted in the metrics). For limits that count only failures (a
 * failed socket handshake), checked before the attempt and hit after it fails.
 */
export async function rateLimitWait(
  deps: Deps,
  rule: RateLimitRule,
  parts: readonly string[],
  now: Date,
): Promise<number> {
  const key = rateLimitKey(rateLimitSecret(deps.config), rule.scope, parts);
  const [row] = await deps.database.rows<{ count: number; expires_at: string | Date }>(
    sql`select count, expires_at from rate_limits where key = ${key} and expires_at > ${now.toISOString()}`,
  );
  if (!row || Number(row.count) < rule.limit) return 0;
  deps.metrics?.rateLimitRefused(rule.scope);
  return Math.max(1, Math.ceil((new Date(row.expires_at).getTime() - now.getTime()) / 1000));
}

export function rateLimitedError(retryAfterSeconds: number): AppError {
  return new AppError('rate_limited', `Too many attempts; try again in ${retryAfterSeconds} seconds.`, {
    'Retry-After': String(retryAfterSeconds),
  });
}

/** Counts one hit and throws 429 rate_limited with Retry-After once the limit is passed. */
export async function enforceRateLimit(
  deps: Deps,
  rule: RateLimitRule,
  parts: readonly string[],
  now: Date,
): Promise<void> {
  const result = await hitRateLimit(deps, rule, parts, now);
  if (!result.allowed) throw rateLimitedError(result.retryAfterSeconds);
}

/**
 * Deletes every counter whose subject is one of `subjects` (an account's email, its id), with or
 * without an address part: called when the account is deleted, so nothing keyed by it outlives it.
 */
export async function deleteRateLimitsOf(deps: Deps, executor: DbOrTx, subjects: readonly string[]): Promise<void> {
  const secret = rateLimitSecret(deps.config);
  for (const subject of subjects) {
    const part = keyPart(secret, subject);
    // Subjects sit right after the scope, which may itself contain ':'; match the part as a segment.
    await deps.database.rows(
      sql`delete from rate_limits where key like ${`%:${part}`} or key like ${`%:${part}:%`}`,
      executor,
    );
  }
}
