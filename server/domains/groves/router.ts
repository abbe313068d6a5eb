// Groves: wiring only (logic in service.ts).
import { router } from '../../trpc/init.js';
import { enforceWriteLimit, memberProcedure, publicProcedure } from '../../trpc/procedures.js';
import { okOutput } from '../../shared/schemas.js';
import * as membership from './membership.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['groves'];

export const grovesRouter = router({
  list: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/groves',
        tags,
        protect: false,
        summary: 'List groves',
        description: 'Member counts only, never member lists.',
      },
    })
    .input(schemas.listGrovesInput())
    .output(schemas.groveListOutput)
    .query(async ({ ctx, input }) => service.listGroves(ctx, await ctx.authenticate(), input)),

  get: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/groves/{grove}',
        tags,
        protect: false,
        summary: 'One grove',
        description: "Member counts only, never member lists. `myRole` is the caller's own membership.",
      },
    })
    .input(schemas.groveSlugInput)
    .output(schemas.groveOutput)
    .query(async ({ ctx, input }) => service.getGrove(ctx, await ctx.authenticate(), { slug: input.grove })),

  join: memberProcedure
    .meta({
      auth: 'member',
      errors: ['forbidden', 'rate_limited'],
      openapi: {
        method: 'POST',
        path: '/api/groves/{id}/join',
        tags,
        summary: 'Join a grove (or ask to)',
        description:
          "Follows the grove's `joinPolicy`: `open` makes a member at once; `approval` files a join request an organizer accepts or declines (`status: pending`); `invite` needs `code`. A valid invite code makes a member under any policy. 403 for an unknown, used-up or expired code and for `invite` without a code; a member the organizers banned gets one of those same answers (or a generic 403), never one that names the ban. A join with a `code` counts against the per-member limit shared with friend-invite accepts (429 past it). Idempotent; an organizer who joins again stays organizer.",
      },
    })
    .input(schemas.joinGroveInput)
    .output(schemas.joinGroveOutput)
    .mutation(async ({ ctx, input }) => {
      // A join with a code is a guess until it works: counted like friend-invite accepts (same
      // scope, one budget for every kind of code), so codes cannot be tried at speed (429).
      if (input.code !== undefined) await enforceWriteLimit(ctx, ctx.user.id, 'invites.accept');
      return membership.joinGrove(ctx, input);
    }),

  leave: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/groves/{id}/leave',
        tags,
        summary: 'Leave a grove',
        description:
          'Idempotent. An organizer who leaves stops being an organizer; a pending join request is withdrawn.',
      },
    })
    .input(schemas.leaveGroveInput())
    .output(okOutput)
    .mutation(({ ctx, input }) => service.leaveGrove(ctx, input)),

  // ---- organizers of the grove: settings, members, requests, bans, invites ----------------
  // The grove's existence is public: non-organizers get 403, an unknown grove 404. Site admins
  // are "everyone else" here (member lists are private, like attendee lists).

  update: memberProcedure
    .meta({
      auth: 'organizer',
      openapi: {
        method: 'PATCH',
        path: '/api/groves/{grove}',
        tags,
        summary: 'Change join policy, name or description (organizers)',
        description: 'Organizers of the grove only; others get 403.',
      },
    })
    .input(schemas.organizerUpdateGroveInput)
    .output(schemas.groveOutput)
    .mutation(({ ctx, input: { grove, ...fields } }) => membership.updateGroveSettings(ctx, { ...fields, id: grove })),

  members: memberProcedure
    .meta({
      auth: 'organizer',
      openapi: {
        method: 'GET',
        path: '/api/groves/{id}/members',
        tags,
        summary: 'Members of the grove (organizers only)',
        description:
          'Ordered by handle. Organizers of the grove only; everyone else sees counts (GET /api/groves/{grove}).',
      },
    })
    .input(schemas.groveListInput())
    .output(schemas.groveMemberListOutput)
    .query(({ ctx, input }) => membership.listMembers(ctx, input)),

  removeMember: memberProcedure
    .meta({
      auth: 'organizer',
      openapi: {
        method: 'DELETE',
        path: '/api/groves/{id}/members/{handle}',
        tags,
        summary: 'Remove a member (organizers)',
        description:
          'Idempotent. Removing an organizer removes the organizer role too. The member may join again unless banned (POST /api/groves/{id}/bans). Like a ban, it takes the member out of every conversation (one-to-one or group) in which another member of this grove is neither their friend nor in another grove with them; such a one-to-one conversation closes.',
      },
    })
    .input(schemas.groveMemberInput())
    .output(okOutput)
    .mutation(({ ctx, input }) => membership.removeMember(ctx, input)),

  joinRequests: memberProcedure
    .meta({
      auth: 'organizer',
      openapi: {
        method: 'GET',
        path: '/api/groves/{id}/join-requests',
        tags,
        summary: 'Pending join requests (organizers only)',
        description: 'Oldest first.',
      },
    })
    .input(schemas.groveListInput())
    .output(schemas.joinRequestListOutput)
    .query(({ ctx, input }) => membership.listJoinRequests(ctx, input)),

  acceptJoinRequest: memberProcedure
    .meta({
      auth: 'organizer',
      openapi: {
        method: 'PUT',
        path: '/api/groves/{id}/join-requests/{handle}/accept',
        tags,
        summary: 'Accept a join request (organizers)',
        description: 'The member joins. 404 when that member has no pending request.',
      },
    })
    .input(schemas.banInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => membership.acceptJoinRequest(ctx, input)),

  declineJoinRequest: memberProcedure
    .meta({
      auth: 'organizer',
      openapi: {
        method: 'PUT',
        path: '/api/groves/{id}/join-requests/{handle}/decline',
        tags,
        summary: 'Decline a join request (organizers)',
        description: 'The request goes; ban the member to stop new requests. 404 when there is none.',
      },
    })
    .input(schemas.banInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => membership.declineJoinRequest(ctx, input)),

  bans: memberProcedure
    .meta({
      auth: 'organizer',
      openapi: {
        method: 'GET',
        path: '/api/groves/{id}/bans',
        tags,
        summary: 'Banned members (organizers only)',
        description:
          "Ordered by handle, each with the organizers' `reason` (null when none was given). Organizers of the grove only.",
      },
    })
    .input(schemas.groveListInput())
    .output(schemas.groveBanListOutput)
    .query(({ ctx, input }) => membership.listBans(ctx, input)),

  ban: memberProcedure
    .meta({
      auth: 'organizer',
      errors: ['conflict'],
      openapi: {
        method: 'POST',
        path: '/api/groves/{id}/bans',
        tags,
        summary: 'Ban a member from the grove (organizers)',
        description:
          "Removes the membership (and the organizer role) and any pending request; the member cannot join again, not even with an invite code (403, an answer anybody could get: never one that names the ban). They leave every conversation (one-to-one or group) in which another member of the grove is neither their friend nor in another grove with them (a one-to-one conversation closes; realtime `conversation.left` to them, `conversation.changed` to the others). Their RSVPs to the grove's events that are not over are withdrawn, public events included, and new ones answer 403 (a refusal that does not name the ban) while the ban lasts, so an RSVP-only meeting point is no longer shown to them (the reveal log keeps what they already saw). Idempotent; banning yourself answers 409. `reason` (optional, up to 500 characters) is kept with the ban for the grove's organizers (GET /api/groves/{id}/bans) and never shown to the member.",
      },
    })
    .input(schemas.banMemberInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => membership.banMember(ctx, input)),

  unban: memberProcedure
    .meta({
      auth: 'organizer',
      openapi: {
        method: 'DELETE',
        path: '/api/groves/{id}/bans/{handle}',
        tags,
        summary: 'Lift a ban (organizers)',
        description: 'Idempotent. The member is not re-added; they may join again under the policy.',
      },
    })
    .input(schemas.groveMemberInput())
    .output(okOutput)
    .mutation(({ ctx, input }) => membership.unbanMember(ctx, input)),

  createInvite: memberProcedure
    .meta({
      auth: 'organizer',
      writeLimit: 'invites.create',
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/api/groves/{id}/invites',
        tags,
        summary: 'Issue an invite code (organizers)',
        description:
          'The code is shown once (only its hash is stored): 16 base32 characters, case-insensitive, valid `expiresInHours` (default 168, at most 720) for `maxUses` joins (default 1).',
      },
    })
    .input(schemas.createInviteInput)
    .output(schemas.groveInviteOutput)
    .mutation(({ ctx, input }) => membership.createInvite(ctx, input)),

  revokeInvite: memberProcedure
    .meta({
      auth: 'organizer',
      openapi: {
        method: 'DELETE',
        path: '/api/groves/{id}/invites/{inviteId}',
        tags,
        summary: 'Revoke an invite code (organizers)',
        description: 'Idempotent.',
      },
    })
    .input(schemas.revokeInviteInput())
    .output(okOutput)
    .mutation(({ ctx, input }) => membership.revokeInvite(ctx, input)),
});
