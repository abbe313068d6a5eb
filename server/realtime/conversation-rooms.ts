// Which conversation rooms a socket joins when it connects: the ids of the conversations its
// member currently belongs to, read from the messaging tables in one query. Kept behind a
// function so the realtime service does not depend on how messaging stores membership.
import type { Db } from '../../db/client.js';

export type ConversationIdsOf = (db: Db, userId: string) => Promise<string[]>;

let lookup: ConversationIdsOf = async () => [];

/** Installed by the messaging domain's membership query (and by tests). */
export function setConversationLookup(next: ConversationIdsOf): void {
  lookup = next;
}

export function conversationIdsOf(db: Db, userId: string): Promise<string[]> {
  return lookup(db, userId);
}
