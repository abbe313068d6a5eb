// Messages are reportable (server/domains/reports/targets.ts). Only a member of the message's
// conversation can see it, so only they can report it; everyone else gets null (404, like a
// message that does not exist). The snapshot keeps the decrypted text for moderators (a report
// is evidence the reporter could read and chose to hand over) as its sealed part, which the
// reports domain keeps encrypted and deletes by its retention rule, never later than the
// message's own expiry unless a moderator keeps it as evidence (server/domains/reports/retention.ts).
import { sql } from 'drizzle-orm';
import type { ReportTarget } from '../reports/targets.js';
import { openMessage } from '../../crypto/message-cipher.js';
import { keyringOf } from './messages.js';

interface Row {
  id: string;
  conversation_id: string;
  key_id: string;
  nonce: Uint8Array;
  ciphertext: Uint8Array;
  sender_id: string;
  sender_handle: string;
  created_ms: number;
  expires_ms: number;
}

export const messageReportTarget: ReportTarget = {
  type: 'message',
  async snapshot(tx, viewer, targetId) {
    const [row] = await viewer.database.rows<Row>(
      sql`
      select m.id, m.conversation_id, m.key_id, m.nonce, m.ciphertext, u.id as sender_id, u.handle as sender_handle,
        round(extract(epoch from m.created_at) * 1000)::float8 as created_ms,
        round(extract(epoch from m.expires_at) * 1000)::float8 as expires_ms
      from messages m
      join users u on u.id = m.sender_id
      join conversation_members cm on cm.conversation_id = m.conversation_id and cm.user_id = ${viewer.user.id}::uuid
      where m.id = ${targetId}::uuid and m.expires_at > ${viewer.clock.now().toISOString()}::timestamptz`,
      tx,
    );
    if (!row) return null;
    const text = openMessage(
      keyringOf(viewer),
      { conversationId: row.conversation_id, messageId: row.id },
      { keyId: row.key_id, nonce: new Uint8Array(row.nonce), ciphertext: new Uint8Array(row.ciphertext) },
    );
    return {
      authorId: row.sender_id,
      content: {
        senderHandle: row.sender_handle,
        conversationId: row.conversation_id,
        sentAt: new Date(row.created_ms).toISOString(),
      },
      sealed: { content: { text }, expiresAt: new Date(row.expires_ms) },
    };
  },
};
