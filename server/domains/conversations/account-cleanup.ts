// What a hard account deletion does to messaging, inside the deletion's transaction: the member
// leaves every conversation and every message they sent is deleted (foreign keys would cascade
// both; they are deleted here explicitly so the rule does not hang on a constraint). Their
// one-to-one conversations close like after a leave, and conversations left with nobody in them
// go with their messages.
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { conversationMembers, messages } from '../../../db/schema/index.js';

export async function removeMessagingOfDeletedMember(tx: Tx, userId: string): Promise<void> {
  const memberships = await tx
    .delete(conversationMembers)
    .where(eq(conversationMembers.userId, userId))
    .returning({ conversationId: conversationMembers.conversationId });
  await tx.delete(messages).where(eq(messages.senderId, userId));
  await tx.execute(
    sql`delete from direct_conversations where user_low = ${userId}::uuid or user_high = ${userId}::uuid`,
  );
  if (memberships.length === 0) return;
  await tx.execute(sql`
    delete from conversations c
    where c.id in (${sql.join(
      memberships.map((m) => sql`${m.conversationId}::uuid`),
      sql`, `,
    )})
      and not exists (select 1 from conversation_members cm where cm.conversation_id = c.id)`);
}
