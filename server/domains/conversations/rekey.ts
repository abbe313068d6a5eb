// Re-encryption under the newest message key, so an older key can be retired: every message whose
// key_id is not the current key is opened and sealed again (fresh nonce, same additional data),
// batch by batch (server/crypto/reseal-batches.ts). Group titles likewise, and a title stored in
// clear before titles were sealed is sealed and its plaintext column emptied. `npm run messages:rekey`
// (scripts/messages-rekey.ts) is the operator's command; it runs the companion chat's part
// (server/domains/companion/rekey.ts) after this one.
import { eq, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { conversations, messages } from '../../../db/schema/index.js';
import { openMessage, sealMessage } from '../../crypto/message-cipher.js';
import type { MessageKeyring } from '../../crypto/message-keys.js';
import { nextBatch, resealInBatches } from '../../crypto/reseal-batches.js';
import { openGroupTitle, sealGroupTitle } from './titles.js';

export interface RekeyResult {
  /** Messages sealed again under the current key. */
  rekeyed: number;
  /** Legacy plaintext group titles sealed. */
  titlesSealed: number;
  /** Group titles sealed again under the current key. */
  titlesRekeyed: number;
  /** Key ids that messages and titles still use after the run (only the current key when it succeeded). */
  keysInUse: string[];
  /** Group titles still in clear after the run (0 when it succeeded). */
  plaintextLeft: number;
}

export async function rekeyMessages(
  database: Database,
  keyring: MessageKeyring,
  options: { batchSize?: number; onBatch?: (done: number) => void } = {},
): Promise<RekeyResult> {
  const current = keyring.current.id;
  const rekeyed = await resealInBatches(database, {
    batchSize: options.batchSize ?? 500,
    onBatch: options.onBatch,
    pick: (tx, after, limit) =>
      nextBatch(
        tx
          .select({
            id: messages.id,
            conversationId: messages.conversationId,
            keyId: messages.keyId,
            nonce: messages.nonce,
            ciphertext: messages.ciphertext,
          })
          .from(messages)
          .$dynamic(),
        messages.id,
        ne(messages.keyId, current),
        after,
        limit,
      ),
    reseal: async (tx, row) => {
      const address = { conversationId: row.conversationId, messageId: row.id };
      const sealed = sealMessage(keyring, address, openMessage(keyring, address, row));
      await tx
        .update(messages)
        .set({ keyId: sealed.keyId, nonce: sealed.nonce, ciphertext: sealed.ciphertext })
        .where(eq(messages.id, row.id));
    },
  });
  const titles = { titlesSealed: 0, titlesRekeyed: 0 };
  await resealInBatches(database, {
    batchSize: options.batchSize ?? 500,
    onBatch: options.onBatch && ((done) => options.onBatch!(rekeyed + done)),
    pick: (tx, after, limit) =>
      nextBatch(
        tx
          .select({
            id: conversations.id,
            titleKeyId: conversations.titleKeyId,
            titleNonce: conversations.titleNonce,
            titleCiphertext: conversations.titleCiphertext,
            legacyTitle: conversations.legacyTitle,
          })
          .from(conversations)
          .$dynamic(),
        conversations.id,
        // A conversation without a title has nothing to seal.
        or(isNotNull(conversations.legacyTitle), ne(conversations.titleKeyId, current)),
        after,
        limit,
      ),
    reseal: async (tx, row) => {
      const title = openGroupTitle(keyring, row.id, row);
      await tx
        .update(conversations)
        .set(sealGroupTitle(keyring, row.id, title))
        .where(eq(conversations.id, row.id));
      if (row.titleCiphertext === null) titles.titlesSealed++;
      else titles.titlesRekeyed++;
    },
  });
  const inUse = await database.rows<{ key_id: string }>(sql`
    select key_id from messages
    union
    select title_key_id from conversations where title_key_id is not null
    order by key_id`);
  const [left] = await database.rows<{ n: number | string }>(
    sql`select count(*) as n from conversations where title is not null`,
  );
  return { rekeyed, ...titles, keysInUse: inUse.map((r) => r.key_id), plaintextLeft: Number(left!.n) };
}
