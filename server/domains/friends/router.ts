// Friends: wiring only (logic in service.ts). Static /api/friends/... paths come before
// /api/friends/{userId}: same-method patterns match first-come.
import { router } from '../../trpc/init.js';
import { memberProcedure } from '../../trpc/procedures.js';
import { okOutput } from '../../shared/schemas.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['friends'];

export const friendsRouter = router({
  list: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/friends',
        tags,
        summary: "The caller's friends",
        description: 'Oldest friendship first. Each friend shows only `_id` and handle, never an email.',
      },
    })
    .input(schemas.listFriendsInput())
    .output(schemas.friendListOutput)
    .query(({ ctx, input }) => service.listFriends(ctx, input)),

  listRequests: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/friends/requests',
        tags,
        summary: "The caller's open invites",
        description:
          "Friendships are made through invite codes only, so the open requests are the caller's own issued invites that are neither used, revoked nor expired, oldest first. Codes are not shown again (only their hash is kept); revoke one by `_id`. Nobody sees the invites of anyone else.",
      },
    })
    .input(schemas.listFriendRequestsInput())
    .output(schemas.openInviteListOutput)
    .query(({ ctx, input }) => service.listOpenInvites(ctx, input)),

  createInvite: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'invites.create',
      successStatus: 201,
      // The answer is a secret (the code): it must not be stored for an Idempotency-Key replay.
      idempotent: false,
      errors: ['conflict'],
      openapi: {
        method: 'POST',
        path: '/api/friends/invites',
        tags,
        summary: 'Issue a friend invite code',
        description:
          'The code (12 base32 characters, case-insensitive, single use) is shown once: only its hash is stored. Lifetime `expiresInDays` 1–30, default 7. A member holds at most 20 open invites; the 21st answers 409 `conflict` until one is used, revoked or expires.',
      },
    })
    .input(schemas.createInviteInput)
    .output(schemas.friendInviteOutput)
    .mutation(({ ctx, input }) => service.createInvite(ctx, input)),

  acceptInvite: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'invites.accept',
      errors: ['conflict'],
      openapi: {
        method: 'POST',
        path: '/api/friends/invites/{code}/accept',
        tags,
        summary: 'Accept an invite: the two members become friends',
        description:
          "The caller and the issuer become friends at once, both ways; the code is used up. An unknown, used, revoked or expired code answers the same 404 `not_found` (they cannot be told apart). The caller's own code, or a code of someone who is already a friend, answers 409 `conflict` and the code stays open. Of two concurrent accepts of one code, one wins; the other gets 404. Attempts count against the per-member write limit (429).",
      },
    })
    .input(schemas.acceptInviteInput)
    .output(schemas.friendOutput)
    .mutation(({ ctx, input }) => service.acceptInvite(ctx, input)),

  revokeInvite: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/friends/invites/{inviteId}',
        tags,
        summary: "Revoke one of the caller's open invites",
        description:
          "Idempotent: an unknown, used, expired or already revoked invite, or someone else's, answers `ok` too and changes nothing.",
      },
    })
    .input(schemas.revokeInviteInput())
    .output(okOutput)
    .mutation(({ ctx, input }) => service.revokeInvite(ctx, input)),

  remove: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/friends/{userId}',
        tags,
        summary: 'End a friendship',
        description:
          'Ends it for both members at once (their `friends` events and posts are hidden from each other from the next request). Idempotent: `ok` also when the two are not friends.',
      },
    })
    .input(schemas.friendUserIdInput())
    .output(okOutput)
    .mutation(({ ctx, input }) => service.removeFriend(ctx, input)),
});
