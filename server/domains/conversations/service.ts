// Conversations: start (one-to-one or group), list, read one, leave, change title or
// disappearing-message lifetime, mark read. Who may be messaged: only the caller's friends and
// members who share a grove with them; anyone else gets the answer a member who does not exist
// gets (404), and so does a member the caller blocked or was blocked by (docs/safety.md).
// Realtime events go out after each commit (publish.ts).
import { and, eq, sql } from 'drizzle-orm';
import { conversationMembers, conversations, directConversations } from '../../../db/schema/index.js';
import type { Tx } from '../../../db/client.js';
import { newId } from '../../../db/ids.js';
import { AppError } from '../../errors.js';
import { conversationRoom, joinRooms, leaveRoom, publish, userRoom } from './publish.js';
import type { ConversationOutput, ReadStateOutput } from './schemas.js';
import { MESSAGE_TTL_SECONDS } from './schemas.js';
import { sealGroupTitle, titleKeyring } from './titles.js';
import { conversationView, listConversationViews, notFound, summaryOf } from './views.js';
import type { MemberServiceContext } from '../../service/context.js';
import { notBlockedEitherWay } from '../../shared/block-filters.js';

/** The members among `ids` the caller may message: friends, or sharing a grove. Decided in SQL. */
async function messageableMembers(ctx: MemberServiceContext, ids: string[]): Promise<string[]> {
  const rows = await ctx.database.rows<{ id: string }>(sql`
    select u.id from users u
    where u.id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})
      and u.id <> ${ctx.user.id}::uuid
      and ${notBlockedEitherWay(sql`${ctx.user.id}::uuid`, sql`u.id`)}
      and (
        exists (select 1 from friendships f where f.user_id = ${ctx.user.id}::uuid and f.friend_id = u.id)
        or exists (
          select 1 from grove_members mine join grove_members theirs on theirs.grove_id = mine.grove_id
          where mine.user_id = ${ctx.user.id}::uuid and theirs.user_id = u.id
        )
      )`);
  return rows.map((r) => r.id);
}

/** Thrown inside the transaction when another request opened the same pair's conversation first. */
class PairTaken extends Error {}

/** `memberIds[0]` is the one who starts it: recorded as a group's creator (who may remove members). */
async function insertConversation(
  ctx: MemberServiceContext,
  tx: Tx,
  kind: 'direct' | 'group',
  title: string | null,
  memberIds: string[],
  now: Date,
): Promise<string> {
  const id = newId();
  const [row] = await tx
    .insert(conversations)
    .values({
      id,
      kind,
      ...sealGroupTitle(titleKeyring(ctx), id, title),
      createdBy: kind === 'group' ? memberIds[0] : null,
      createdAt: now,
    })
    .returning({ id: conversations.id });
  await tx
    .insert(conversationMembers)
    .values(memberIds.map((userId) => ({ conversationId: row!.id, userId, joinedAt: now })));
  return row!.id;
}

async function openDirectConversation(ctx: MemberServiceContext, otherId: string): Promise<string> {
  const [low, high] = [ctx.user.id, otherId].sort() as [string, string];
  const existing = async () => {
    const [row] = await ctx.db
      .select({ id: directConversations.conversationId })
      .from(directConversations)
      .where(and(eq(directConversations.userLow, low), eq(directConversations.userHigh, high)));
    return row?.id;
  };
  const found = await existing();
  if (found) return found;
  try {
    const id = await ctx.db.transaction(async (tx) => {
      const conversationId = await insertConversation(ctx, tx, 'direct', null, [ctx.user.id, otherId], ctx.clock.now());
      // The primary key (low, high) settles a race: the loser's insert waits, then does nothing.
      const claimed = await tx
        .insert(directConversations)
        .values({ userLow: low, userHigh: high, conversationId })
        .onConflictDoNothing()
        .returning({ id: directConversations.conversationId });
      if (claimed.length === 0) throw new PairTaken();
      return conversationId;
    });
    announceCreated(ctx, await conversationView(ctx, ctx.db, ctx.user.id, ctx.clock.now(), id));
    return id;
  } catch (error) {
    if (!(error instanceof PairTaken)) throw error;
    const winner = await existing();
    if (!winner) throw error;
    return winner;
  }
}

