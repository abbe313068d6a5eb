// The private action log: mounted, validated, answering 501. Privacy rule 3: entries are visible
// only to their owner (every query filters by ctx.user.id; another member's id answers 404).
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { memberProcedure, notImplemented } from '../../trpc/procedures.js';
import { isoDate, jsonNumber, okOutput, uuidParam } from './common.js';

const unbuilt = true as const;
const tags = ['actions'];

export const actionKinds = ['event_attended', 'outreach', 'volunteer_shift', 'other'] as const;
export const ACTION_LIMITS = { note: 1000, maxHours: 24 } as const;

export const actionEntryOutput = z
  .object({
    _id: z.string(),
    kind: z.enum(actionKinds),
    occurredOn: z.string().meta({ description: 'Date YYYY-MM-DD.' }),
    hours: z.number().nullable(),
    note: z.string().nullable(),
    placeId: z.string().nullable(),
    eventId: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'ActionEntry' });

export const listActionsInput = () =>
  z.object({
    kind: z.enum(actionKinds).optional(),
    from: isoDate().optional().meta({ description: 'Entries on or after this date.' }),
    to: isoDate().optional().meta({ description: 'Entries on or before this date.' }),
    ...pageQueryFields(),
  });

/**
 * outreach and volunteer_shift need hours; placeId belongs to volunteer_shift and eventId to
 * event_attended (confirming an RSVP suggestion).
 */
export const createActionInput = z
  .object({
    kind: z.enum(actionKinds),
    occurredOn: isoDate().meta({ description: 'Date YYYY-MM-DD; not in the future.' }),
    hours: jsonNumber(z.number().positive().max(ACTION_LIMITS.maxHours).multipleOf(0.25))
      .optional()
      .meta({ description: 'Quarter hours, up to 24. Required for outreach and volunteer_shift.' }),
    note: z.string().trim().min(1).max(ACTION_LIMITS.note).optional(),
    placeId: uuidParam().optional().meta({ description: 'volunteer_shift only: where.' }),
    eventId: uuidParam().optional().meta({ description: 'event_attended only: the event.' }),
  })
  .strict()
  .superRefine((v, ctx) => {
    if ((v.kind === 'outreach' || v.kind === 'volunteer_shift') && v.hours === undefined)
      ctx.addIssue({ code: 'custom', path: ['hours'], message: `Required for ${v.kind}.` });
    if (v.placeId !== undefined && v.kind !== 'volunteer_shift')
      ctx.addIssue({ code: 'custom', path: ['placeId'], message: 'Only for volunteer_shift.' });
    if (v.eventId !== undefined && v.kind !== 'event_attended')
      ctx.addIssue({ code: 'custom', path: ['eventId'], message: 'Only for event_attended.' });
  })
  .meta({
    description:
      '`hours` is required for `outreach` and `volunteer_shift`; `placeId` only with `volunteer_shift`; `eventId` only with `event_attended`.',
    examples: [{ kind: 'outreach', occurredOn: '2026-11-14', hours: 2.5, note: 'Leafleting at the market.' }],
  });

export const exportActionsInput = () => z.object({ from: isoDate().optional(), to: isoDate().optional() });
export const actionIdInput = z.object({ id: uuidParam() });

export const actionsProcedures = {
  list: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: { method: 'GET', path: '/api/actions', tags, summary: "The caller's private action log" },
    })
    .input(listActionsInput())
    .output(listEnvelope(actionEntryOutput))
    .query(() => notImplemented()),

  create: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'actions.create',
      unbuilt,
      successStatus: 201,
      openapi: { method: 'POST', path: '/api/actions', tags, summary: 'Log an action' },
    })
    .input(createActionInput)
    .output(actionEntryOutput)
    .mutation(() => notImplemented()),

  // Registered before /api/actions/{id} so a future GET by id cannot swallow it.
  // The milestone turns this into a raw Hono route answering text/csv that calls this procedure
  // through createCaller (DESIGN.md §1); until then it is an ordinary JSON procedure.
  export: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'GET',
        path: '/api/actions/export',
        tags,
        summary: "The caller's whole log as CSV",
        description:
          'Answers text/csv (columns: id, kind, occurredOn, hours, note, placeId, eventId, createdAt) once built.',
      },
    })
    .input(exportActionsInput())
    .output(z.object({ items: z.array(actionEntryOutput) }))
    .query(() => notImplemented()),

  delete: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: { method: 'DELETE', path: '/api/actions/{id}', tags, summary: "Delete an entry of the caller's log" },
    })
    .input(actionIdInput)
    .output(okOutput)
    .mutation(() => notImplemented()),
};
