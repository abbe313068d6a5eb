// Blocks and mutes (docs/safety.md). Both are private: nothing here tells the other member, and
// the answers are the same whether or not they blocked or muted the caller. A block also ends a
// friendship and closes a one-to-one conversation (the caller leaves it, exactly as with
// POST /api/conversations/{id}/leave); the reads that honour blocks and mutes live in their own
// domains (server/shared/block-filters.ts gives them the conditions).
import { and, asc, eq, sql } from 'drizzle-orm';
import { directConversations, friendships, memberBlocks, memberMutes, users } from '../../../db/schema/index.js';
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
    const [row] = await tx
      .select({ createdAt: memberBlocks.createdAt })
      .from(memberBlocks)
      .where(and(eq(memberBlocks.blockerId, me), eq(memberBlocks.blockedId, other.id)));
    return row!.createdAt;
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

/** Idempotent: lifting a block that is not there is fine. */
export async function unblock(ctx: MemberServiceContext, input: { handle: string }): Promise<{ ok: true }> {
  const other = await otherMember(ctx, input.handle, 'unblock');
  await ctx.db
    .delete(memberBlocks)
    .where(and(eq(memberBlocks.blockerId, ctx.user.id), eq(memberBlocks.blockedId, other.id)));
  return { ok: true };
}

export async function listBlocks(ctx: MemberServiceContext, input: { cursor?: string; limit: number }) {
  const rows = await ctx.db
    .select({ id: users.id, handle: users.handle, createdAt: memberBlocks.createdAt })
    .from(memberBlocks)
    .innerJoin(users, eq(users.id, memberBlocks.blockedId))
    .where(and(eq(memberBlocks.blockerId, ctx.user.id), afterCursor(memberBlocks.blockedId, input.cursor)))
    .orderBy(asc(memberBlocks.blockedId))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (r) => r.id);
  return { items: page.items.map((r) => entry(r, r.createdAt)), nextCursor: page.nextCursor };
}

/** Idempotent: muting again keeps the first mute's time. */
export async function mute(ctx: MemberServiceContext, input: { handle: string }): Promise<Entry> {
  const other = await otherMember(ctx, input.handle, 'mute');
  await ctx.db
    .insert(memberMutes)
    .values({ muterId: ctx.user.id, mutedId: other.id, createdAt: ctx.clock.now() })
    .onConflictDoNothing();
  const [row] = await ctx.db
    .select({ createdAt: memberMutes.createdAt })
    .from(memberMutes)
    .where(and(eq(memberMutes.muterId, ctx.user.id), eq(memberMutes.mutedId, other.id)));
  return entry(other, row!.createdAt);
}

export async function unmute(ctx: MemberServiceContext, input: { handle: string }): Promise<{ ok: true }> {
  const other = await otherMember(ctx, input.handle, 'unmute');
  await ctx.db.delete(memberMutes).where(and(eq(memberMutes.muterId, ctx.user.id), eq(memberMutes.mutedId, other.id)));
  return { ok: true };
}

export async function listMutes(ctx: MemberServiceContext, input: { cursor?: string; limit: number }) {
  const rows = await ctx.db
    .select({ id: users.id, handle: users.handle, createdAt: memberMutes.createdAt })
    .from(memberMutes)
    .innerJoin(users, eq(users.id, memberMutes.mutedId))
    .where(and(eq(memberMutes.muterId, ctx.user.id), afterCursor(memberMutes.mutedId, input.cursor)))
    .orderBy(asc(memberMutes.mutedId))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (r) => r.id);
  return { items: page.items.map((r) => entry(r, r.createdAt)), nextCursor: page.nextCursor };
}