function announceCreated(ctx: MemberServiceContext, view: ConversationOutput) {
  const memberIds = view.members.map((m) => m._id);
  joinRooms(ctx, memberIds, view._id);
  for (const id of memberIds) publish(ctx, userRoom(id), 'conversation.created', { conversation: summaryOf(view) });
}

export async function createConversation(
  ctx: MemberServiceContext,
  input: { memberIds: string[]; title?: string },
): Promise<ConversationOutput> {
  const ids = [...new Set(input.memberIds)];
  if (ids.includes(ctx.user.id))
    throw new AppError('validation_failed', 'memberIds: List the other members; you are added yourself.');
  const allowed = await messageableMembers(ctx, ids);
  // Unknown, and known but neither friend nor grove-mate: one answer, so nobody can probe who exists.
  if (allowed.length !== ids.length) throw new AppError('not_found', 'No such member.');
  const now = ctx.clock.now();
  let id: string;
  if (ids.length === 1) id = await openDirectConversation(ctx, ids[0]!);
  else {
    id = await ctx.db.transaction((tx) =>
      insertConversation(ctx, tx, 'group', input.title ?? null, [ctx.user.id, ...ids], now),
    );
    announceCreated(ctx, await conversationView(ctx, ctx.db, ctx.user.id, now, id));
  }
  return conversationView(ctx, ctx.db, ctx.user.id, ctx.clock.now(), id);
}

export function listConversations(ctx: MemberServiceContext, input: { cursor?: string; limit: number }) {
  return listConversationViews(ctx, ctx.user.id, ctx.clock.now(), input);
}

export function getConversation(ctx: MemberServiceContext, input: { id: string }) {
  return conversationView(ctx, ctx.db, ctx.user.id, ctx.clock.now(), input.id);
}

/**
 * Leaves the conversation. A one-to-one conversation closes for good (nobody can write in it; the
 * next start opens a new one); the last member out deletes it with its messages.
 */
export async function leaveConversation(ctx: MemberServiceContext, input: { id: string }): Promise<{ ok: true }> {
  const remaining = await ctx.db.transaction(async (tx) => {
    const left = await tx
      .delete(conversationMembers)
      .where(and(eq(conversationMembers.conversationId, input.id), eq(conversationMembers.userId, ctx.user.id)))
      .returning({ id: conversationMembers.conversationId });
    if (left.length === 0) throw notFound();
    await tx.delete(directConversations).where(eq(directConversations.conversationId, input.id));
    const [count] = await ctx.database.rows<{ n: number }>(
      sql`select count(*)::int as n from conversation_members where conversation_id = ${input.id}::uuid`,
      tx,
    );
    if (Number(count?.n ?? 0) === 0) await tx.delete(conversations).where(eq(conversations.id, input.id));
    return Number(count?.n ?? 0);
  });
  leaveRoom(ctx, ctx.user.id, input.id);
  publish(ctx, userRoom(ctx.user.id), 'conversation.left', { conversationId: input.id });
  if (remaining > 0) await announceChanged(ctx, input.id);
  return { ok: true };
}

/** The conversation as it is now, to its room; seen through any remaining member. */
export async function announceChanged(ctx: MemberServiceContext, conversationId: string) {
  const [anyMember] = await ctx.db
    .select({ userId: conversationMembers.userId })
    .from(conversationMembers)
    .where(eq(conversationMembers.conversationId, conversationId))
    .limit(1);
  if (!anyMember) return;
  const view = await conversationView(ctx, ctx.db, anyMember.userId, ctx.clock.now(), conversationId);
  publish(ctx, conversationRoom(conversationId), 'conversation.changed', { conversation: summaryOf(view) });
}

/**
 * Title (groups) and disappearing-message lifetime; any member may change either (every change
 * is announced to all members). A new lifetime applies to messages sent from now on, and a
 * shorter one also shortens the messages already there: a change can make messages disappear
 * sooner, never keep them longer.
 */
