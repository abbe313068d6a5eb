// Reports of content or members to the admins, and the audit trail of every moderation decision.
//
// A report keeps a snapshot of its target as the reporter saw it (jsonb), so deleting the
// target keeps the evidence. The target itself is not a foreign key: it may live in any
// domain's table and may be gone. Privacy on account deletion (server/domains/reports/
// account-cleanup.ts): reports a member filed go with the account (cascade); reports ABOUT a
// member keep the reported words but lose every trace of the member's identity.
import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, idColumn } from './columns.js';

export const reportTargetTypes = ['post', 'comment', 'member', 'message', 'place', 'review', 'event'] as const;
export const reportReasons = ['spam', 'harassment', 'hate', 'violence', 'misinformation', 'other'] as const;
export const reportStatuses = ['open', 'resolved', 'dismissed'] as const;
export const reportDecisionStatuses = ['resolved', 'dismissed'] as const;
export const reportActions = ['hide'] as const;

export const reports = pgTable(
  'reports',
  {
    id: idColumn(),
    /** Shown to admins only. The member's reports are deleted with the account. */
    reporterId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    targetType: text({ enum: reportTargetTypes }).notNull(),
    /** Null only for a `member` target whose account was deleted (the id would name them). */
    targetId: uuid(),
    /** The member who wrote or owns the target, for moderators; null when none or deleted. */
    targetAuthorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    /** The target's author deleted the account: the snapshot lost their identity, kept the words. */
    authorDeleted: boolean().notNull().default(false),
    reason: text({ enum: reportReasons }).notNull(),
    details: text(),
    /** The target's content as the reporter saw it (the registry's ReportSnapshot.content). */
    snapshot: jsonb().$type<Record<string, unknown>>().notNull(),
    status: text({ enum: reportStatuses }).notNull().default('open'),
    /** Latest decision (the whole history is in report_decisions). */
    decidedAt: timestamp({ withTimezone: true, mode: 'date' }),
    decidedById: uuid().references(() => users.id, { onDelete: 'set null' }),
    /** For admins only. */
    note: text(),
    /** Shown to the reporter with the outcome. */
    publicNote: text(),
    action: text({ enum: reportActions }),
    createdAt: createdAt(),
  },
  (t) => [
    // One open report per reporter and target; once decided, the reporter may report it again.
    uniqueIndex('reports_one_open_per_reporter_key')
      .on(t.reporterId, t.targetType, t.targetId)
      .where(sql`${t.status} = 'open'`),
    index('reports_reporter_id_idx').on(t.reporterId, t.id),
    index('reports_target_author_id_idx').on(t.targetAuthorId),
    index('reports_decided_by_id_idx').on(t.decidedById),
    index('reports_status_id_idx').on(t.status, t.id),
    index('reports_target_type_id_idx').on(t.targetType, t.id),
    index('reports_target_idx').on(t.targetType, t.targetId),
  ],
);

/**
 * Every moderation decision, append-only. It outlives its report (a reporter's account deletion
 * removes the report; the decision stays with report_id null) and names the target itself, so
 * "who hid this post, when, why" can always be answered.
 */
export const reportDecisions = pgTable(
  'report_decisions',
  {
    id: idColumn(),
    reportId: uuid().references(() => reports.id, { onDelete: 'set null' }),
    targetType: text({ enum: reportTargetTypes }).notNull(),
    /** Null only for a `member` target whose account was deleted. */
    targetId: uuid(),
    /** Null once the moderator's account is deleted. */
    moderatorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    status: text({ enum: reportDecisionStatuses }).notNull(),
    action: text({ enum: reportActions }),
    note: text(),
    publicNote: text(),
    decidedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('report_decisions_report_id_idx').on(t.reportId, t.id),
    index('report_decisions_moderator_id_idx').on(t.moderatorId),
    index('report_decisions_target_idx').on(t.targetType, t.targetId),
  ],
);

export type ReportRow = typeof reports.$inferSelect;
export type ReportDecisionRow = typeof reportDecisions.$inferSelect;
