// Aggregate counters for GET /api/stats (cached there for 5 minutes). Counts only: never
// per-member data, and only public events, so the counter reveals nothing hidden.
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../service/context.js';

export async function eventCounters(
  ctx: ServiceContext,
): Promise<{ upcomingPublic: number; groves: number; organizations: number }> {
  const [row] = await ctx.database.rows<{ upcoming: number; groves: number; organizations: number }>(sql`
    select (select count(*)::int from events where visibility = 'public' and status = 'scheduled' and ends_at >= ${ctx.clock.now().toISOString()}::timestamptz) as upcoming,
           (select count(*)::int from groves) as groves,
           (select count(*)::int from organizations) as organizations`);
  return {
    upcomingPublic: Number(row!.upcoming),
    groves: Number(row!.groves),
    organizations: Number(row!.organizations),
  };
}
