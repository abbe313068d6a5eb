// Blocks and mutes (docs/safety.md). Both are private: nothing here tells the other member, and
// the answers are the same whether or not they blocked or muted the caller. A block also ends a
// friendship and closes a one-to-one conversation (the caller leaves it, exactly as with
// POST /api/conversations/{id}/leave); the reads that honour blocks and mutes live in their own
// domains (server/shared/block-filters.ts gives them the conditions).
import { and, asc, eq, sql } from 'drizzle-orm';
import { directConversations, friendships, memberBlocks, memberMutes, users } from '../../../db/schema/index.js';
import type { DbOrTx } from '../../../db/client.js';
import { AppError } from '../../errors.js';
import { afterCursor, toPage } from '../../lib/pagination.js';
import type { MemberServiceContext } from '../../service/context.js';
import { leaveConversation } from '../conversations/service.js';

interface Entry {
  _id: string;
  user: { _id: string; handle: string };
  createdAt: string;
}

/** The member with that handle, or 404; the caller themself is a 400. */
async function otherMember(ctx: MemberServiceContext, handle: string, verb: string) {
  const [row] = await ctx.db
    .select({ id: users.id, handle: users.handle })
    .from(users)
    .where(eq(users.handle, handle.toLowerCase()));
  if (!row) throw new AppError('not_found', 'No member with that handle.');
  if (row.id === ctx.user.id) throw new AppError('validation_failed', `handle: You cannot ${verb} yourself.`);
  return row;
}

const entry = (user: { id: string; handle: string }, createdAt: Date): Entry => ({
  _id: user.id,
  user: { _id: user.id, handle: user.handle },
  createdAt: createdAt.toISOString(),
});

/** Blocks and mutes are kept alike: one row per (caller, other member), keyed by the other's id. */
const lists = {
  blocks: {
    table: memberBlocks,
    owner: memberBlocks.blockerId,
    other: memberBlocks.blockedId,
    at: memberBlocks.createdAt,
  },
  mutes: { table: memberMutes, owner: memberMutes.muterId, other: memberMutes.mutedId, at: memberMutes.createdAt },
};
type ListKind = keyof typeof lists;

/** When the caller's entry on `otherId` was made (it exists: just inserted or kept). */
async function entrySince(db: DbOrTx, kind: ListKind, me: string, otherId: string): Promise<Date> {
  const list = lists[kind];
  const [row] = await db
    .select({ createdAt: list.at })
    .from(list.table)
    .where(and(eq(list.owner, me), eq(list.other, otherId)));
  return row!.createdAt;
}

/** Idempotent: lifting what is not there is fine. */
async function lift(ctx: MemberServiceContext, kind: ListKind, handle: string, verb: string): Promise<{ ok: true }> {
  const other = await otherMember(ctx, handle, verb);
  const list = lists[kind];
  await ctx.db.delete(list.table).where(and(eq(list.owner, ctx.user.id), eq(list.other, other.id)));
  return { ok: true };
}

/** The caller's entries, by the other member's id (sign-up order). */
async function listOf(ctx: MemberServiceContext, kind: ListKind, input: { cursor?: string; limit: number }) {
  const list = lists[kind];
  const rows = await ctx.db
    .select({ id: users.id, handle: users.handle, createdAt: list.at })
    .from(list.table)
    .innerJoin(users, eq(users.id, list.other))
    .where(and(eq(list.owner, ctx.user.id), afterCursor(list.other, input.cursor)))
    .orderBy(asc(list.other))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (r) => r.id);
  return { items: page.items.map((r) => entry(r, r.createdAt)), nextCursor: page.nextCursor };
}

/** Idempotent: blocking again keeps the first block's time. */
export async function block(ctx: MemberServiceContext, input: { handle: string }): Promise<Entry> {
  const other = await otherMember(ctx, input.handle, 'block');
  const me = ctx.user.id;
  const now = ctx.clock.now();
  const createdAt = await ctx.db.transaction(async (tx) => {
    await tx.insert(memberBlocks).values({ blockerId: me, blockedId: other.id, createdAt: now }).onConflictDoNothing();
    // Both rows of a friendship in one statement: it ends for both at once.
    await tx.delete(friendships).where(
      sql`(${friendships.userId} = ${me} and ${friendships.friendId} = ${other.id})
          or (${friendships.userId} = ${other.id} and ${friendships.friendId} = ${me})`,
    );
    return entrySince(tx, 'blocks', me, other.id);
  });
  // The one-to-one conversation closes: the caller leaves it (its own transaction, its realtime
  // events), which the other member sees exactly as any leave. Groups are untouched.
  const [low, high] = [me, other.id].sort() as [string, string];
  const [direct] = await ctx.db
    .select({ id: directConversations.conversationId })
    .from(directConversations)
    .where(and(eq(directConversations.userLow, low), eq(directConversations.userHigh, high)));
  if (direct) await leaveConversation(ctx, { id: direct.id }).catch(ignoreNotFound);
  return entry(other, createdAt);
}

/** A concurrent leave got there first: the conversation is closed either way. */
function ignoreNotFound(error: unknown) {
  if (!(error instanceof AppError && error.code === 'not_found')) throw error;
}

/** Idempotent: muting again keeps the first mute's time. */
export async function mute(ctx: MemberServiceContext, input: { handle: string }): Promise<Entry> {
  const other = await otherMember(ctx, input.handle, 'mute');
  await ctx.db
    .insert(memberMutes)
    .values({ muterId: ctx.user.id, mutedId: other.id, createdAt: ctx.clock.now() })
    .onConflictDoNothing();
  return entry(other, await entrySince(ctx.db, 'mutes', ctx.user.id, other.id));
}

export const unblock = (ctx: MemberServiceContext, input: { handle: string }) =>
  lift(ctx, 'blocks', input.handle, 'unblock');
export const unmute = (ctx: MemberServiceContext, input: { handle: string }) =>
  lift(ctx, 'mutes', input.handle, 'unmute');
export const listBlocks = (ctx: MemberServiceContext, input: { cursor?: string; limit: number }) =>
  listOf(ctx, 'blocks', input);
export const listMutes = (ctx: MemberServiceContext, input: { cursor?: string; limit: number }) =>
  listOf(ctx, 'mutes', input);
