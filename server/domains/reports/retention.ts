// The private part of a report's snapshot (today: a reported message's text, which is encrypted
// at rest where it came from and may be set to disappear). A report must not defeat either:
//   - at rest it is sealed under MESSAGE_KEYS, bound to the report's id (`report-snapshot`
//     record, server/crypto/message-cipher.ts), opened only for the admins' reads;
//   - it has a deletion time (`sealed_delete_at`), and the hourly sweep deletes it then:
//       open report           the text's own expiry (the message's expiresAt when reported), so
//                             a report never keeps a disappearing message longer than it lives;
//       decided               30 days after the decision, or its own expiry if that comes first;
//       decided, keepEvidence 365 days after that decision, past its own expiry: a moderator's
//                             explicit choice, recorded in the decision trail; a later decision
//                             without it brings the ordinary rule back.
//     Reads never show it past that time, whether or not the sweep has run.
// Reports filed before the sealing hold the text in clear in `snapshot.text` (migration
// `sealed_report_text_and_group_titles` gave them the same deletion time); they read as before,
// the sweep deletes that key when due and `npm run messages:rekey` seals it (rekey.ts).
import { and, isNotNull, lte, sql } from 'drizzle-orm';
import { type ReportRow, reports } from '../../../db/schema/index.js';
import type { Tx } from '../../../db/client.js';
import { openText, type SealedMessage, sealText } from '../../crypto/message-cipher.js';
import type { MessageKeyring } from '../../crypto/message-keys.js';
import { DAY_MS } from '../../lib/clock.js';

/** A decided report keeps its private text this long after the decision (unless its own expiry is sooner). */
export const DECIDED_TEXT_KEPT_DAYS = 30;
/** A decision with keepEvidence keeps the private text this long after it. */
export const EVIDENCE_KEPT_DAYS = 365;
/** The snapshot key that held a message's text in clear before the sealing. */
export const LEGACY_CLEAR_KEY = 'text';

/** When the private part goes after a decision made at `decidedAt`. */
export function deleteAtAfterDecision(ownExpiry: Date, decidedAt: Date, keepEvidence: boolean): Date {
  if (keepEvidence) return new Date(decidedAt.getTime() + EVIDENCE_KEPT_DAYS * DAY_MS);
  const decided = new Date(decidedAt.getTime() + DECIDED_TEXT_KEPT_DAYS * DAY_MS);
  return decided < ownExpiry ? decided : ownExpiry;
}

/** The sealed columns of a report's private part. */
export function sealPrivatePart(keyring: MessageKeyring, reportId: string, content: Record<string, unknown>) {
  const sealed = sealText(keyring, { record: 'report-snapshot', reportId }, JSON.stringify(content));
  return { sealedKeyId: sealed.keyId, sealedNonce: sealed.nonce, sealedCiphertext: sealed.ciphertext };
}

type StoredPrivatePart = Pick<
  ReportRow,
  'id' | 'snapshot' | 'sealedKeyId' | 'sealedNonce' | 'sealedCiphertext' | 'sealedExpiresAt' | 'sealedDeleteAt'
>;

/** Whether the report has a private part that may still be read at `now` (sealed, or legacy in clear). */
export function privatePartLive(row: StoredPrivatePart, now: Date): boolean {
  const held = row.sealedCiphertext !== null || (row.sealedExpiresAt !== null && LEGACY_CLEAR_KEY in row.snapshot);
  return held && row.sealedDeleteAt !== null && row.sealedDeleteAt > now;
}

/** The snapshot without its private part (what is kept in clear). */
export function clearPart(row: StoredPrivatePart): Record<string, unknown> {
  if (row.sealedExpiresAt === null) return row.snapshot;
  const { [LEGACY_CLEAR_KEY]: _legacy, ...rest } = row.snapshot;
  return rest;
}

/** The private part, opened; throws MessageDecryptError (ids only) when no configured key opens it. */
export function openPrivatePart(keyring: MessageKeyring, row: StoredPrivatePart): Record<string, unknown> {
  if (row.sealedCiphertext === null)
    return LEGACY_CLEAR_KEY in row.snapshot ? { [LEGACY_CLEAR_KEY]: row.snapshot[LEGACY_CLEAR_KEY] } : {};
  const sealed: SealedMessage = { keyId: row.sealedKeyId!, nonce: row.sealedNonce!, ciphertext: row.sealedCiphertext };
  return JSON.parse(openText(keyring, { record: 'report-snapshot', reportId: row.id }, sealed)) as Record<
    string,
    unknown
  >;
}

/** Deletes every private part due by `now` (the sweep's work); returns how many. */
export async function deleteDuePrivateParts(tx: Tx, now: Date): Promise<number> {
  const done = await tx
    .update(reports)
    .set({
      sealedKeyId: null,
      sealedNonce: null,
      sealedCiphertext: null,
      sealedDeleteAt: null,
      snapshot: sql`${reports.snapshot} - ${LEGACY_CLEAR_KEY}::text`,
    })
    .where(and(isNotNull(reports.sealedDeleteAt), lte(reports.sealedDeleteAt, now)))
    .returning({ id: reports.id });
  return done.length;
}
