// Events, RSVPs and the private calendar feed: wiring only (logic in service.ts, rsvp.ts,
// calendar.ts). `organizer` routes are member-level here; the service checks the host.
import { router } from '../../trpc/init.js';
import { memberProcedure, publicProcedure } from '../../trpc/procedures.js';
import { emptyInput, okOutput } from '../../shared/schemas.js';
import * as calendar from './calendar.js';
import { recordReveals } from './reveals.js';
import * as reveals from './reveals.js';
import * as rsvp from './rsvp.js';
import * as schemas from './schemas.js';
import * as service from './service.js';
import * as series from './series.js';
import type { EventOutput } from './schemas.js';
import type { Context } from '../../trpc/context.js';

const tags = ['events'];

/** Every response that can carry an RSVP-only meeting point writes the reveal log first. */
async function logged<T extends EventOutput | { items: EventOutput[] }>(ctx: Context, result: T): Promise<T> {
  const viewer = await ctx.authenticate();
  const served: EventOutput[] = 'items' in result ? result.items : [result as EventOutput];
  await recordReveals(ctx.database, viewer?.user.id ?? null, served, ctx.clock.now());
  return result;
}

export const eventsRouter = router({
  list: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/events',
        tags,
        protect: false,
        summary: 'List events the caller may see',
        description:
          "Visibility is applied in the query: `public` events for everyone; `grove` events for members of the hosting grove; `friends` events for the creator's friends; every event for its organizers and for site admins. Cancelled events are included with `status: cancelled`. Without `from`/`to` every event is listed, past ones included; `from=<now>` lists the upcoming ones (not yet ended); `past=true` only those that have ended, newest first. `from` must be before `to` (400 otherwise). `q` finds words of the title or description by their prefix (every word must match; the same visibility rules apply). Ordered by start time (`startsAt`, then `_id`; descending with `past=true`), not by `_id`: the cursor is a keyset over both, in the list's own order. `series=<series._id>` lists the occurrences of a recurring series (each an event of its own, marked with the same `series`); an unknown series or one the caller may not see lists nothing.",
      },
    })
    .input(schemas.listEventsInput())
    .output(schemas.eventListOutput)
    .query(async ({ ctx, input }) => logged(ctx, await service.listEvents(ctx, await ctx.authenticate(), input))),

  get: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/events/{event}',
        tags,
        protect: false,
        summary: 'One event',
        description:
          "An event the caller may not see answers 404, like a missing one. The exact meeting point is withheld (`meetingPointHidden`) from callers who have not RSVP'd when the organizers asked so.",
      },
    })
    .input(schemas.eventSlugInput)
    .output(schemas.eventOutput)
    .query(async ({ ctx, input }) =>
      logged(ctx, await service.getEvent(ctx, await ctx.authenticate(), { slug: input.event })),
    ),

  create: memberProcedure
    .meta({
      auth: 'organizer',
      writeLimit: 'events.create',
      errors: ['forbidden', 'not_found'],
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/api/events',
        tags,
        summary: 'Create an event',
        description:
          'Host is exactly one of `groveId` (caller organizes that grove) or `organizationId` (caller administers that organization); members cannot host as themselves. Site admins may host for any grove or organization. Others get 403; an unknown host 404; a `placeId` that is not an approved place 400. `coverImage`: an https URL or an image upload key of purpose `event`, attached (checked, re-encoded without metadata; served at `coverImageUrl`); a key that is not yours, of another purpose, used or not an image answers 400 and no event is created. `recurrence: { rule }` (an RRULE) makes a series: one event per occurrence (own `_id`, slug with its local date, RSVPs), expanded on the local wall time of `timeZone` (18:00 stays 18:00 across daylight-saving changes); the answer is the first occurrence, carrying `series`. A rule without COUNT or UNTIL, with a sub-daily FREQ, beyond 100 occurrences or two years, or that the parser refuses answers 400 and nothing is created.',
      },
    })
    .input(schemas.createEventInput)
    .output(schemas.eventOutput)
    .mutation(async ({ ctx, input }) => logged(ctx, await service.createEvent(ctx, input))),

  update: memberProcedure
    .meta({
      auth: 'organizer',
      errors: ['forbidden', 'conflict'],
      openapi: {
        method: 'PATCH',
        path: '/api/events/{event}',
        tags,
        summary: 'Change or cancel an event',
        description:
          'Organizers of the host and site admins. Send `status: "cancelled"` to cancel: final; the event stays readable, cannot be changed (409) or RSVP\'d to (409). Callers who can see the event but not manage it get 403; others 404. The host cannot change. A new `coverImage` key is attached like at creation; the uploaded cover it replaces is deleted (its URL answers 404). A raised or removed `capacity` seats waiting members in order (each is notified); a lowered one demotes nobody. For an occurrence of a series, `scope` says which occurrences change: `this` (default; the occurrence is then `series.overridden` and later series edits leave it be), `following` (this and later ones, split off into a new series when earlier ones exist) or `all` (every occurrence not yet ended; past ones are never rewritten). With `following`/`all` a new `startsAt` shifts the local time of day of every occurrence in scope (moving the date answers 400) and the answer is the occurrence named in the path. Cancelling with `following`/`all` cancels every occurrence in scope; RSVPs stay with their occurrence, and members going are told.',
      },
    })
    .input(schemas.updateEventInput)
    .output(schemas.eventOutput)
    .mutation(async ({ ctx, input: { event, ...fields } }) =>
      logged(ctx, await series.updateSeriesEvents(ctx, { ...fields, id: event })),
    ),

  rsvp: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'events.rsvp',
      errors: ['conflict', 'forbidden'],
      openapi: {
        method: 'POST',
        path: '/api/events/{id}/rsvp',
        tags,
        summary: 'RSVP going or interested',
        description:
          "Sets or changes the caller's RSVP. 404 for an event the caller may not see; 409 when it is cancelled or over; 403 (a generic refusal that does not name the reason) when the grove hosting it banned the caller (public events too). RSVPs are deleted 30 days after the event ends. `going` to an event at its `capacity` joins the waitlist: the answer's `myRsvp` is `waitlisted` with `myWaitlistPosition`; saying `going` again keeps the place, `interested` leaves the queue (and a seat, which goes to the first member waiting).",
      },
    })
    .input(schemas.rsvpInput)
    .output(schemas.rsvpStateOutput)
    .mutation(({ ctx, input }) => rsvp.setRsvp(ctx, input)),

  removeRsvp: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'events.rsvp',
      openapi: {
        method: 'DELETE',
        path: '/api/events/{id}/rsvp',
        tags,
        summary: 'Withdraw an RSVP',
        description:
          'Idempotent. A freed seat (events with a `capacity`) goes to the first member on the waitlist, who is notified.',
      },
    })
    .input(schemas.eventIdInput)
    .output(schemas.rsvpStateOutput)
    .mutation(({ ctx, input }) => rsvp.removeRsvp(ctx, input)),

  attendees: memberProcedure
    .meta({
      auth: 'organizer',
      errors: ['forbidden'],
      openapi: {
        method: 'GET',
        path: '/api/events/{id}/attendees',
        tags,
        summary: 'Attendee handles (organizers only)',
        description:
          'Only organizers of the hosting grove or admins of the hosting organization (not site admins). Others who can see the event get 403 and use `rsvpCounts`; the rest 404. Members waiting for a seat carry `waitlistPosition`; `waitlisted=true` lists only them, `false` everyone else.',
      },
    })
    .input(schemas.attendeesInput())
    .output(schemas.attendeeListOutput)
    .query(({ ctx, input }) => rsvp.listAttendees(ctx, input)),

  approveRsvp: memberProcedure
    .meta({
      auth: 'organizer',
      openapi: {
        method: 'PUT',
        path: '/api/events/{id}/rsvps/{handle}/approve',
        tags,
        summary: 'Approve an RSVP (organizers)',
        description:
          'For events with `rsvpApproval`: the member is counted and sees the exact meeting point. Organizers of the host only (like attendees: others who can see the event 403, the rest 404); 404 when that member has no RSVP.',
      },
    })
    .input(schemas.rsvpMemberInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => rsvp.approveRsvp(ctx, input)),

  declineRsvp: memberProcedure
    .meta({
      auth: 'organizer',
      openapi: {
        method: 'PUT',
        path: '/api/events/{id}/rsvps/{handle}/decline',
        tags,
        summary: 'Decline (remove) an RSVP (organizers)',
        description:
          'Deletes the RSVP, pending or approved; the member may RSVP again (and waits for approval again). 404 when that member has no RSVP.',
      },
    })
    .input(schemas.rsvpMemberInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => rsvp.declineRsvp(ctx, input)),

  reveals: memberProcedure
    .meta({
      auth: 'organizer',
      openapi: {
        method: 'GET',
        path: '/api/events/{id}/reveals',
        tags,
        summary: 'Who was shown the exact meeting point (organizers only)',
        description:
          "Every member (not an organizer of the event) to whom the RSVP-only meeting point was ever served, with the first time, also after they withdrew the RSVP (`rsvp: null`) or left the grove. Kept as long as RSVP rows (deleted 30 days after the event ends) and deleted with the member's account. Organizers of the host only (others who can see the event 403, the rest 404).",
      },
    })
    .input(schemas.revealsInput())
    .output(schemas.revealListOutput)
    .query(({ ctx, input }) => reveals.listReveals(ctx, input)),

  createCalendarToken: memberProcedure
    .meta({
      auth: 'member',
      successStatus: 201,
      // A rotation, not a create (no duplicates possible); storing its answer would store the secret.
      idempotent: false,
      openapi: {
        method: 'POST',
        path: '/api/me/calendar-token',
        tags,
        summary: 'Create or rotate the private calendar feed',
        description:
          "Answers the URL of an iCalendar feed (GET /api/calendar/{token}.ics, `text/calendar`) of the events the caller RSVP'd to. The URL holds its own secret, not the session token; calling again rotates it and the old URL stops working.",
      },
    })
    .input(emptyInput)
    .output(schemas.calendarTokenOutput)
    .mutation(({ ctx }) => calendar.createCalendarToken(ctx)),

  revokeCalendarToken: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/me/calendar-token',
        tags,
        summary: 'Revoke the private calendar feed',
        description: 'Idempotent; the feed URL answers 404 afterwards.',
      },
    })
    .input(emptyInput)
    .output(okOutput)
    .mutation(({ ctx }) => calendar.revokeCalendarToken(ctx)),
});

// Reportable (POST /api/reports): this domain decides what a reporter may see and what the admins get.
