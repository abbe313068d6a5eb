// Aggregate counters: never per-member data. Computed at most once per 5 minutes per process.
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../service/context.js';
import type { StatsOutput } from './schemas.js';
import { approvedPlaceCounts } from '../places/service.js';
import { eventCounters } from '../events/stats.js';
import { serviceActionTotals } from '../actions/aggregates.js';

export const STATS_TTL_MS = 5 * 60_000;

export function getStats(ctx: ServiceContext): Promise<StatsOutput> {
  return ctx.cache.get('stats', STATS_TTL_MS, async () => {
    const [members] = await ctx.database.rows<{ n: number | string }>(sql`select count(*)::int as n from users`);
    const approvedPlaces = await approvedPlaceCounts(ctx.db);
    const events = await eventCounters(ctx);
    return {
      members: Number(members!.n),
      places: { approved: approvedPlaces.total, byType: approvedPlaces.byType },
      events,
      actions: await serviceActionTotals(ctx),
      generatedAt: ctx.clock.now().toISOString(),
    };
  });
}
