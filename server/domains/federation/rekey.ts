// The federation part of `npm run messages:rekey` (scripts/messages-rekey.ts): every actor's
// private keys (record `federation-keys`) and every queued message (record `federation-queue`:
// Fedify's deliveries carry the sender's keys) sealed under an older key of MESSAGE_KEYS are
// sealed again under the newest, batch by batch (server/crypto/reseal-batches.ts), so that the
// old key can be dropped while federation keeps signing and delivering. A queued row is resealed
// in place (same row id, payload id, run_at, lease and attempts): a server that claimed it holds
// it opened already and finishes or releases it by row id, so it is neither lost nor sent twice.
import { eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { federationActors, federationQueue } from '../../../db/schema/index.js';
import { openText, sealText } from '../../crypto/message-cipher.js';
import type { MessageKeyring } from '../../crypto/message-keys.js';
import { nextBatch, resealInBatches } from '../../crypto/reseal-batches.js';
import { resealQueued, type SealedRow } from './queue.js';

export interface FederationRekeyResult {
  /** Actors whose private keys were sealed again under the current key. */
  actorsRekeyed: number;
  /** Queued messages sealed again under the current key. */
  queuedRekeyed: number;
  /** Key ids that actor keys and queued messages use after the run. */
  keysInUse: string[];
}

export async function rekeyFederation(
  database: Database,
  keyring: MessageKeyring,
  options: { batchSize?: number; onBatch?: (done: number) => void } = {},
): Promise<FederationRekeyResult> {
  const current = keyring.current.id;
  const batchSize = options.batchSize ?? 500;
  let done = 0;
  const onBatch = (count: number) => options.onBatch?.(done + count);
  const actorsRekeyed = await resealInBatches(database, {
    batchSize,
    onBatch,
    pick: (tx, after, limit) =>
      nextBatch(
        tx
          .select({
            id: federationActors.id,
            keyId: federationActors.privateKeysKeyId,
            nonce: federationActors.privateKeysNonce,
            ciphertext: federationActors.privateKeysCiphertext,
          })
          .from(federationActors)
          .$dynamic(),
        federationActors.id,
        ne(federationActors.privateKeysKeyId, current),
        after,
        limit,
      ),
    reseal: async (tx, row) => {
      const address = { record: 'federation-keys', actorId: row.id } as const;
      const sealed = sealText(keyring, address, openText(keyring, address, row));
      await tx
        .update(federationActors)
        .set({
          privateKeysKeyId: sealed.keyId,
          privateKeysNonce: sealed.nonce,
          privateKeysCiphertext: sealed.ciphertext,
        })
        .where(eq(federationActors.id, row.id));
    },
  });
  done = actorsRekeyed;
  const queuedRekeyed = await resealInBatches(database, {
    batchSize,
    onBatch,
    // The walk's id is text; the queue's is a bigint (compared as a number by PostgreSQL).
    pick: async (tx, after, limit) =>
      (
        await nextBatch(
          tx.select({ rowId: federationQueue.id, message: federationQueue.message }).from(federationQueue).$dynamic(),
          federationQueue.id,
          sql`${federationQueue.message} ->> 'keyId' <> ${current}`,
          after,
          limit,
        )
      ).map((row) => ({ ...row, id: String(row.rowId) })),
    reseal: async (tx, row) => {
      await tx
        .update(federationQueue)
        .set({ message: resealQueued(keyring, row.message as SealedRow) })
        .where(eq(federationQueue.id, row.rowId));
    },
  });
  const inUse = await database.rows<{ key_id: string }>(
    sql`select private_keys_key_id as key_id from federation_actors
        union select message ->> 'keyId' from federation_queue where message ->> 'keyId' is not null
        order by key_id`,
  );
  return { actorsRekeyed, queuedRekeyed, keysInUse: inUse.map((r) => r.key_id) };
}
