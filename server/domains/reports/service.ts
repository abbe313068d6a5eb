// Filing a report and reading one's own. The target is reached only through the registry
// (targets.ts): its owning domain decides, in SQL, whether the reporter may see it, and takes
// the snapshot the admins will judge. Anything the reporter may not see, a type whose domain has
// registered no target, and a target that does not exist all answer the same 404.
import { and, desc, eq, sql } from 'drizzle-orm';
import { newId } from '../../../db/ids.js';
import { reports, type ReportRow } from '../../../db/schema/index.js';
import { messageKeyring } from '../../crypto/message-keys.js';
import { AppError } from '../../errors.js';
import { beforeCursor, toPage } from '../../lib/pagination.js';
import type { CreateReportInput, ReportOutput } from './schemas.js';
import { sealPrivatePart } from './retention.js';
import { reportTarget } from './targets.js';
import type { MemberServiceContext } from '../../service/context.js';

const notFound = () => new AppError('not_found', 'No such target.');

/** The reporter's face of a report: no reporter, no moderator, no internal note, no snapshot. */
export function toReport(row: ReportRow): ReportOutput {
  return {
    _id: row.id,
    targetType: row.targetType,
    targetId: row.targetId,
    reason: row.reason,
    details: row.details,
    status: row.status,
    publicNote: row.publicNote,
    action: row.action,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function createReport(ctx: MemberServiceContext, input: CreateReportInput): Promise<ReportOutput> {
  const target = reportTarget(ctx, input.targetType);
  if (!target) throw notFound();
  return ctx.db.transaction(async (tx) => {
    const snapshot = await target.snapshot(tx, ctx, input.targetId);
    if (!snapshot) throw notFound();
    // The private part (a message's text) is sealed to this report's id, deleted at its own expiry.
    const id = newId();
    const sealed = snapshot.sealed
      ? {
          ...sealPrivatePart(messageKeyring(ctx.config, ctx.log), id, snapshot.sealed.content),
          sealedExpiresAt: snapshot.sealed.expiresAt,
          sealedDeleteAt: snapshot.sealed.expiresAt,
        }
      : {};
    // The partial unique index holds one open report per reporter and target, also under races.
    const [row] = await tx
      .insert(reports)
      .values({
        id,
        ...sealed,
        reporterId: ctx.user.id,
        targetType: input.targetType,
        targetId: input.targetId,
        targetAuthorId: snapshot.authorId,
        reason: input.reason,
        details: input.details || null,
        snapshot: snapshot.content,
        createdAt: ctx.clock.now(),
      })
      .onConflictDoNothing({
        target: [reports.reporterId, reports.targetType, reports.targetId],
        where: sql`status = 'open'`,
      })
      .returning();
    if (!row) throw new AppError('conflict', 'You already have an open report on this target.');
    return toReport(row);
  });
}

/** The caller's reports, newest first. */
export async function listMyReports(ctx: MemberServiceContext, input: { cursor?: string; limit: number }) {
  const before = beforeCursor(reports.id, input.cursor);
  const rows = await ctx.db
    .select()
    .from(reports)
    .where(and(eq(reports.reporterId, ctx.user.id), before))
    .orderBy(desc(reports.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (row) => row.id);
  return { items: page.items.map(toReport), nextCursor: page.nextCursor };
}
