// Friends, feed, posts, reactions, comments, saves and reports: inputs and outputs.
// Friendships are made only through invite codes (spec: Friend invite states), so "friend
// requests" are the caller's own invites that are still open (issued, not used, not expired).
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { inviteCodeParam, jsonNumber, memberRef, uuidParam } from './common.js';
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

// ---- friends ----

export const friendOutput = z
  .object({ _id: z.string().meta({ description: 'Id of the friendship.' }), user: memberRef, since: z.string() })
  .meta({ id: 'Friend' });
export const friendListOutput = listEnvelope(friendOutput);

export const friendInviteOutput = z.object({ code: z.string(), expiresAt: z.string() }).meta({
  id: 'FriendInvite',
  description: 'Share the code; whoever accepts it first becomes a friend of the issuer.',
});
export const openInviteOutput = z
  .object({ _id: z.string(), code: z.string(), expiresAt: z.string(), createdAt: z.string() })
  .meta({ id: 'OpenFriendInvite' });
export const openInviteListOutput = listEnvelope(openInviteOutput);

export const listFriendsInput = () => z.object(pageQueryFields());
export const listFriendRequestsInput = () => z.object(pageQueryFields());
export const createInviteInput = z
  .object({
    expiresInDays: jsonNumber(z.number().int().min(1).max(30))
      .optional()
      .meta({ description: 'Lifetime of the code, 1–30 days; default 7.' }),
  })
  .strict()
  .meta({ examples: [{ expiresInDays: 7 }] });
export const acceptInviteInput = z.object({ code: inviteCodeParam() });
export const friendUserIdInput = z.object({ userId: uuidParam() });

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
