// The private action log: entries (owner-only), suggestions from past RSVPs, the aggregate
// opt-in and the anonymous totals that groves and /api/stats show.
import { z } from 'zod';
import { ifThen } from '../../shared/patterns.js';
import { actionKinds } from '../../../db/schema/actions.js';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { isoDate, uuidParam } from '../../shared/schemas.js';

export { actionKinds };

export const ACTION_LIMITS = { note: 1000, placeName: 200, maxHours: 24, earliestDate: '1900-01-01' } as const;

/** An aggregate over fewer contributors than this is not shown (k-anonymity). */
export const AGGREGATE_MIN_CONTRIBUTORS = 5;

export const actionEntryOutput = z
  .object({
    _id: z.string(),
    kind: z.enum(actionKinds),
    occurredOn: z.string().meta({ description: 'Date YYYY-MM-DD.' }),
    hours: z.number().nullable().meta({ description: 'Quarter hours; null when not given.' }),
    note: z.string().nullable(),
    placeId: z
      .string()
      .nullable()
      .meta({ description: 'volunteer_shift: the place of the map, while it exists; null for free text.' }),
    placeName: z.string().nullable().meta({
      description: "volunteer_shift: the place's name as it was when logged, or the member's free text.",
    }),
    eventId: z.string().nullable().meta({
      description:
        'event_attended, confirmed from a suggestion: the event while it exists (null once it is deleted; the entry stays).',
    }),
    eventTitle: z.string().nullable().meta({
      description: "event_attended: the event's title as it was when confirmed, kept in the entry itself.",
    }),
    createdAt: z.string(),
  })
  .strict()
  .meta({ id: 'ActionEntry' });

export type ActionEntryOutput = z.infer<typeof actionEntryOutput>;

/** Filters shared by the list and the CSV export. */
const filterFields = () => ({
  kind: z.enum(actionKinds).optional(),
  from: isoDate().optional().meta({ description: 'Entries that occurred on or after this date.' }),
  to: isoDate().optional().meta({ description: 'Entries that occurred on or before this date.' }),
});

export const listActionsInput = () => z.object({ ...filterFields(), ...pageQueryFields() });
export type ListActionsInput = z.infer<ReturnType<typeof listActionsInput>>;
export const actionListOutput = listEnvelope(actionEntryOutput);

const hoursInput = z
  .number()
  .positive()
  .max(ACTION_LIMITS.maxHours)
  .multipleOf(0.25)
  .meta({ description: 'Quarter hours, up to 24. Required for outreach and volunteer_shift.' });

/**
 * outreach and volunteer_shift need hours; a place (placeId or placeName) belongs to
 * volunteer_shift and eventId to event_attended (confirming a suggestion).
 */
