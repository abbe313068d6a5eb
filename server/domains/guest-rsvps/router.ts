// Guest RSVPs: wiring only (service.ts for guests, organizers.ts for the event's organizers).
// The guests' own routes ignore the Authorization header (signInProcedure): the address and the
// mailed tokens are the whole credential, whoever sends them.
import { okOutput } from '../../shared/schemas.js';
import { router } from '../../trpc/init.js';
import { memberProcedure, signInProcedure } from '../../trpc/procedures.js';
import * as organizers from './organizers.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['events'];

/** Procedures under `events` (/api/events/{id}/guest-…). */
export const eventGuestsRouter = router({
  createGuestRsvp: signInProcedure
    .meta({
      auth: 'public',
      successStatus: 202,
      errors: ['rate_limited'],
      openapi: {
        method: 'POST',
        path: '/api/events/{id}/guest-rsvps',
        tags,
        protect: false,
        summary: 'RSVP without an account (mails a confirm link)',
        description: [
          'Always 202 `{ accepted: true }`, with the same body and before anything is looked up. Only a scheduled public event that is not over takes guests, and only then is a single-use confirm link (15 minutes, like a magic link) mailed to the address, in `locale`. An unknown, grove-only, friends-only, cancelled or ended event, and an address already confirmed for the event, get the same 202 and no mail. Whether the address has an account is never looked up: every address gets the same mail, which also suggests signing in.',
          'Asking again before confirming replaces the link (and the status). Limits as for magic links: past the per-client-address limit 429 `rate_limited` with Retry-After; past the per-email-and-address or per-email ceiling, the same 202 and no mail.',
        ].join('\n\n'),
      },
    })
    .input(schemas.guestRsvpInput)
    .output(schemas.acceptedOutput)
    .mutation(({ ctx, input }) => service.requestGuestRsvp(ctx, input)),

  listGuestRsvps: memberProcedure
    .meta({
      auth: 'organizer',
      openapi: {
        method: 'GET',
        path: '/api/events/{id}/guest-rsvps',
        tags,
        summary: 'Guests who RSVP’d without an account (organizers)',
        description:
          'Confirmed guests only, each as `kind: guest` with the first letter and domain of the address (`j…@example.org`). Organizers of the host only (like attendees: others who can see the event 403, the rest 404). Approved guests are included in `rsvpCounts`, and `going` ones (pending included) take seats.',
      },
    })
    .input(schemas.guestListInput())
    .output(schemas.guestListOutput)
    .query(({ ctx, input }) => organizers.listGuests(ctx, input)),

  approveGuestRsvp: memberProcedure
    .meta({
      auth: 'organizer',
      openapi: {
        method: 'PUT',
        path: '/api/events/{id}/guest-rsvps/{guestId}/approve',
        tags,
        summary: 'Approve a guest (organizers)',
        description:
          'For events whose meeting point is for RSVPs only (guests start pending there, whatever `rsvpApproval` says): the guest is counted, and the meeting point is mailed to them once and recorded in the guest reveal log. Organizers of the host only (others who can see the event 403, the rest 404); 404 when the event has no such confirmed guest.',
      },
    })
    .input(schemas.guestRefInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => organizers.approveGuest(ctx, input)),

  declineGuestRsvp: memberProcedure
    .meta({
      auth: 'organizer',
      openapi: {
        method: 'PUT',
        path: '/api/events/{id}/guest-rsvps/{guestId}/decline',
        tags,
        summary: 'Decline (remove) a guest (organizers)',
        description:
          'Deletes the guest’s RSVP, pending or approved (their withdraw link then answers 404); a freed seat goes to the first member waiting. 404 when the event has no such guest.',
      },
    })
    .input(schemas.guestRefInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => organizers.declineGuest(ctx, input)),

  listGuestReveals: memberProcedure
    .meta({
      auth: 'organizer',
      openapi: {
        method: 'GET',
        path: '/api/events/{id}/guest-reveals',
        tags,
        summary: 'Guests the meeting point was mailed to (organizers)',
        description:
          'Every guest to whom the RSVP-only meeting point was mailed (at approval), with the first time, also after they withdrew (`rsvp: null`). Kept as long as RSVP rows (deleted 30 days after the event ends). Organizers of the host only (others who can see the event 403, the rest 404).',
      },
    })
    .input(schemas.guestListInput())
    .output(schemas.guestRevealListOutput)
    .query(({ ctx, input }) => organizers.listGuestReveals(ctx, input)),
});

/** The guest's own routes (/api/guest-rsvps/…), reached with the tokens of the mails. */
export const guestRsvpsRouter = router({
  confirm: signInProcedure
    .meta({
      auth: 'public',
      errors: ['not_found', 'conflict'],
      openapi: {
        method: 'POST',
        path: '/api/guest-rsvps/confirm',
        tags,
        protect: false,
        summary: 'Confirm a guest RSVP with the mailed token',
        description: [
          'The mail’s link opens a web page that POSTs the token here (a GET never spends it). Single use: a used, expired or unknown token answers 404 `not_found`. 200 with the event, the status, `pending` (the meeting point is RSVP-only: it is mailed once an organizer approves) and `withdrawToken`, which is also mailed.',
          '409 `conflict` when the event was cancelled or is over, or, for `going`, when every seat is taken or members wait on the waitlist (guests do not wait: RSVP as `interested` instead); the request is then deleted. An event no longer public answers 404.',
        ].join('\n\n'),
      },
    })
    .input(schemas.confirmInput)
    .output(schemas.confirmOutput)
    .mutation(({ ctx, input }) => service.confirmGuestRsvp(ctx, input)),

  delete: signInProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'DELETE',
        path: '/api/guest-rsvps/{token}',
        tags,
        protect: false,
        summary: 'Withdraw a guest RSVP',
        description:
          'The token is the `withdrawToken` of the confirmation (also mailed). Deletes the RSVP; a freed seat goes to the first member waiting. 404 `not_found` for a token unknown or already used (withdrawn, declined, or swept 30 days after the event).',
      },
    })
    .input(schemas.withdrawInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => service.withdrawGuestRsvp(ctx, input)),
});
