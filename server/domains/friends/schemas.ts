// Friends: invite codes in, friendships out. A friend appears as a MemberRef (id and handle),
// never with an email or any other account field.
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { inviteCodeParam, memberRef, uuidParam } from '../../shared/schemas.js';

/** How many invites one member may hold open (issued, not used, not expired) at once. */
export const MAX_OPEN_INVITES = 20;
export const INVITE_LIFETIME_DAYS = { default: 7, min: 1, max: 30 } as const;

export const friendOutput = z
  .object({
    _id: z.string().meta({ description: 'Id of the friendship (the same for both friends).' }),
    user: memberRef,
    since: z.string().meta({ description: 'When the invite was accepted.' }),
  })
  .strict()
  .meta({ id: 'Friend' });
export const friendListOutput = listEnvelope(friendOutput);

export const friendInviteOutput = z
  .object({
    _id: z.string().meta({ description: 'Id of the invite: revoke it with DELETE /api/friends/invites/{inviteId}.' }),
    code: z.string().meta({
      description: '12 base32 characters, case-insensitive. Shown once: only its hash is stored.',
      example: 'k7qp2xw4mzrt',
    }),
    expiresAt: z.string(),
  })
  .strict()
  .meta({
    id: 'FriendInvite',
    description: 'Share the code; whoever accepts it first becomes a friend of the issuer.',
  });

export const openInviteOutput = z
  .object({ _id: z.string(), expiresAt: z.string(), createdAt: z.string() })
  .strict()
  .meta({
    id: 'OpenFriendInvite',
    description: 'An invite of the caller that is neither used nor expired. The code itself is not kept.',
  });
export const openInviteListOutput = listEnvelope(openInviteOutput);

export const listFriendsInput = () => z.object(pageQueryFields());
export const listFriendRequestsInput = () => z.object(pageQueryFields());
export const createInviteInput = z
  .object({
    expiresInDays: z
      .number()
      .int()
      .min(INVITE_LIFETIME_DAYS.min)
      .max(INVITE_LIFETIME_DAYS.max)
      .default(INVITE_LIFETIME_DAYS.default)
      .meta({ description: 'Lifetime of the code in days, 1–30; default 7.' }),
  })
  .strict()
  .meta({ examples: [{ expiresInDays: 7 }, {}] });
export const acceptInviteInput = z.object({ code: inviteCodeParam() });
export const friendUserIdInput = () => z.object({ userId: uuidParam() });
export const revokeInviteInput = () => z.object({ inviteId: uuidParam() });
