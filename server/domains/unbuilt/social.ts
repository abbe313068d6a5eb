// Friends: mounted, validated, answering 501 until their milestone.
// Visibility rules the milestone must keep: a post the caller may not see is 404 (spec), and
// /api/handles/{handle}/posts shows public posts only.
import { memberProcedure, notImplemented } from '../../trpc/procedures.js';
import { okOutput } from './common.js';
import * as s from './social.schemas.js';

const unbuilt = true as const;
const friends = ['friends'];

export const socialProcedures = {
  // Static /api/friends/... paths come before /api/friends/{userId} (same-method patterns match first-come).
  listFriends: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: { method: 'GET', path: '/api/friends', tags: friends, summary: "The caller's friends" },
    })
    .input(s.listFriendsInput())
    .output(s.friendListOutput)
    .query(() => notImplemented()),

  listFriendRequests: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'GET',
        path: '/api/friends/requests',
        tags: friends,
        summary: "The caller's open invites",
        description:
          "Friendships are made through invite codes only, so the open requests are the caller's issued invites that are neither used nor expired.",
      },
    })
    .input(s.listFriendRequestsInput())
    .output(s.openInviteListOutput)
    .query(() => notImplemented()),

  createInvite: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'invites.create',
      unbuilt,
      successStatus: 201,
      openapi: { method: 'POST', path: '/api/friends/invites', tags: friends, summary: 'Issue a friend invite code' },
    })
    .input(s.createInviteInput)
    .output(s.friendInviteOutput)
    .mutation(() => notImplemented()),

  acceptInvite: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'POST',
        path: '/api/friends/invites/{code}/accept',
        tags: friends,
        summary: 'Accept an invite: the two members become friends',
        description:
          "Codes are 12 base32 characters, case-insensitive, single use. Unknown, used or expired codes answer 404; the issuer's own code 409.",
      },
    })
    .input(s.acceptInviteInput)
    .output(s.friendOutput)
    .mutation(() => notImplemented()),

  removeFriend: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: { method: 'DELETE', path: '/api/friends/{userId}', tags: friends, summary: 'End a friendship' },
    })
    .input(s.friendUserIdInput)
    .output(okOutput)
    .mutation(() => notImplemented()),
};
