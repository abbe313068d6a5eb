// Aggregate counters: never per-member data. Computed at most once per 5 minutes per process.
import { sql } from 'drizzle-orm';
import type { Context } from '../../trpc/context.js';
import type { StatsOutput } from './schemas.js';

export const STATS_TTL_MS = 5 * 60_000;

export function getStats(ctx: Context): Promise<StatsOutput> {
  return ctx.cache.get('stats', STATS_TTL_MS, async () => {
    const [members] = await ctx.database.rows<{ n: number | string }>(sql`select count(*)::int as n from users`);
    return { members: Number(members!.n), generatedAt: ctx.clock.now().toISOString() };
  });
}
