// The admins' side of reports: the queue (with each target's snapshot and its state now) and
// decisions. A decision may be revisited (a second opinion, a corrected note): the report shows
// the latest one and report_decisions keeps every one, append-only. A `hide` is not undone by a
// later decision: hiding belongs to the content's own domain.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx, Tx } from '../../../db/client.js';
import { pushOutbox, reportDecisions, type ReportRow, reports, users } from '../../../db/schema/index.js';
import { MessageDecryptError } from '../../crypto/message-cipher.js';
import { messageKeyring } from '../../crypto/message-keys.js';
import { AppError } from '../../errors.js';
import { afterCursor, toPage } from '../../lib/pagination.js';
import type { MemberServiceContext, ServiceContext } from '../../service/context.js';
import type { AdminListReportsInput, AdminReportOutput, ResolveReportInput } from './schemas.js';
import { clearPart, deleteAtAfterDecision, openPrivatePart, privatePartLive } from './retention.js';
import { toReport } from './service.js';
import { reportTarget, type ReportTargetType } from './targets.js';

const reporter = alias(users, 'reporter');
const author = alias(users, 'author');
const decider = alias(users, 'decider');

const ref = (id: string | null, handle: string | null) => (id && handle ? { _id: id, handle } : null);

function selectAdminReports(db: DbOrTx) {
  return db
    .select({
      report: reports,
      reporterHandle: reporter.handle,
      authorHandle: author.handle,
      deciderHandle: decider.handle,
    })
    .from(reports)
    .innerJoin(reporter, eq(reporter.id, reports.reporterId))
    .leftJoin(author, eq(author.id, reports.targetAuthorId))
    .leftJoin(decider, eq(decider.id, reports.decidedById));
}
type AdminRow = Awaited<ReturnType<ReturnType<typeof selectAdminReports>['where']>>[number];

/** Each target's state now, one query per target type on the page. */
async function targetStates(ctx: ServiceContext, db: DbOrTx, rows: ReportRow[]) {
  const states = new Map<string, AdminReportOutput['target']['state']>();
  const byType = new Map<ReportTargetType, string[]>();
  for (const row of rows) {
    if (row.targetId) byType.set(row.targetType, [...(byType.get(row.targetType) ?? []), row.targetId]);
  }
  for (const [type, ids] of byType) {
    const stateOf = reportTarget(ctx, type)?.states;
    const found = stateOf ? await stateOf(db, [...new Set(ids)]) : null;
    for (const id of ids) states.set(`${type}:${id}`, found ? (found.get(id) ?? 'deleted') : 'unknown');
  }
  return states;
}

async function decisionsOf(db: DbOrTx, reportIds: string[]) {
  const byReport = new Map<string, AdminReportOutput['decisions']>();
  if (reportIds.length === 0) return byReport;
  const rows = await db
    .select({ decision: reportDecisions, moderatorHandle: users.handle })
    .from(reportDecisions)
    .leftJoin(users, eq(users.id, reportDecisions.moderatorId))
    .where(inArray(reportDecisions.reportId, reportIds))
    .orderBy(asc(reportDecisions.id));
  for (const { decision: d, moderatorHandle } of rows) {
    const list = byReport.get(d.reportId!) ?? [];
    list.push({
      _id: d.id,
      moderator: ref(d.moderatorId, moderatorHandle),
      status: d.status,
      action: d.action,
      note: d.note,
      publicNote: d.publicNote,
      keepEvidence: d.keepEvidence,
      decidedAt: d.decidedAt.toISOString(),
    });
    byReport.set(d.reportId!, list);
  }
  return byReport;
}

/**
 * The snapshot as admins see it, with its private part (a message's text) opened while the
 * retention rule keeps it. A private part no key opens is left out and flagged (logged with ids
 * only), so one damaged report does not fail the whole queue.
 */
function snapshotView(ctx: Pick<ServiceContext, 'config' | 'log'>, report: ReportRow, now: Date, kept: boolean) {
  const clear = clearPart(report);
  if (report.sealedExpiresAt === null) return { snapshot: clear, privateText: null };
  const live = privatePartLive(report, now);
  const privateText: NonNullable<AdminReportOutput['target']['privateText']> = {
    deleteAt: live ? report.sealedDeleteAt!.toISOString() : null,
    expiresAt: report.sealedExpiresAt.toISOString(),
    keptAsEvidence: kept,
  };
  if (!live) return { snapshot: clear, privateText };
  try {
    return { snapshot: { ...clear, ...openPrivatePart(messageKeyring(ctx.config, ctx.log), report) }, privateText };
  } catch (error) {
    if (!(error instanceof MessageDecryptError)) throw error;
    ctx.log.error(
      { err: error, reportId: report.id, keyId: report.sealedKeyId },
      'report snapshot text does not decrypt: shown without it',
    );
    return { snapshot: clear, privateText: { ...privateText, unreadable: true as const } };
  }
}