export const createActionInput = z
  .object({
    kind: z.enum(actionKinds),
    occurredOn: isoDate()
      .refine((date) => date >= ACTION_LIMITS.earliestDate, `Must be on or after ${ACTION_LIMITS.earliestDate}.`)
      .optional()
      .meta({
        description:
          "Date YYYY-MM-DD, not after tomorrow (UTC, so every time zone can log its today). Required, except when confirming a suggestion (`eventId`), where it defaults to the event's start date (UTC).",
      }),
    hours: hoursInput.optional(),
    note: z.string().trim().min(1).max(ACTION_LIMITS.note).optional(),
    placeId: uuidParam()
      .optional()
      .meta({ description: 'volunteer_shift only: a place of the map (approved, or your own pending submission).' }),
    placeName: z
      .string()
      .trim()
      .min(1)
      .max(ACTION_LIMITS.placeName)
      .optional()
      .meta({ description: 'volunteer_shift only: where, as free text (instead of placeId).' }),
    eventId: uuidParam().optional().meta({
      description:
        'event_attended only: confirms a suggestion (GET /api/actions/suggestions): an ended event you RSVP\'d "going" to.',
    }),
  })
  .strict()
  .superRefine((v, ctx) => {
    if ((v.kind === 'outreach' || v.kind === 'volunteer_shift') && v.hours === undefined)
      ctx.addIssue({ code: 'custom', path: ['hours'], message: `Required for ${v.kind}.` });
    if (v.placeId !== undefined && v.kind !== 'volunteer_shift')
      ctx.addIssue({ code: 'custom', path: ['placeId'], message: 'Only for volunteer_shift.' });
    if (v.placeName !== undefined && v.kind !== 'volunteer_shift')
      ctx.addIssue({ code: 'custom', path: ['placeName'], message: 'Only for volunteer_shift.' });
    if (v.placeId !== undefined && v.placeName !== undefined)
      ctx.addIssue({ code: 'custom', path: ['placeName'], message: 'Send placeId or placeName, not both.' });
    if (v.eventId !== undefined && v.kind !== 'event_attended')
      ctx.addIssue({ code: 'custom', path: ['eventId'], message: 'Only for event_attended.' });
    if (v.eventId === undefined && v.occurredOn === undefined)
      ctx.addIssue({ code: 'custom', path: ['occurredOn'], message: 'Required (unless confirming an event).' });
  })
  .meta({
    description:
      '`hours` is required for `outreach` and `volunteer_shift`; `placeId` or `placeName` only with `volunteer_shift`; `eventId` only with `event_attended`; `occurredOn` is required unless `eventId` is sent.',
    // The superRefine above, as JSON Schema.
    allOf: [
      ifThen({ properties: { kind: { enum: ['outreach', 'volunteer_shift'] } } }, { required: ['hours'] }),
      ifThen(
        { properties: { kind: { not: { const: 'volunteer_shift' } } } },
        { not: { anyOf: [{ required: ['placeId'] }, { required: ['placeName'] }] } },
      ),
      { not: { required: ['placeId', 'placeName'] } },
      ifThen({ properties: { kind: { not: { const: 'event_attended' } } } }, { not: { required: ['eventId'] } }),
      { anyOf: [{ required: ['eventId'] }, { required: ['occurredOn'] }] },
    ],
    examples: [
      { kind: 'outreach', occurredOn: '2026-11-14', hours: 2.5, note: 'Leafleting at the market.' },
      { kind: 'event_attended', eventId: '0193a5b2-6f1e-7c3a-8b2d-1234567890ab' },
      { kind: 'volunteer_shift', occurredOn: '2026-11-15', hours: 4, placeName: 'Hillside sanctuary' },
    ],
  });
export type CreateActionInput = z.infer<typeof createActionInput>;

export const actionIdInput = z.object({ id: uuidParam() });

export const actionSuggestionOutput = z
  .object({
    eventId: z.string().meta({ description: 'Send it back as `eventId` in POST /api/actions to confirm.' }),
    slug: z.string(),
    title: z.string(),
    startsAt: z.string(),
    endsAt: z.string(),
    occurredOn: z.string().meta({ description: "The date the entry gets unless you send one: the start's UTC date." }),
    checkedIn: z.boolean().meta({
      description:
        'An organizer checked you in at the event (such an event is suggested from its start, not only its end).',
    }),
  })
  .strict()
  .meta({ id: 'ActionSuggestion' });
export type ActionSuggestionOutput = z.infer<typeof actionSuggestionOutput>;

export const listSuggestionsInput = () => z.object({ ...pageQueryFields() });
export const suggestionListOutput = listEnvelope(actionSuggestionOutput);

export const aggregateOptInInput = z
  .object({ optIn: z.boolean() })
  .strict()
  .meta({ examples: [{ optIn: true }] });
export const aggregateOptInOutput = z.object({ optIn: z.boolean() }).meta({ id: 'ActionAggregateOptIn' });

export const actionTotalsOutput = z
  .object({
    contributors: z
      .number()
      .int()
      .meta({ description: `Opted-in members with at least one entry; never below ${AGGREGATE_MIN_CONTRIBUTORS}.` }),
    actions: z.number().int().meta({ description: 'Their entries, all kinds.' }),
    hours: z.number().meta({ description: 'Their logged hours.' }),
  })
  .strict()
  .meta({
    id: 'ActionTotals',
    description: `Anonymous sum of the totals of members who opted in (PUT /api/me/action-aggregate-opt-in); never a list, never an entry. Null when fewer than ${AGGREGATE_MIN_CONTRIBUTORS} members contribute.`,
  });
export type ActionTotalsOutput = z.infer<typeof actionTotalsOutput>;
