// The reports' part of `npm run messages:rekey` (scripts/messages-rekey.ts): every report whose
// private snapshot text (a reported message's) is sealed under an older key is sealed again under
// the newest, and a report filed before the sealing, its text still in clear in `snapshot.text`,
// is sealed and that key removed, batch by batch (server/crypto/reseal-batches.ts). Its deletion
// time is left as it is.
import { and, eq, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { reports } from '../../../db/schema/index.js';
import type { MessageKeyring } from '../../crypto/message-keys.js';
import { nextBatch, resealInBatches } from '../../crypto/reseal-batches.js';
import { clearPart, LEGACY_CLEAR_KEY, openPrivatePart, sealPrivatePart } from './retention.js';

export interface ReportRekeyResult {
  /** Report texts found in clear and sealed. */
  sealed: number;
  /** Report texts sealed again under the current key. */
  rekeyed: number;
  /** Key ids that report texts use after the run. */
  keysInUse: string[];
  /** Report texts still in clear after the run (0 when it succeeded). */
  plaintextLeft: number;
}

/** A message report's text still in clear (filed before the sealing, not yet deleted). */
const legacyClearText = and(
  isNull(reports.sealedCiphertext),
  isNotNull(reports.sealedDeleteAt),
  sql`(${reports.snapshot} ->> ${LEGACY_CLEAR_KEY}::text) is not null`,
);

export async function rekeyReportTexts(
  database: Database,
  keyring: MessageKeyring,
  options: { batchSize?: number; onBatch?: (done: number) => void } = {},
): Promise<ReportRekeyResult> {
  const current = keyring.current.id;
  const result = { sealed: 0, rekeyed: 0 };
  await resealInBatches(database, {
    batchSize: options.batchSize ?? 500,
    onBatch: options.onBatch,
    pick: (tx, after, limit) =>
      nextBatch(
        tx
          .select({
            id: reports.id,
            snapshot: reports.snapshot,
            sealedKeyId: reports.sealedKeyId,
            sealedNonce: reports.sealedNonce,
            sealedCiphertext: reports.sealedCiphertext,
            sealedExpiresAt: reports.sealedExpiresAt,
            sealedDeleteAt: reports.sealedDeleteAt,
          })
          .from(reports)
          .$dynamic(),
        reports.id,
        or(and(isNotNull(reports.sealedCiphertext), ne(reports.sealedKeyId, current)), legacyClearText),
        after,
        limit,
      ),
    reseal: async (tx, row) => {
      const content = openPrivatePart(keyring, row);
      await tx
        .update(reports)
        .set({ ...sealPrivatePart(keyring, row.id, content), snapshot: clearPart(row) })
        .where(eq(reports.id, row.id));
      if (row.sealedCiphertext === null) result.sealed++;
      else result.rekeyed++;
    },
  });
  const inUse = await database.rows<{ key_id: string }>(
    sql`select distinct sealed_key_id as key_id from reports where sealed_key_id is not null order by key_id`,
  );
  const [left] = await database.rows<{ n: number | string }>(
    sql`select count(*) as n from reports where ${legacyClearText}`,
  );
  return { ...result, keysInUse: inUse.map((r) => r.key_id), plaintextLeft: Number(left!.n) };
}
