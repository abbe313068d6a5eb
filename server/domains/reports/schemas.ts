// Inputs and outputs of the report routes. Two faces of one report: the reporter's (`Report`:
// status and the public part of the outcome, never who decided) and the admins' (`AdminReport`:
// reporter, snapshot, target state, internal note, the whole decision trail).
import { z } from 'zod';
import {
  reportActions,
  reportDecisionStatuses,
  reportReasons,
  reportStatuses,
  reportTargetTypes,
} from '../../../db/schema/reports.js';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { memberRef, uuidParam } from '../../shared/schemas.js';

export const REPORT_LIMITS = { details: 1000, note: 2000, publicNote: 1000 } as const;

export const EXAMPLE_ID = '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6';

export const createReportInput = z
  .object({
    targetType: z.enum(reportTargetTypes),
    targetId: uuidParam(),
    reason: z.enum(reportReasons),
    details: z
      .string()
      .trim()
      .max(REPORT_LIMITS.details)
      .optional()
      .meta({ description: `What the admins should know, up to ${REPORT_LIMITS.details} characters.` }),
  })
  .strict()
  .meta({
    examples: [{ targetType: 'post', targetId: EXAMPLE_ID, reason: 'spam', details: 'Advertising in every grove.' }],
  });
export type CreateReportInput = z.infer<typeof createReportInput>;

/** The reporter's view of their report: never the moderator, never the internal note. */
export const reportOutput = z
  .object({
    _id: z.string(),
    targetType: z.enum(reportTargetTypes),
    targetId: z
      .string()
      .nullable()
      .meta({ description: 'Null only for a reported member who has since deleted the account.' }),
    reason: z.enum(reportReasons),
    details: z.string().nullable(),
    status: z.enum(reportStatuses),
    publicNote: z.string().nullable().meta({ description: "The admins' message to the reporter about the outcome." }),
    action: z
      .enum(reportActions)
      .nullable()
      .meta({ description: '`hide`: the reported post or comment was hidden from everyone.' }),
    decidedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({
    id: 'Report',
    description:
      "A report as its reporter sees it: its status and the public part of the latest decision. Who decided, and the admins' internal note, are never shown to the reporter.",
  });
export type ReportOutput = z.infer<typeof reportOutput>;

export const listMyReportsInput = () => z.object(pageQueryFields());

const targetStates = ['present', 'hidden', 'deleted', 'unknown'] as const;

export const reportDecisionOutput = z
  .object({
    _id: z.string(),
    moderator: memberRef.nullable().meta({ description: "Null once the moderator's account was deleted." }),
    status: z.enum(reportDecisionStatuses),
    action: z.enum(reportActions).nullable(),
    note: z.string().nullable(),
    publicNote: z.string().nullable(),
    keepEvidence: z.boolean().meta({
      description: "The moderator kept the report's private text (a message's) as evidence past its own expiry.",
    }),
    decidedAt: z.string(),
  })
  .meta({ id: 'ReportDecision' });

export const privateTextRetention = z
  .object({
    deleteAt: z.string().nullable().meta({
      description:
        'When the private text is deleted (null once it is): its own expiry while the report is open; after a decision 30 days later or its own expiry, whichever is sooner; 365 days after a decision with `keepEvidence`.',
    }),
    expiresAt: z
      .string()
      .meta({ description: "The text's own expiry: the message's `expiresAt` when it was reported." }),
    keptAsEvidence: z.boolean().meta({ description: 'The latest decision kept it (`keepEvidence`).' }),
    unreadable: z.literal(true).optional().meta({
      description:
        'Present only when the sealed text could not be decrypted (its key was removed from MESSAGE_KEYS too early): the snapshot then lacks it.',
    }),
  })
  .meta({
    id: 'ReportPrivateTextRetention',
    description:
      "A reported message's text is private: sealed at rest and deleted by this rule (the rest of the snapshot stays). Null for every other target type.",
  });

export const adminReportOutput = reportOutput
  .extend({
    reporter: memberRef,
    note: z.string().nullable().meta({ description: 'Internal note of the latest decision; admins only.' }),
    decidedBy: memberRef.nullable().meta({ description: 'Moderator of the latest decision (null: none, or deleted).' }),
    target: z
      .object({
        author: memberRef
          .nullable()
          .meta({ description: 'Who wrote or owns the target now (null: no single author, or deleted account).' }),
        authorDeleted: z.boolean().meta({
          description: 'The author deleted the account: the snapshot lost their id and handle, kept the words.',
        }),
        state: z.enum(targetStates).meta({
          description:
            '`present`, `hidden` (by a moderator), `deleted` (gone; the snapshot remains), `unknown` (its domain does not report state).',
        }),
        snapshot: z.record(z.string(), z.unknown()).meta({
          description:
            "The target as the reporter saw it when reporting. A message's `text` is in it until `privateText.deleteAt`, then absent.",
        }),
        privateText: privateTextRetention.nullable(),
      })
      .meta({ id: 'ReportTargetView' }),
    decisions: z.array(reportDecisionOutput).meta({ description: 'Every decision on this report, oldest first.' }),
  })
  .meta({ id: 'AdminReport' });
export type AdminReportOutput = z.infer<typeof adminReportOutput>;

export const adminListReportsInput = () =>
  z.object({
    status: z.enum(reportStatuses).optional().meta({ description: 'Default: every status.' }),
    targetType: z.enum(reportTargetTypes).optional(),
    reason: z.enum(reportReasons).optional(),
    ...pageQueryFields(),
  });
export type AdminListReportsInput = z.infer<ReturnType<typeof adminListReportsInput>>;

export const resolveReportInput = z
  .object({
    id: uuidParam(),
    status: z.enum(reportDecisionStatuses),
    note: z.string().trim().max(REPORT_LIMITS.note).optional().meta({ description: 'Internal: seen by admins only.' }),
    publicNote: z
      .string()
      .trim()
      .max(REPORT_LIMITS.publicNote)
      .optional()
      .meta({ description: 'Shown to the reporter with the outcome (never who decided).' }),
    action: z.enum(reportActions).optional().meta({
      description:
        '`hide` (posts and comments, with `resolved` only): the target then answers 404 to everyone but admins.',
    }),
    keepEvidence: z.boolean().optional().meta({
      description:
        "Message reports: keep the message's text as evidence for 365 days from this decision, even past the message's own expiry (default false: the text goes 30 days after the decision, or at the message's expiry if sooner). 400 for a target without private text, 409 when the text was already deleted.",
    }),
  })
  .strict()
  .meta({
    examples: [
      {
        id: EXAMPLE_ID,
        status: 'resolved',
        note: 'Third spam post from this account this week.',
        publicNote: 'Thanks: the post was hidden.',
        action: 'hide',
      },
    ],
  });
export type ResolveReportInput = z.infer<typeof resolveReportInput>;

export const myReportListOutput = listEnvelope(reportOutput);
export const adminReportListOutput = listEnvelope(adminReportOutput);
