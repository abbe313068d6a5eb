// Groves: public views (counts, never member lists), join/leave, and the admin setup verbs.
import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import { groveJoinRequests, groveMembers, groves, type Grove, type GroveRole } from '../../../db/schema/index.js';
import type { GroveJoinPolicy } from '../../../db/schema/groves.js';
import type { DbOrTx } from '../../../db/client.js';
import { AppError, isUniqueViolation } from '../../errors.js';
import { afterCursor, toPage } from '../../lib/pagination.js';
import type { Caller, MemberServiceContext, ServiceContext } from '../../service/context.js';
import { userIdByHandle } from '../../shared/members.js';
import { insertWithSlug } from '../../shared/slug.js';
import { groveActionTotalsColumn, toActionTotals } from '../actions/aggregates.js';
import { updateGroveRow } from './host-end.js';
import type { GroveOutput } from './schemas.js';

const memberCount = sql<number>`(select count(*)::int from grove_members gm where gm.grove_id = ${groves.id})`;
const organizerCount = sql<number>`(select count(*)::int from grove_members gm where gm.grove_id = ${groves.id} and gm.role = 'organizer')`;

function groveColumns(viewer: string | null) {
  return {
    grove: groves,
    memberCount,
    organizerCount,
    myRole: viewer
      ? sql<GroveRole | null>`(select gm.role from grove_members gm where gm.grove_id = ${groves.id} and gm.user_id = ${viewer})`
      : sql<GroveRole | null>`null::text`,
    myJoinRequestPending: viewer
      ? // Spelled out: drizzle renders a lone ${groves.id} as "id", which jr.id would capture here.
        sql<boolean>`exists (select 1 from grove_join_requests jr where jr.grove_id = groves.id and jr.user_id = ${viewer})`
      : sql<boolean>`false`,
    actionTotals: groveActionTotalsColumn(sql.raw('groves.id')),
  };
}

function toGrove(row: {
  grove: Grove;
  memberCount: number;
  organizerCount: number;
  myRole: GroveRole | null;
  myJoinRequestPending: boolean;
  actionTotals: string | null;
}): GroveOutput {
  const g = row.grove;
  const hasBox = g.regionWest !== null && g.regionSouth !== null && g.regionEast !== null && g.regionNorth !== null;
  return {
    _id: g.id,
    slug: g.slug,
    name: g.name,
    description: g.description,
    region: {
      name: g.regionName,
      bbox: hasBox ? [g.regionWest!, g.regionSouth!, g.regionEast!, g.regionNorth!] : null,
    },
    memberCount: Number(row.memberCount),
    organizerCount: Number(row.organizerCount),
    // Members who opted in, summed in SQL; null under the k-anonymity threshold.
    actionTotals: toActionTotals(row.actionTotals),
    myRole: row.myRole ?? null,
    joinPolicy: g.joinPolicy,
    myJoinRequestPending: Boolean(row.myJoinRequestPending),
    createdAt: g.createdAt.toISOString(),
  };
}

/** `viewer`: the caller's id (null: anonymous), for the caller's own membership in the answer. */
export async function groveBy(
  ctx: ServiceContext,
  viewer: string | null,
  where: ReturnType<typeof eq>,
): Promise<GroveOutput> {
  const [row] = await ctx.db.select(groveColumns(viewer)).from(groves).where(where).limit(1);
  if (!row) throw new AppError('not_found', 'No such grove.');
  return toGrove(row);
}

