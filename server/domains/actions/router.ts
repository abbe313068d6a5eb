// The private action log: wiring only (logic in service.ts, suggestions.ts, aggregates.ts).
// GET /api/actions/export is a raw Hono route (text/csv) over `list`: export-route.ts.
import { router } from '../../trpc/init.js';
import { memberProcedure } from '../../trpc/procedures.js';
import { emptyInput, okOutput } from '../../shared/schemas.js';
import * as aggregates from './aggregates.js';
import * as schemas from './schemas.js';
import * as service from './service.js';
import * as suggestions from './suggestions.js';

const tags = ['actions'];

export const actionsRouter = router({
  list: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/actions',
        tags,
        summary: "The caller's private action log",
        description:
          "Only the caller's own entries, newest logged first (cursor over `_id`). `kind`, `from` and `to` (on `occurredOn`) filter. The same entries as CSV: GET /api/actions/export.",
      },
    })
    .input(schemas.listActionsInput())
    .output(schemas.actionListOutput)
    .query(({ ctx, input }) => service.listActions(ctx, input)),

  // Static path before /api/actions/{id} style paths.
  listSuggestions: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/actions/suggestions',
        tags,
        summary: "Ended events the caller RSVP'd going to, not yet in their log",
        description:
          "Events that have ended (not cancelled, still visible to the caller) with the caller's approved `going` RSVP, newest event first; also events that have started where an organizer checked the caller in (`checkedIn`). Confirm one with POST /api/actions `{ kind: 'event_attended', eventId }`. Suggestions come from RSVP rows, which are deleted 30 days after the event: a suggestion not confirmed by then disappears (the member can still log the event by hand).",
      },
    })
    .input(schemas.listSuggestionsInput())
    .output(schemas.suggestionListOutput)
    .query(({ ctx, input }) => suggestions.listSuggestions(ctx, input)),

  create: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'actions.create',
      successStatus: 201,
      errors: ['not_found'],
      openapi: {
        method: 'POST',
        path: '/api/actions',
        tags,
        summary: 'Log an action, or confirm an attended event',
        description:
          "Confirming a suggestion: `{ kind: 'event_attended', eventId }`; the entry copies the event's title (and its start date as `occurredOn` unless sent), so it outlives the RSVP (deleted 30 days after the event) and the event itself. 404 when `eventId` is not one of the caller's suggestions (unknown, not visible, not RSVP'd going, not over, cancelled), 409 when that event is already in the log. `placeId` must be an approved place (or the caller's own pending submission): 400 otherwise. `occurredOn` may not be after tomorrow (UTC).",
      },
    })
    .input(schemas.createActionInput)
    .output(schemas.actionEntryOutput)
    .mutation(({ ctx, input }) => service.createAction(ctx, input)),

  delete: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/actions/{id}',
        tags,
        summary: "Delete an entry of the caller's log",
        description: "Another member's entry answers 404, exactly like a missing one. Totals follow at once.",
      },
    })
    .input(schemas.actionIdInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => service.deleteAction(ctx, input)),
});

/** The aggregate opt-in lives in the `me` namespace (its REST path is under /api/me). */
export const actionsMeProcedures = {
  getActionAggregateOptIn: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/me/action-aggregate-opt-in',
        tags: ['me'],
        summary: 'Whether the caller contributes action totals to aggregates',
        description: 'Off (`false`) until the member opts in.',
      },
    })
    .input(emptyInput)
    .output(schemas.aggregateOptInOutput)
    .query(({ ctx }) => aggregates.getAggregateOptIn(ctx)),

  setActionAggregateOptIn: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'PUT',
        path: '/api/me/action-aggregate-opt-in',
        tags: ['me'],
        summary: 'Opt in or out of contributing action totals to aggregates',
        description:
          "Off by default. Only the member's totals (number of entries, hours) are contributed, never entries: to every grove they are a member of (shown on the grove as `actionTotals`) and to the service-wide figure in GET /api/stats (`actions`). An aggregate over fewer than 5 contributing members is not shown. Opting out removes the contribution from the next read of a grove; GET /api/stats is cached and drops it within 5 minutes. Idempotent.",
      },
    })
    .input(schemas.aggregateOptInInput)
    .output(schemas.aggregateOptInOutput)
    .mutation(({ ctx, input }) => aggregates.setAggregateOptIn(ctx, input)),
};
