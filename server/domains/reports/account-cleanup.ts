// What a hard account deletion does to reports (server/domains/me/account-deletion.ts runs it in
// the deletion's transaction, before the user row goes):
//   - reports the member FILED go with the account (reports.reporter_id cascades); the decisions
//     on them stay in the trail, detached (report_id set null);
//   - reports ABOUT the member's content or the member keep the evidence, the reported words,
//     but lose the member's identity: the author link is cut and every snapshot string equal to
//     their id or handle is blanked. The handle is freed by the deletion and may be taken by
//     someone else, so keeping it would point moderators at the wrong person; a reported member's
//     own id goes from target_id as well;
//   - decisions the member made as a moderator stay, with the moderator nulled (foreign key).
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { reportDecisions, reports, users } from '../../../db/schema/index.js';

export const DELETED_MEMBER = '[deleted member]';

/** Replaces every string equal (case-insensitively) to one of `needles`, at any depth. */
export function blankIdentity(value: unknown, needles: string[]): unknown {
  if (typeof value === 'string') return needles.includes(value.toLowerCase()) ? DELETED_MEMBER : value;
  if (Array.isArray(value)) return value.map((item) => blankIdentity(item, needles));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, blankIdentity(item, needles)]));
  return value;
}

export async function detachReportsOfDeletedMember(tx: Tx, userId: string): Promise<void> {
  const [user] = await tx.select({ handle: users.handle }).from(users).where(eq(users.id, userId));
  if (!user) return;
  const needles = [userId.toLowerCase(), user.handle.toLowerCase()];
  const about = await tx
    .select({ id: reports.id, snapshot: reports.snapshot })
    .from(reports)
    .where(eq(reports.targetAuthorId, userId));
  for (const row of about) {
    await tx
      .update(reports)
      .set({
        snapshot: blankIdentity(row.snapshot, needles) as Record<string, unknown>,
        targetAuthorId: null,
        authorDeleted: true,
      })
      .where(eq(reports.id, row.id));
  }
  await tx
    .update(reports)
    .set({ targetId: null, authorDeleted: true })
    .where(and(eq(reports.targetType, 'member'), eq(reports.targetId, userId)));
  await tx
    .update(reportDecisions)
    .set({ targetId: null })
    .where(and(eq(reportDecisions.targetType, 'member'), eq(reportDecisions.targetId, userId)));
}