export async function listGroves(
  ctx: ServiceContext,
  caller: Caller,
  input: { q?: string; cursor?: string; limit: number },
) {
  const viewer = caller?.user.id ?? null;
  const after = afterCursor(groves.id, input.cursor);
  const pattern = input.q === undefined ? undefined : `%${input.q.replace(/[\\%_]/g, '\\$&')}%`;
  const rows = await ctx.db
    .select(groveColumns(viewer))
    .from(groves)
    .where(and(after, pattern ? or(ilike(groves.name, pattern), ilike(groves.regionName, pattern)) : undefined))
    .orderBy(asc(groves.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (r) => r.grove.id);
  return { items: page.items.map(toGrove), nextCursor: page.nextCursor };
}

export function getGrove(ctx: ServiceContext, caller: Caller, input: { slug: string }) {
  return groveBy(ctx, caller?.user.id ?? null, eq(groves.slug, input.slug.toLowerCase()));
}

export async function assertGroveExists(db: DbOrTx, id: string) {
  const [row] = await db.select({ id: groves.id }).from(groves).where(eq(groves.id, id)).limit(1);
  if (!row) throw new AppError('not_found', 'No such grove.');
}

/**
 * Idempotent: leaving when not a member is fine. An organizer who leaves stops organizing; a
 * pending join request is withdrawn.
 */
export async function leaveGrove(ctx: MemberServiceContext, input: { id: string }): Promise<{ ok: true }> {
  await assertGroveExists(ctx.db, input.id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(groveMembers).where(and(eq(groveMembers.groveId, input.id), eq(groveMembers.userId, ctx.user.id)));
    await tx
      .delete(groveJoinRequests)
      .where(and(eq(groveJoinRequests.groveId, input.id), eq(groveJoinRequests.userId, ctx.user.id)));
  });
  return { ok: true };
}

// ---- admin setup -------------------------------------------------------------------------

type RegionInput = { name: string; bbox?: [number, number, number, number] | null };

function regionColumns(region: RegionInput) {
  const [west, south, east, north] = region.bbox ?? [null, null, null, null];
  return { regionName: region.name, regionWest: west, regionSouth: south, regionEast: east, regionNorth: north };
}

export async function createGrove(
  ctx: MemberServiceContext,
  input: { slug?: string; name: string; description: string; region: RegionInput; joinPolicy: GroveJoinPolicy },
) {
  // Each try in its own savepoint: under an Idempotency-Key ctx.db is the key's transaction,
  // which a lost slug would otherwise abort (server/shared/slug.ts).
  const row = await insertWithSlug({ clientSlug: input.slug, text: input.name, hideable: false }, (slug) =>
    ctx.db.transaction(async (savepoint) => {
      const [inserted] = await savepoint
        .insert(groves)
        .values({
          slug,
          name: input.name,
          description: input.description,
          joinPolicy: input.joinPolicy,
          ...regionColumns(input.region),
          createdAt: ctx.clock.now(),
        })
        .returning({ id: groves.id });
      return inserted!;
    }),
  );
  return groveBy(ctx, ctx.user.id, eq(groves.id, row.id));
}

export async function updateGrove(
  ctx: MemberServiceContext,
  input: {
    id: string;
    slug?: string;
    name?: string;
    description?: string;
    region?: RegionInput;
    joinPolicy?: GroveJoinPolicy;
  },
) {
  const { id, region, ...rest } = input;
  const changes = { ...rest, ...(region ? regionColumns(region) : {}) };
  try {
    const found = Object.keys(changes).length
      ? await updateGroveRow(ctx, id, changes)
      : (await ctx.db.select({ id: groves.id }).from(groves).where(eq(groves.id, id))).length > 0;
    if (!found) throw new AppError('not_found', 'No such grove.');
  } catch (error) {
    if (isUniqueViolation(error, 'slug')) throw new AppError('conflict', 'That slug is taken.');
    throw error;
  }
  return groveBy(ctx, ctx.user.id, eq(groves.id, id));
}

/** Makes the member an organizer (joining them if needed). Idempotent. */
export async function appointOrganizer(
  ctx: ServiceContext,
  input: { id: string; handle: string },
): Promise<{ ok: true }> {
  await assertGroveExists(ctx.db, input.id);
  const userId = await userIdByHandle(ctx.db, input.handle);
  await ctx.db
    .insert(groveMembers)
    .values({ groveId: input.id, userId, role: 'organizer', joinedAt: ctx.clock.now() })
    .onConflictDoUpdate({ target: [groveMembers.groveId, groveMembers.userId], set: { role: 'organizer' } });
  return { ok: true };
}

/** Back to plain member (the membership stays). Idempotent. */
export async function removeOrganizer(
  ctx: ServiceContext,
  input: { id: string; handle: string },
): Promise<{ ok: true }> {
  await assertGroveExists(ctx.db, input.id);
  const userId = await userIdByHandle(ctx.db, input.handle);
  await ctx.db
    .update(groveMembers)
    .set({ role: 'member' })
    .where(and(eq(groveMembers.groveId, input.id), eq(groveMembers.userId, userId)));
  return { ok: true };
}
