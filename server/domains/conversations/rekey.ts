// Re-encryption under the newest message key, so an older key can be retired: every message whose
// key_id is not the current key is opened and sealed again (fresh nonce, same additional data)
// in batches of `batchSize`, one transaction per batch, walking the table by id. Safe to run
// while the server runs and to interrupt: a batch is all or nothing, and a rerun picks up what is
// left. `npm run messages:rekey` (scripts/messages-rekey.ts) is the operator's command.
import { and, asc, eq, gt, ne, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { messages } from '../../../db/schema/index.js';
import { openMessage, sealMessage } from '../../crypto/message-cipher.js';
import type { MessageKeyring } from '../../crypto/message-keys.js';

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
  const batchSize = options.batchSize ?? 500;
  const current = keyring.current.id;
  let after: string | undefined;
  let rekeyed = 0;
  for (;;) {
    const last = await database.db.transaction(async (tx) => {
      const rows = await tx
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
        .limit(batchSize)
        // A message deleted or being deleted meanwhile is simply skipped.
        .for('update', { skipLocked: true });
      for (const row of rows) {
        const address = { conversationId: row.conversationId, messageId: row.id };
        const sealed = sealMessage(keyring, address, openMessage(keyring, address, row));
        await tx
          .update(messages)
          .set({ keyId: sealed.keyId, nonce: sealed.nonce, ciphertext: sealed.ciphertext })
          .where(eq(messages.id, row.id));
      }
      rekeyed += rows.length;
      return rows.length === batchSize ? rows[rows.length - 1]!.id : undefined;
    });
    options.onBatch?.(rekeyed);
    if (!last) break;
    after = last;
  }
  const inUse = await database.rows<{ key_id: string }>(sql`select distinct key_id from messages order by key_id`);
  return { rekeyed, keysInUse: inUse.map((r) => r.key_id) };
}
