// Fixed-window counters in PostgreSQL, so every server process shares them. One atomic
// upsert per check. Keys hold a hash of the address or account, never the value itself.
import { sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import type { Database } from '../../db/client.js';
import { AppError } from '../errors.js';

export interface RateLimitRule {
  /** e.g. 'login:ip' */
  scope: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

export function rateLimitKey(scope: string, value: string): string {
  return `${scope}:${createHash('sha256').update(value).digest('hex').slice(0, 40)}`;
}

export async function hitRateLimit(
  database: Database,
  rule: RateLimitRule,
  value: string,
  now: Date,
): Promise<RateLimitResult> {
  const key = rateLimitKey(rule.scope, value);
  const windowEnd = new Date(now.getTime() + rule.windowSeconds * 1000);
  const [row] = await database.rows<{ count: number; expires_at: string | Date }>(sql`
    insert into rate_limits (key, window_start, expires_at, count)
    values (${key}, ${now.toISOString()}, ${windowEnd.toISOString()}, 1)
    on conflict (key) do update set
      count = case when rate_limits.expires_at <= excluded.window_start then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.expires_at <= excluded.window_start then excluded.window_start else rate_limits.window_start end,
      expires_at = case when rate_limits.expires_at <= excluded.window_start then excluded.expires_at else rate_limits.expires_at end
    returning count, expires_at`);
  const count = Number(row!.count);
  const expiresAt = new Date(row!.expires_at);
  return {
    allowed: count <= rule.limit,
    count,
    retryAfterSeconds: Math.max(1, Math.ceil((expiresAt.getTime() - now.getTime()) / 1000)),
  };
}

/** Counts one hit and throws 429 rate_limited with Retry-After once the limit is passed. */
export async function enforceRateLimit(
  database: Database,
  rule: RateLimitRule,
  value: string,
  now: Date,
): Promise<void> {
  const result = await hitRateLimit(database, rule, value, now);
  if (!result.allowed) {
    throw new AppError('rate_limited', `Too many attempts; try again in ${result.retryAfterSeconds} seconds.`, {
      'Retry-After': String(result.retryAfterSeconds),
    });
  }
}