async function toAdminReports(ctx: ServiceContext, db: DbOrTx, rows: AdminRow[]): Promise<AdminReportOutput[]> {
  const states = await targetStates(
    ctx,
    db,
    rows.map((r) => r.report),
  );
  const decisions = await decisionsOf(
    db,
    rows.map((r) => r.report.id),
  );
  const now = ctx.clock.now();
  return rows.map(({ report, reporterHandle, authorHandle, deciderHandle }) => {
    const trail = decisions.get(report.id) ?? [];
    return {
      ...toReport(report),
      reporter: { _id: report.reporterId, handle: reporterHandle },
      note: report.note,
      decidedBy: ref(report.decidedById, deciderHandle),
      target: {
        author: ref(report.targetAuthorId, authorHandle),
        authorDeleted: report.authorDeleted,
        state: report.targetId ? (states.get(`${report.targetType}:${report.targetId}`) ?? 'unknown') : 'deleted',
        ...snapshotView(ctx, report, now, trail.at(-1)?.keepEvidence ?? false),
      },
      decisions: trail,
    };
  });
}

/** Oldest first (a queue), filtered by status, target type and reason. */
export async function adminListReports(ctx: ServiceContext, input: AdminListReportsInput) {
  const after = afterCursor(reports.id, input.cursor);
  const rows = await selectAdminReports(ctx.db)
    .where(
      and(
        input.status ? eq(reports.status, input.status) : undefined,
        input.targetType ? eq(reports.targetType, input.targetType) : undefined,
        input.reason ? eq(reports.reason, input.reason) : undefined,
        after,
      ),
    )
    .orderBy(asc(reports.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (row) => row.report.id);
  return { items: await toAdminReports(ctx, ctx.db, page.items), nextCursor: page.nextCursor };
}

export async function resolveReport(ctx: MemberServiceContext, input: ResolveReportInput): Promise<AdminReportOutput> {
  return ctx.db.transaction(async (tx) => {
    // The row lock orders concurrent decisions on one report: the trail and the report agree.
    const [report] = await tx.select().from(reports).where(eq(reports.id, input.id)).for('update');
    if (!report) throw new AppError('not_found', 'No such report.');
    const decidedAt = ctx.clock.now();
    const keepEvidence = input.keepEvidence ?? false;
    if (keepEvidence) checkEvidenceCanBeKept(report, decidedAt);
    if (input.action === 'hide') await hideTarget(ctx, tx, report, input.status);
    const decision = {
      status: input.status,
      note: input.note || null,
      publicNote: input.publicNote || null,
      action: input.action ?? null,
    };
    // A decision moves the private text's deletion time (retention.ts); once deleted it stays so.
    const retention = privatePartLive(report, decidedAt)
      ? { sealedDeleteAt: deleteAtAfterDecision(report.sealedExpiresAt!, decidedAt, keepEvidence) }
      : {};
    await tx
      .update(reports)
      .set({ ...decision, ...retention, decidedAt, decidedById: ctx.user.id })
      .where(eq(reports.id, report.id));
    // The reporter is told the outcome (server/domains/notifications/member-pushes.ts).
    await tx.insert(pushOutbox).values({
      kind: 'reportOutcome',
      recipientId: report.reporterId,
      subjectId: report.id,
      notBefore: decidedAt,
      createdAt: decidedAt,
    });
    await tx.insert(reportDecisions).values({
      ...decision,
      reportId: report.id,
      targetType: report.targetType,
      targetId: report.targetId,
      keepEvidence,
      moderatorId: ctx.user.id,
      decidedAt,
    });
    const rows = await selectAdminReports(tx).where(eq(reports.id, report.id));
    return (await toAdminReports(ctx, tx, rows))[0]!;
  });
}

function checkEvidenceCanBeKept(report: ReportRow, now: Date) {
  if (report.sealedExpiresAt === null)
    throw new AppError('validation_failed', 'keepEvidence: Only a message report has private text to keep.');
  if (!privatePartLive(report, now))
    throw new AppError('conflict', "The message's text was already deleted, so there is nothing to keep.");
}

async function hideTarget(ctx: ServiceContext, tx: Tx, report: ReportRow, status: string) {
  if (status !== 'resolved') throw new AppError('validation_failed', 'Only a `resolved` decision can hide the target.');
  const hide = reportTarget(ctx, report.targetType)?.hide;
  if (!hide)
    throw new AppError('validation_failed', `A ${report.targetType} cannot be hidden; only posts and comments.`);
  if (!report.targetId || !(await hide(tx, report.targetId)))
    throw new AppError(
      'conflict',
      'The target no longer exists, so there is nothing to hide; decide without `action`.',
    );
}
