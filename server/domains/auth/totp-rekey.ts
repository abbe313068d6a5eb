// The TOTP part of `npm run messages:rekey` (scripts/messages-rekey.ts): every authenticator
// secret sealed under an older key of MESSAGE_KEYS is sealed again under the newest, batch by
// batch (server/crypto/reseal-batches.ts), so that the old key can be dropped without turning
// off anyone's second factor. The step of the last accepted code is kept: a rekey never makes a
// used code valid again.
import { eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { totpCredentials } from '../../../db/schema/index.js';
import type { MessageKeyring } from '../../crypto/message-keys.js';
import { nextBatch, resealInBatches } from '../../crypto/reseal-batches.js';
import { openTotpSecret, sealTotpSecret } from './totp.js';

export interface TotpRekeyResult {
  /** Secrets sealed again under the current key. */
  rekeyed: number;
  /** Key ids that TOTP secrets use after the run. */
  keysInUse: string[];
}

export async function rekeyTotpSecrets(
  database: Database,
  keyring: MessageKeyring,
  options: { batchSize?: number; onBatch?: (done: number) => void } = {},
): Promise<TotpRekeyResult> {
  const current = keyring.current.id;
  const rekeyed = await resealInBatches(database, {
    batchSize: options.batchSize ?? 500,
    onBatch: options.onBatch,
    // One row per member: the walk's id is the member's.
    pick: async (tx, after, limit) =>
      (
        await nextBatch(
          tx.select().from(totpCredentials).$dynamic(),
          totpCredentials.userId,
          ne(totpCredentials.secretKeyId, current),
          after,
          limit,
        )
      ).map((row) => ({ ...row, id: row.userId })),
    reseal: async (tx, row) => {
      const secret = openTotpSecret(keyring, row);
      await tx
        .update(totpCredentials)
        .set(sealTotpSecret(keyring, row.userId, secret))
        .where(eq(totpCredentials.userId, row.userId));
    },
  });
  const inUse = await database.rows<{ key_id: string }>(
    sql`select distinct secret_key_id as key_id from totp_credentials order by key_id`,
  );
  return { rekeyed, keysInUse: inUse.map((r) => r.key_id) };
}
