// Anonymous aggregates of the action log. Each member's running totals live in one row
// (action_totals), changed in the same transaction as every entry written or deleted, with
// single-row atomic updates (concurrent writes cannot drift). Aggregates read only rows that
// opted in and have at least one entry, and are shown only over AGGREGATE_MIN_CONTRIBUTORS or
// more members (k-anonymity), decided in SQL: a smaller group yields null, never a number.
//
// Per grove: every grove the member belongs to (any role) counts their totals; computed on each
// read of the grove (uncached), so an opt-out, a leave or a deleted entry shows at once.
// Service-wide: part of GET /api/stats and so of its 5-minute cache.
import { eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { actionTotals } from '../../../db/schema/index.js';
import type { MemberServiceContext, ServiceContext } from '../../service/context.js';
import { AGGREGATE_MIN_CONTRIBUTORS, type ActionTotalsOutput } from './schemas.js';

/** Adds one entry of `minutes` (0 when none) to the member's totals. */
export async function countEntry(tx: DbOrTx, userId: string, minutes: number, now: Date): Promise<void> {
  await tx
    .insert(actionTotals)
    .values({ userId, actions: 1, minutes, updatedAt: now })
    .onConflictDoUpdate({
      target: actionTotals.userId,
      set: {
        actions: sql`${actionTotals.actions} + 1`,
        minutes: sql`${actionTotals.minutes} + excluded.minutes`,
        updatedAt: now,
      },
    });
}

/** Takes a deleted entry of `minutes` back out of the member's totals. */
export async function uncountEntry(tx: DbOrTx, userId: string, minutes: number, now: Date): Promise<void> {
  await tx
    .update(actionTotals)
    .set({
      actions: sql`${actionTotals.actions} - 1`,
      minutes: sql`${actionTotals.minutes} - ${minutes}`,
      updatedAt: now,
    })
    .where(eq(actionTotals.userId, userId));
}

export async function getAggregateOptIn(ctx: MemberServiceContext): Promise<{ optIn: boolean }> {
  const [row] = await ctx.db
    .select({ optIn: actionTotals.aggregateOptIn })
    .from(actionTotals)
    .where(eq(actionTotals.userId, ctx.user.id))
    .limit(1);
  return { optIn: row?.optIn ?? false };
}

/** Idempotent: the answer is the state now in force. */
export async function setAggregateOptIn(
  ctx: MemberServiceContext,
  input: { optIn: boolean },
): Promise<{ optIn: boolean }> {
  const now = ctx.clock.now();
  await ctx.db
    .insert(actionTotals)
    .values({ userId: ctx.user.id, aggregateOptIn: input.optIn, updatedAt: now })
    .onConflictDoUpdate({ target: actionTotals.userId, set: { aggregateOptIn: input.optIn, updatedAt: now } });
  return { optIn: input.optIn };
}

/**
 * `contributors`, `actions`, `minutes` of the contributing rows `from` names (joined as `t`),
 * as JSON text, or null under the threshold. Text, not json: both drivers hand it back alike.
 */
function totalsJson(from: SQL): SQL<string | null> {
  return sql<string | null>`(
    select case when count(*) >= ${AGGREGATE_MIN_CONTRIBUTORS}
      then json_build_object('contributors', count(*), 'actions', sum(t.actions), 'minutes', sum(t.minutes))::text
    end
    ${from}
    and t.aggregate_opt_in and t.actions > 0)`;
}

/** The grove's aggregate, as a column of a query over `groves` (the grove's id column is passed in). */
export function groveActionTotalsColumn(groveId: SQL): SQL<string | null> {
  return totalsJson(
    sql`from grove_members gm join action_totals t on t.user_id = gm.user_id where gm.grove_id = ${groveId}`,
  );
}

/** Turns the column above into the API shape. */
export function toActionTotals(json: string | null): ActionTotalsOutput | null {
  if (json === null) return null;
  const raw = JSON.parse(json) as { contributors: number; actions: number; minutes: number };
  return { contributors: Number(raw.contributors), actions: Number(raw.actions), hours: Number(raw.minutes) / 60 };
}

/** Every opted-in member's totals together (GET /api/stats, cached there). */
export async function serviceActionTotals(ctx: Pick<ServiceContext, 'database'>): Promise<ActionTotalsOutput | null> {
  const [row] = await ctx.database.rows<{ totals: string | null }>(
    sql`select ${totalsJson(sql`from action_totals t where true`)} as totals`,
  );
  return toActionTotals(row?.totals ?? null);
}
