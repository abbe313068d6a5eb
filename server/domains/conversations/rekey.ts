// Re-encryption under the newest message key, so an older key can be retired: every message whose
// key_id is not the current key is opened and sealed again (fresh nonce, same additional data),
// batch by batch (server/crypto/reseal-batches.ts). `npm run messages:rekey`
// (scripts/messages-rekey.ts) is the operator's command; it runs the companion chat's part
// (server/domains/companion/rekey.ts) after this one.
import { and, asc, eq, gt, ne, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { messages } from '../../../db/schema/index.js';
import { openMessage, sealMessage } from '../../crypto/message-cipher.js';
import type { MessageKeyring } from '../../crypto/message-keys.js';
import { resealInBatches } from '../../crypto/reseal-batches.js';

export interface RekeyResult {
  /** Messages sealed again under the current key. */
  rekeyed: number;
  /** Key ids that messages still use after the run (only the current key when it succeeded). */
  keysInUse: string[];
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
      tx
        .select({
          id: messages.id,
          conversationId: messages.conversationId,
          keyId: messages.keyId,
          nonce: messages.nonce,
          ciphertext: messages.ciphertext,
        })
        .from(messages)
        .where(and(ne(messages.keyId, current), after ? gt(messages.id, after) : undefined))
        .orderBy(asc(messages.id))
        .limit(limit)
        .for('update', { skipLocked: true }),
    reseal: async (tx, row) => {
      const address = { conversationId: row.conversationId, messageId: row.id };
      const sealed = sealMessage(keyring, address, openMessage(keyring, address, row));
      await tx
        .update(messages)
        .set({ keyId: sealed.keyId, nonce: sealed.nonce, ciphertext: sealed.ciphertext })
        .where(eq(messages.id, row.id));
    },
  });
  const inUse = await database.rows<{ key_id: string }>(sql`select distinct key_id from messages order by key_id`);
  return { rekeyed, keysInUse: inUse.map((r) => r.key_id) };
}
