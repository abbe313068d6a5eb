// Which conversation rooms a socket joins when it connects: the conversations its member
// belongs to right now, in one indexed query (conversation_members_user_id_idx).
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { conversationMembers } from '../../db/schema/index.js';

export async function conversationIdsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: conversationMembers.conversationId })
    .from(conversationMembers)
    .where(eq(conversationMembers.userId, userId))
    .orderBy(conversationMembers.conversationId);
  return rows.map((row) => row.id);
}