export async function updateConversation(
  ctx: MemberServiceContext,
  input: { id: string; title?: string | null; messageLifetimeSeconds?: number | null },
): Promise<ConversationOutput> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const [conversation] = await tx
      .select({ kind: conversations.kind })
      .from(conversations)
      .innerJoin(conversationMembers, eq(conversationMembers.conversationId, conversations.id))
      .where(and(eq(conversations.id, input.id), eq(conversationMembers.userId, ctx.user.id)))
      .for('update', { of: conversations });
    if (!conversation) throw notFound();
    if (conversation.kind === 'direct' && input.title !== undefined && input.title !== null)
      throw new AppError('validation_failed', 'title: A one-to-one conversation has no title.');
    const changes: Partial<ReturnType<typeof sealGroupTitle>> & { messageLifetimeSeconds?: number | null } = {};
    if (input.title !== undefined) Object.assign(changes, sealGroupTitle(titleKeyring(ctx), input.id, input.title));
    if (input.messageLifetimeSeconds !== undefined) changes.messageLifetimeSeconds = input.messageLifetimeSeconds;
    if (Object.keys(changes).length === 0) return;
    await tx.update(conversations).set(changes).where(eq(conversations.id, input.id));
    const lifetime = input.messageLifetimeSeconds;
    if (lifetime !== undefined && lifetime !== null && lifetime < MESSAGE_TTL_SECONDS) {
      await ctx.database.rows(
        sql`update messages set expires_at = created_at + make_interval(secs => ${lifetime})
            where conversation_id = ${input.id}::uuid and expires_at > created_at + make_interval(secs => ${lifetime})`,
        tx,
      );
      // Already past the new lifetime: gone now rather than at the next sweep.
      await ctx.database.rows(
        sql`delete from messages where conversation_id = ${input.id}::uuid and expires_at <= ${now.toISOString()}::timestamptz`,
        tx,
      );
    }
  });
  const view = await conversationView(ctx, ctx.db, ctx.user.id, now, input.id);
  if (input.title !== undefined || input.messageLifetimeSeconds !== undefined)
    publish(ctx, conversationRoom(input.id), 'conversation.changed', { conversation: summaryOf(view) });
  return view;
}

/**
 * Moves the caller's read marker to `messageId` (or the newest message), never backwards. Read
 * markers are private: only the caller's own devices hear about it.
 */
export async function markRead(
  ctx: MemberServiceContext,
  input: { id: string; messageId?: string },
): Promise<ReadStateOutput> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const target = input.messageId
    ? sql`(select m.id from messages m where m.id = ${input.messageId}::uuid and m.conversation_id = ${input.id}::uuid and m.expires_at > ${at}::timestamptz)`
    : sql`(select m.id from messages m where m.conversation_id = ${input.id}::uuid and m.expires_at > ${at}::timestamptz order by m.id desc limit 1)`;
  // One transaction: a marker aimed at a missing message changes nothing (not even lastReadAt).
  await ctx.db.transaction(async (tx) => {
    const [updated] = await ctx.database.rows<{ found: boolean }>(
      sql`
      with target as (select ${target} as id)
      update conversation_members cm set
        last_read_at = ${at}::timestamptz,
        last_read_message_id = case
          when target.id is null then cm.last_read_message_id
          when cm.last_read_message_id is null or target.id > cm.last_read_message_id then target.id
          else cm.last_read_message_id end
      from target
      where cm.conversation_id = ${input.id}::uuid and cm.user_id = ${ctx.user.id}::uuid
      returning target.id is not null as found`,
      tx,
    );
    if (!updated) throw notFound();
    if (input.messageId && !updated.found) throw new AppError('not_found', 'No such message.');
  });
  const view = await conversationView(ctx, ctx.db, ctx.user.id, now, input.id);
  const state = {
    conversationId: view._id,
    lastReadAt: view.lastReadAt,
    lastReadMessageId: view.lastReadMessageId,
    unreadCount: view.unreadCount,
  };
  publish(ctx, userRoom(ctx.user.id), 'conversation.read', state);
  return state;
}
