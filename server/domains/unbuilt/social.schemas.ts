// Friends, feed, posts, reactions, comments and saves: inputs and outputs.
// Friendships are made only through invite codes (spec: Friend invite states), so "friend
// requests" are the caller's own invites that are still open (issued, not used, not expired).
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { handleParam, inviteCodeParam, jsonNumber, memberRef, uuidParam } from './common.js';

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

// ---- posts ----

const reactionCounts = z.object(
  Object.fromEntries(reactionKinds.map((k) => [k, z.number().int()])) as Record<
    (typeof reactionKinds)[number],
    z.ZodNumber
  >,
);

export const postOutput = z
  .object({
    _id: z.string(),
    author: memberRef,
    body: z.string(),
    visibility: z.enum(postVisibilities),
    groveId: z.string().nullable(),
    imageUrls: z.array(z.string()),
    reactions: reactionCounts,
    myReaction: z
      .enum(reactionKinds)
      .nullable()
      .meta({ description: "The caller's reaction; null when none or anonymous." }),
    commentCount: z.number().int(),
    saved: z.boolean().meta({ description: 'Whether the caller saved it; false when anonymous.' }),
    createdAt: z.string(),
  })
  .meta({ id: 'Post' });
export const postListOutput = listEnvelope(postOutput);

export const feedInput = () =>
  z.object({
    scope: z
      .string()
      .regex(FEED_SCOPE_PATTERN, 'Must be friends, public or grove:<uuid>.')
      .default('friends')
      .meta({ description: '`friends` (default), `public`, or `grove:<uuid>`.' }),
    ...pageQueryFields(),
  });

export const createPostInput = z
  .object({
    body: z.string().trim().min(1).max(POST_LIMITS.body),
    visibility: z.enum(postVisibilities),
    groveId: uuidParam()
      .optional()
      .meta({ description: 'Required when visibility is `grove`; the caller must be a member.' }),
    imageKeys: z
      .array(z.string().min(1).max(200))
      .max(POST_LIMITS.images)
      .default([])
      .meta({ description: 'Keys from POST /api/uploads/image/presign (purpose `post`).' }),
  })
  .strict()
  .refine((v) => (v.visibility === 'grove') === (v.groveId !== undefined), {
    message: 'groveId is required for grove visibility and only allowed with it.',
    path: ['groveId'],
  })
  .meta({
    description: '`groveId` is required with `visibility: grove` and allowed only with it.',
    examples: [
      {
        body: 'Great turnout at the vigil today!',
        visibility: 'grove',
        groveId: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6',
        imageKeys: [],
      },
    ],
  });

export const postIdInput = z.object({ id: uuidParam() });
export const reactInput = z
  .object({ id: uuidParam(), kind: z.enum(reactionKinds) })
  .strict()
  .meta({ examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', kind: 'heart' }] });
export const reactionStateOutput = z
  .object({ reactions: reactionCounts, myReaction: z.enum(reactionKinds).nullable() })
  .meta({ id: 'ReactionState' });

export const commentOutput = z
  .object({ _id: z.string(), postId: z.string(), author: memberRef, body: z.string(), createdAt: z.string() })
  .meta({ id: 'Comment' });
export const commentListOutput = listEnvelope(commentOutput);
export const listCommentsInput = () => z.object({ id: uuidParam(), ...pageQueryFields() });
export const createCommentInput = z
  .object({ id: uuidParam(), body: z.string().trim().min(1).max(POST_LIMITS.comment) })
  .strict()
  .meta({ examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', body: 'Thanks for organising!' }] });

export const handlePostsInput = () => z.object({ handle: handleParam(), ...pageQueryFields() });
