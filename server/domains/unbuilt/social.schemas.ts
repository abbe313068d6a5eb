// Reports: inputs and outputs (the posts domain owns its own schemas).
import { z } from 'zod';
import { uuidParam } from './common.js';
import { reportTargetTypes } from '../reports/targets.js';

export const POST_LIMITS = { body: 5000, comment: 2000, images: 4, reportDetails: 1000 } as const;

export const postVisibilities = ['public', 'friends', 'grove'] as const;
export const reactionKinds = ['heart', 'support', 'celebrate', 'sad'] as const;
export { reportTargetTypes } from '../reports/targets.js';
export const reportReasons = ['spam', 'harassment', 'hate', 'violence', 'misinformation', 'other'] as const;
export const reportStatuses = ['open', 'resolved', 'dismissed'] as const;

/** Feed scope: `friends`, `public`, or `grove:<uuid>` for one grove the caller belongs to. */
export const FEED_SCOPE_PATTERN =
  /^(friends|public|grove:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

// ---- reports ----

export const createReportInput = z
  .object({
    targetType: z.enum(reportTargetTypes),
    targetId: uuidParam(),
    reason: z.enum(reportReasons),
    details: z.string().trim().max(POST_LIMITS.reportDetails).optional(),
  })
  .strict()
  .meta({
    examples: [
      {
        targetType: 'post',
        targetId: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6',
        reason: 'spam',
        details: 'Advertising in every grove.',
      },
    ],
  });

/** The reporter's own receipt; the reporter's identity is shown only to admins. */
export const reportOutput = z
  .object({
    _id: z.string(),
    targetType: z.enum(reportTargetTypes),
    targetId: z.string(),
    reason: z.enum(reportReasons),
    details: z.string().nullable(),
    status: z.enum(reportStatuses),
    createdAt: z.string(),
  })
  .meta({ id: 'Report' });
