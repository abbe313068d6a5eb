// The data export's sections that open sealed text: the member's conversations (their own
// messages decrypted, everyone else's as a placeholder) and their companion chats. A text no
// configured key opens is exported as null and logged with ids only, never failing the export.
import { and, asc, eq, sql } from 'drizzle-orm';
import { companionConversations, companionMessages } from '../../../db/schema/index.js';
import { MessageDecryptError, openMessage } from '../../crypto/message-cipher.js';
import { openCompanionMessage, openCompanionSources, openCompanionTitle } from '../companion/sealing.js';
import type { ExportReader } from './reader.js';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** A sealed text that no configured key opens is exported as null, logged with ids only. */
function readable<T>(reader: ExportReader, what: Record<string, string>, open: () => T): T | null {
  try {
    return open();
  } catch (error) {
    if (!(error instanceof MessageDecryptError)) throw error;
    reader.log.error({ err: error, ...what }, 'data export: a sealed text does not decrypt; exported as null');
    return null;
  }
}

interface MessageRow {
  id: string;
  conversation_id: string;
  kind: string;
  sender_id: string;
  key_id: string;
  nonce: Uint8Array;
  ciphertext: Uint8Array;
  created_at: string | Date;
}

/** The text every other member's message is replaced by (docs/data-export.md). */
export const OTHER_MEMBER_PLACEHOLDER = 'message from another member';

/**
 * Their conversations: their own messages decrypted; every other member's message only as a
 * placeholder with its time (never its text, its sender or its ciphertext); no member handles
 * and no group titles (a title may be another member's words). Expired messages are gone.
 */
export async function messagesSection(r: ExportReader) {
  const rows = await r.database.rows<MessageRow>(
    sql`select m.id, m.conversation_id, c.kind, m.sender_id, m.key_id, m.nonce, m.ciphertext, m.created_at
        from conversation_members cm
        join conversations c on c.id = cm.conversation_id
        join messages m on m.conversation_id = c.id
        where cm.user_id = ${r.userId}::uuid and m.expires_at > ${r.now.toISOString()}::timestamptz
        order by m.conversation_id, m.id`,
    r.db,
  );
  const conversations = await r.database.rows<{ id: string; kind: string; joined_at: string | Date; members: number }>(
    sql`select c.id, c.kind, cm.joined_at,
          (select count(*)::int from conversation_members o where o.conversation_id = c.id) as members
        from conversation_members cm join conversations c on c.id = cm.conversation_id
        where cm.user_id = ${r.userId}::uuid order by c.id`,
    r.db,
  );
  return conversations.map((c) => ({
    _id: c.id,
    kind: c.kind,
    members: c.members,
    joinedAt: new Date(c.joined_at).toISOString(),
    messages: rows
      .filter((m) => m.conversation_id === c.id)
      .map((m) => {
        const sentAt = new Date(m.created_at).toISOString();
        if (m.sender_id !== r.userId) return { _id: m.id, sentAt, fromMe: false, text: OTHER_MEMBER_PLACEHOLDER };
        const text = readable(r, { conversationId: c.id, messageId: m.id }, () =>
          openMessage(
            r.keyring,
            { conversationId: c.id, messageId: m.id },
            { keyId: m.key_id, nonce: new Uint8Array(m.nonce), ciphertext: new Uint8Array(m.ciphertext) },
          ),
        );
        return { _id: m.id, sentAt, fromMe: true, text };
      }),
  }));
}

export async function companionSection(r: ExportReader) {
  const chats = await r.db
    .select()
    .from(companionConversations)
    .where(eq(companionConversations.userId, r.userId))
    .orderBy(asc(companionConversations.id));
  const rows = await r.db
    .select({ message: companionMessages })
    .from(companionMessages)
    .innerJoin(companionConversations, eq(companionConversations.id, companionMessages.conversationId))
    .where(and(eq(companionConversations.userId, r.userId)))
    .orderBy(asc(companionMessages.id));
  return chats.map((chat) => ({
    _id: chat.id,
    title: readable(r, { companionConversationId: chat.id }, () => openCompanionTitle(r.keyring, chat)),
    pinned: chat.pinned,
    createdAt: iso(chat.createdAt),
    messages: rows
      .filter(({ message }) => message.conversationId === chat.id)
      .map(({ message }) => ({
        _id: message.id,
        role: message.role,
        content: readable(r, { companionMessageId: message.id }, () => openCompanionMessage(r.keyring, message)),
        sources: readable(r, { companionMessageId: message.id }, () => openCompanionSources(r.keyring, message)) ?? [],
        createdAt: iso(message.createdAt),
      })),
  }));
}
