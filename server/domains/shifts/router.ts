// Event shifts (issue #26): wiring only (logic in service.ts). Mounted in the `events` namespace
// (its REST paths are under /api/events), as procedures with the `Shift` sub-resource.
import { router } from '../../trpc/init.js';
import { memberProcedure, publicProcedure } from '../../trpc/procedures.js';
import { okOutput } from '../../shared/schemas.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['events'];

export const shiftsRouter = router({
  listShifts: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/events/{id}/shifts',
        tags,
        protect: false,
        summary: "An event's shifts",
        description: `Everyone who can see the event (404 for the rest), ordered by start time. Each shift has \`counts: { signedUp, capacity }\` and \`mine\`; the event's organizers (organizers of the hosting grove, admins of the hosting organization; not site admins) also get \`roster\` with the handles, nobody else ever does. An event has at most ${schemas.MAX_SHIFTS_PER_EVENT} shifts, all on one page: \`nextCursor\` is always null.`,
      },
    })
    .input(schemas.eventShiftsInput)
    .output(schemas.shiftListOutput)
    .query(async ({ ctx, input }) => service.listShifts(ctx, await ctx.authenticate(), input)),

  createShift: memberProcedure
    .meta({
      auth: 'organizer',
      errors: ['forbidden', 'conflict'],
      // Counted with event creation: adding shifts is organizing an event.
      writeLimit: 'events.create',
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/api/events/{id}/shifts',
        tags,
        summary: 'Add a shift (organizers)',
        description: `The event's organizers only: others who can see the event get 403, the rest 404. \`endsAt\` after \`startsAt\` and \`capacity\` at least 1 (400 otherwise); \`role\` is optional short text ("setup"). 409 on a cancelled or ended event or when it already has ${schemas.MAX_SHIFTS_PER_EVENT} shifts.`,
      },
    })
    .input(schemas.createShiftInput)
    .output(schemas.shiftOutput)
    .mutation(({ ctx, input }) => service.createShift(ctx, input)),

  deleteShift: memberProcedure
    .meta({
      auth: 'organizer',
      errors: ['forbidden'],
      openapi: {
        method: 'DELETE',
        path: '/api/events/{id}/shifts/{shiftId}',
        tags,
        summary: 'Delete a shift (organizers)',
        description:
          "The event's organizers only (others who can see the event 403, the rest 404); its signups go with it. 404 when the event has no such shift.",
      },
    })
    .input(schemas.shiftIdInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => service.deleteShift(ctx, input)),

  signUpShift: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'events.rsvp',
      errors: ['conflict', 'shift_full', 'forbidden'],
      openapi: {
        method: 'PUT',
        path: '/api/events/{id}/shifts/{shiftId}/signup',
        tags,
        summary: 'Sign up for a shift',
        description:
          'Members who can see the event (404 for the rest, and for a shift not of this event). Idempotent: signing up again changes nothing. 409 `shift_full` when the shift has reached its capacity; 409 `conflict` when the event is cancelled or over; 403 (a generic refusal, as for RSVPs) when the grove hosting it banned the caller. Signups are deleted 30 days after the event ends, with the RSVPs.',
      },
    })
    .input(schemas.shiftIdInput)
    .output(schemas.shiftOutput)
    .mutation(({ ctx, input }) => service.signUp(ctx, input)),

  withdrawShift: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'events.rsvp',
      openapi: {
        method: 'DELETE',
        path: '/api/events/{id}/shifts/{shiftId}/signup',
        tags,
        summary: 'Withdraw from a shift',
        description:
          'Idempotent: withdrawing without a signup is fine. 404 for an event the caller cannot see or a shift not of it.',
      },
    })
    .input(schemas.shiftIdInput)
    .output(schemas.shiftOutput)
    .mutation(({ ctx, input }) => service.withdraw(ctx, input)),
});
