// Taking a member out of conversations: a group's creator or an organizer removing someone
// (DELETE /api/conversations/{id}/members/{userId}), and what a grove ban or removal cuts.
//
// The rule of a grove exit (docs/messaging.md, "Removing a member"; docs/security.md): a member banned or removed from grove G leaves
// every conversation, one-to-one or group, in which another member still in G is neither their
// friend nor in any other grove with them; a one-to-one conversation closes as after a leave.
// Conversations record no grove they grew from, so the rule reads only who is in them now: the
// people who knew the member only through G are not left in a room with them. Everyone else's
// conversations with them (friends, other groves) stay.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { AppError } from '../../errors.js';
import { leaveRoom, publish, userRoom } from './publish.js';
import { announceChanged } from './service.js';
import { notFound } from './views.js';
import type { MemberServiceContext } from '../../service/context.js';

/** After the change committed: the removed member's devices drop it, the rest see who is left. */
async function announceRemoval(ctx: MemberServiceContext, userId: string, conversationIds: string[]) {
  for (const conversationId of conversationIds) {
    leaveRoom(ctx, userId, conversationId);
    publish(ctx, userRoom(userId), 'conversation.left', { conversationId });
    await announceChanged(ctx, conversationId);
  }
}

/**
 * Inside the grove exit's transaction, after the grove membership is gone: takes `userId` out of
 * the conversations the rule names and closes those one-to-one. Returns their ids, for
 * `announceGroveExit` once the transaction has committed.
 */
export async function cutConversationsAfterGroveExit(
  ctx: MemberServiceContext,
  tx: Tx,
  groveId: string,
  userId: string,
): Promise<string[]> {
  const rows = await ctx.database.rows<{ id: string }>(
    sql`
    with cut as (
      select cm.conversation_id as id from conversation_members cm
      where cm.user_id = ${userId}::uuid
        and exists (
          select 1 from conversation_members other
          join grove_members still on still.user_id = other.user_id and still.grove_id = ${groveId}::uuid
          where other.conversation_id = cm.conversation_id and other.user_id <> ${userId}::uuid
            and not exists (
              select 1 from friendships f where f.user_id = ${userId}::uuid and f.friend_id = other.user_id)
            and not exists (
              select 1 from grove_members mine join grove_members theirs on theirs.grove_id = mine.grove_id
              where mine.user_id = ${userId}::uuid and theirs.user_id = other.user_id)
        )
    ),
    closed as (
      delete from direct_conversations d using cut where d.conversation_id = cut.id returning d.conversation_id
    )
    delete from conversation_members cm using cut
    where cm.conversation_id = cut.id and cm.user_id = ${userId}::uuid
    returning cm.conversation_id as id`,
    tx,
  );
  return rows.map((r) => r.id);
}

export function announceGroveExit(ctx: MemberServiceContext, userId: string, conversationIds: string[]) {
  return announceRemoval(ctx, userId, conversationIds);
}

/**
 * Who may remove a member from a group: its creator, or a member of the group who organizes a
 * grove the removed member is in or was banned from (the grove the group most likely grew from;
 * conversations do not record one). Anyone may remove only themselves by leaving.
 */
export async function removeConversationMember(
  ctx: MemberServiceContext,
  input: { id: string; userId: string },
): Promise<{ ok: true }> {
  const callerId = ctx.user.id;
  await ctx.db.transaction(async (tx) => {
    const [found] = await ctx.database.rows<{
      kind: 'direct' | 'group';
      target_is_member: boolean;
      may_remove: boolean;
    }>(
      sql`
      select c.kind,
        exists (select 1 from conversation_members t
                where t.conversation_id = c.id and t.user_id = ${input.userId}::uuid) as target_is_member,
        (c.created_by = ${callerId}::uuid or exists (
          select 1 from grove_members mine
          where mine.user_id = ${callerId}::uuid and mine.role = 'organizer'
            and (exists (select 1 from grove_members theirs
                         where theirs.grove_id = mine.grove_id and theirs.user_id = ${input.userId}::uuid)
                 or exists (select 1 from grove_bans b
                            where b.grove_id = mine.grove_id and b.user_id = ${input.userId}::uuid))
        )) as may_remove
      from conversations c
      join conversation_members me on me.conversation_id = c.id and me.user_id = ${callerId}::uuid
      where c.id = ${input.id}::uuid
      for update of c`,
      tx,
    );
    if (!found) throw notFound();
    if (!found.target_is_member) throw new AppError('not_found', 'No such member in this conversation.');
    if (input.userId === callerId)
      throw new AppError('conflict', 'To take yourself out, leave the conversation (DELETE …/leave).');
    if (found.kind === 'direct')
      throw new AppError('conflict', 'A one-to-one conversation has no members to remove; leave it instead.');
    if (!found.may_remove)
      throw new AppError(
        'forbidden',
        "Only the group's creator, or an organizer of a grove the member is in, can remove members.",
      );
    await ctx.database.rows(
      sql`delete from conversation_members
          where conversation_id = ${input.id}::uuid and user_id = ${input.userId}::uuid`,
      tx,
    );
  });
  await announceRemoval(ctx, input.userId, [input.id]);
  return { ok: true };
}
