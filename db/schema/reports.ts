// Reports of content or members to the admins, and the audit trail of every moderation decision.
//
// A report keeps a snapshot of its target as the reporter saw it (jsonb), so deleting the
// target keeps the evidence. The target itself is not a foreign key: it may live in any
// domain's table and may be gone. Privacy on account deletion (server/domains/reports/
// account-cleanup.ts): reports a member filed go with the account (cascade); reports ABOUT a
// member keep the reported words but lose every trace of the member's identity. What is private
// in a snapshot (a reported message's text, which is encrypted at rest where it came from) is
// sealed under MESSAGE_KEYS and deleted by a retention rule (server/domains/reports/retention.ts).
import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { bytea, createdAt, idColumn } from './columns.js';

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
    /**
     * The private part of the snapshot (a message's text: ReportSnapshot.sealed), as JSON sealed
     * under MESSAGE_KEYS: key id, nonce, ciphertext with its tag. Null when there is none or once
     * the retention sweep deleted it.
     */
    sealedKeyId: text(),
    sealedNonce: bytea(),
    sealedCiphertext: bytea(),
    /** The private part's own expiry (a message's expiresAt when reported); fixed. */
    sealedExpiresAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** When the retention sweep deletes the private part (server/domains/reports/retention.ts). */
    sealedDeleteAt: timestamp({ withTimezone: true, mode: 'date' }),
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
    index('reports_sealed_delete_at_idx').on(t.sealedDeleteAt).where(sql`${t.sealedDeleteAt} is not null`),
    check(
      'reports_sealed_whole',
      sql`(${t.sealedKeyId} is null) = (${t.sealedCiphertext} is null) and (${t.sealedNonce} is null) = (${t.sealedCiphertext} is null)`,
    ),
    check('reports_sealed_has_retention', sql`${t.sealedCiphertext} is null or ${t.sealedDeleteAt} is not null`),
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
    /** The moderator kept the report's private text (a message's) as evidence past its own expiry. */
    keepEvidence: boolean().notNull().default(false),
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
