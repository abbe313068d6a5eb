// The companion chat's part of `npm run messages:rekey` (scripts/messages-rekey.ts): every
// message (content and sources) and conversation title that is not sealed under the newest key
// is sealed under it, batch by batch (server/crypto/reseal-batches.ts). That covers both rows
// under an older key (so the key can be retired) and legacy rows written in clear before
// companion text was encrypted (content and titles before migration 0027, sources before 0028):
// those are sealed and their plaintext columns emptied. After one complete run nothing of the
// companion is in clear and only the newest key is in use.
import { eq, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { companionConversations, companionMessages } from '../../../db/schema/index.js';
import type { MessageKeyring } from '../../crypto/message-keys.js';
import { nextBatch, resealInBatches } from '../../crypto/reseal-batches.js';
import {
  openCompanionMessage,
  openCompanionSources,
  openCompanionTitle,
  sealCompanionMessage,
  sealCompanionTitle,
  storedMessageColumns,
} from './sealing.js';

export interface CompanionRekeyResult {
  /** Messages with legacy plaintext content or sources sealed (their plaintext columns emptied). */
  messagesSealed: number;
  /** Messages sealed again under the current key (they were under an older one). */
  messagesRekeyed: number;
  /** Legacy plaintext titles sealed. */
  titlesSealed: number;
  /** Titles sealed again under the current key. */
  titlesRekeyed: number;
  /** Key ids that companion messages and titles use after the run (only the current key when it succeeded). */
  keysInUse: string[];
  /** Messages and titles still in clear after the run (0 when it succeeded). */
  plaintextLeft: number;
}

export async function rekeyCompanion(
  database: Database,
  keyring: MessageKeyring,
  options: { batchSize?: number; onBatch?: (done: number) => void } = {},
): Promise<CompanionRekeyResult> {
  const batchSize = options.batchSize ?? 500;
  const current = keyring.current.id;
  const result = { messagesSealed: 0, messagesRekeyed: 0, titlesSealed: 0, titlesRekeyed: 0 };
  const progress = (done: number) => options.onBatch?.(done);

  const messagesDone = await resealInBatches(database, {
    batchSize,
    onBatch: progress,
    pick: (tx, after, limit) =>
      nextBatch(
        tx.select(storedMessageColumns).from(companionMessages).$dynamic(),
        companionMessages.id,
        or(
          isNull(companionMessages.ciphertext),
          ne(companionMessages.keyId, current),
          isNotNull(companionMessages.legacySources),
        ),
        after,
        limit,
      ),
    reseal: async (tx, row) => {
      const content = openCompanionMessage(keyring, row);
      const sources = openCompanionSources(keyring, row);
      await tx
        .update(companionMessages)
        .set(sealCompanionMessage(keyring, { conversationId: row.conversationId, messageId: row.id }, content, sources))
        .where(eq(companionMessages.id, row.id));
      if (row.ciphertext === null || row.legacySources !== null) result.messagesSealed++;
      else result.messagesRekeyed++;
    },
  });

  await resealInBatches(database, {
    batchSize,
    onBatch: (done) => progress(messagesDone + done),
    pick: (tx, after, limit) =>
      nextBatch(
        tx
          .select({
            id: companionConversations.id,
            titleKeyId: companionConversations.titleKeyId,
            titleNonce: companionConversations.titleNonce,
            titleCiphertext: companionConversations.titleCiphertext,
            legacyTitle: companionConversations.legacyTitle,
          })
          .from(companionConversations)
          .$dynamic(),
        companionConversations.id,
        // A conversation without a title has nothing to seal.
        or(isNotNull(companionConversations.legacyTitle), ne(companionConversations.titleKeyId, current)),
        after,
        limit,
      ),
    reseal: async (tx, row) => {
      const title = openCompanionTitle(keyring, row) ?? '';
      await tx
        .update(companionConversations)
        .set(sealCompanionTitle(keyring, row.id, title))
        .where(eq(companionConversations.id, row.id));
      if (row.titleCiphertext === null) result.titlesSealed++;
      else result.titlesRekeyed++;
    },
  });

  const inUse = await database.rows<{ key_id: string }>(sql`
    select key_id from companion_messages where key_id is not null
    union
    select title_key_id from companion_conversations where title_key_id is not null
    order by key_id`);
  const [left] = await database.rows<{ n: number | string }>(sql`
    select (select count(*) from companion_messages where ciphertext is null or sources is not null)
      + (select count(*) from companion_conversations where title is not null) as n`);
  return { ...result, keysInUse: inUse.map((r) => r.key_id), plaintextLeft: Number(left!.n) };
}
