// The admins' side of reports: the queue (with each target's snapshot and its state now) and
// decisions. A decision may be revisited (a second opinion, a corrected note): the report shows
// the latest one and report_decisions keeps every one, append-only. A `hide` is not undone by a
// later decision: hiding belongs to the content's own domain.
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx, Tx } from '../../../db/client.js';
import { memberPushQueue, reportDecisions, type ReportRow, reports, users } from '../../../db/schema/index.js';
import { AppError } from '../../errors.js';
import { decodeCursor, toPage } from '../../lib/pagination.js';
import type { MemberContext } from '../../shared/context.js';
import type { Context } from '../../trpc/context.js';
import type { AdminListReportsInput, AdminReportOutput, ResolveReportInput } from './schemas.js';
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
async function targetStates(db: DbOrTx, rows: ReportRow[]) {
  const states = new Map<string, AdminReportOutput['target']['state']>();
  const byType = new Map<ReportTargetType, string[]>();
  for (const row of rows) {
    if (row.targetId) byType.set(row.targetType, [...(byType.get(row.targetType) ?? []), row.targetId]);
  }
  for (const [type, ids] of byType) {
    const stateOf = reportTarget(type)?.states;
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
      decidedAt: d.decidedAt.toISOString(),
    });
    byReport.set(d.reportId!, list);
  }
  return byReport;
}

async function toAdminReports(db: DbOrTx, rows: AdminRow[]): Promise<AdminReportOutput[]> {
  const states = await targetStates(
    db,
    rows.map((r) => r.report),
  );
  const decisions = await decisionsOf(
    db,
    rows.map((r) => r.report.id),
  );
  return rows.map(({ report, reporterHandle, authorHandle, deciderHandle }) => ({
    ...toReport(report),
    reporter: { _id: report.reporterId, handle: reporterHandle },
    note: report.note,
    decidedBy: ref(report.decidedById, deciderHandle),
    target: {
      author: ref(report.targetAuthorId, authorHandle),
      authorDeleted: report.authorDeleted,
      state: report.targetId ? (states.get(`${report.targetType}:${report.targetId}`) ?? 'unknown') : 'deleted',
      snapshot: report.snapshot,
    },
    decisions: decisions.get(report.id) ?? [],
  }));
}

/** Oldest first (a queue), filtered by status, target type and reason. */
export async function adminListReports(ctx: Context, input: AdminListReportsInput) {
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
  const rows = await selectAdminReports(ctx.db)
    .where(
      and(
        input.status ? eq(reports.status, input.status) : undefined,
        input.targetType ? eq(reports.targetType, input.targetType) : undefined,
        input.reason ? eq(reports.reason, input.reason) : undefined,
        after ? gt(reports.id, after) : undefined,
      ),
    )
    .orderBy(asc(reports.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (row) => row.report.id);
  return { items: await toAdminReports(ctx.db, page.items), nextCursor: page.nextCursor };
}

export async function resolveReport(ctx: MemberContext, input: ResolveReportInput): Promise<AdminReportOutput> {
  return ctx.db.transaction(async (tx) => {
    // The row lock orders concurrent decisions on one report: the trail and the report agree.
    const [report] = await tx.select().from(reports).where(eq(reports.id, input.id)).for('update');
    if (!report) throw new AppError('not_found', 'No such report.');
    if (input.action === 'hide') await hideTarget(tx, report, input.status);
    const decidedAt = ctx.clock.now();
    const decision = {
      status: input.status,
      note: input.note || null,
      publicNote: input.publicNote || null,
      action: input.action ?? null,
    };
    await tx
      .update(reports)
      .set({ ...decision, decidedAt, decidedById: ctx.user.id })
      .where(eq(reports.id, report.id));
    // The reporter is told the outcome (server/jobs/member-pushes.ts).
    await tx
      .insert(memberPushQueue)
      .values({ userId: report.reporterId, kind: 'reportOutcomes', subjectId: report.id, queuedAt: decidedAt });
    await tx.insert(reportDecisions).values({
      ...decision,
      reportId: report.id,
      targetType: report.targetType,
      targetId: report.targetId,
      moderatorId: ctx.user.id,
      decidedAt,
    });
    const rows = await selectAdminReports(tx).where(eq(reports.id, report.id));
    return (await toAdminReports(tx, rows))[0]!;
  });
}

async function hideTarget(tx: Tx, report: ReportRow, status: string) {
  if (status !== 'resolved') throw new AppError('validation_failed', 'Only a `resolved` decision can hide the target.');
  const hide = reportTarget(report.targetType)?.hide;
  if (!hide)
    throw new AppError('validation_failed', `A ${report.targetType} cannot be hidden; only posts and comments.`);
  if (!report.targetId || !(await hide(tx, report.targetId)))
    throw new AppError(
      'conflict',
      'The target no longer exists, so there is nothing to hide; decide without `action`.',
    );
}
