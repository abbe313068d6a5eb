// Which conversation rooms a socket joins when it connects: the conversations its member
// belongs to right now, in one indexed query (conversation_members_user_id_idx).
import { eq, inArray } from 'drizzle-orm';
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

/** The same for many members at once (a resync of every socket of a process), in chunks. */
export async function conversationIdsOfMembers(db: Db, userIds: string[]): Promise<Map<string, string[]>> {
  const byMember = new Map<string, string[]>();
  for (let i = 0; i < userIds.length; i += 1000) {
    const rows = await db
      .select({ userId: conversationMembers.userId, id: conversationMembers.conversationId })
      .from(conversationMembers)
      .where(inArray(conversationMembers.userId, userIds.slice(i, i + 1000)));
    for (const row of rows) byMember.set(row.userId, [...(byMember.get(row.userId) ?? []), row.id]);
  }
  return byMember;
}
