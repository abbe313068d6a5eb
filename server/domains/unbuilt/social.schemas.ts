// Friends: inputs and outputs.
// Friendships are made only through invite codes (spec: Friend invite states), so "friend
// requests" are the caller's own invites that are still open (issued, not used, not expired).
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { inviteCodeParam, jsonNumber, memberRef, uuidParam } from './common.js';

export const POST_LIMITS = { body: 5000, comment: 2000, images: 4 } as const;

export const postVisibilities = ['public', 'friends', 'grove'] as const;
export const reactionKinds = ['heart', 'support', 'celebrate', 'sad'] as const;

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
