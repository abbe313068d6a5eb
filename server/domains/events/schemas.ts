// Events and RSVPs. The output schema is strict: attendee handles and the creator never
// appear in an event; the exact meeting point is null for callers who may not see it.
import { z } from 'zod';
import { ifThen } from '../../shared/patterns.js';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { imageRefInput } from '../uploads/image-ref.js';
import { isIanaTimeZone } from './time-zone.js';
import { hostSlugInput, isoDateTimeInput } from '../../shared/schemas.js';
import { queryBoolean } from '../../shared/query.js';
import { imageOutput } from '../uploads/image-output.js';
import { recurrenceField, scopeField, seriesCreateExample, seriesField, seriesFilter } from './series-schemas.js';
import {
  eventStatuses,
  eventTypes,
  eventVisibilities,
  meetingPointVisibilities,
  rsvpStatuses,
} from '../../../db/schema/events.js';

export { eventStatuses, eventTypes, eventVisibilities, meetingPointVisibilities, rsvpStatuses };

const isoDateTime = () => isoDateTimeInput('2026-12-05T14:00:00Z');
const location = z.object({ lng: z.number().min(-180).max(180), lat: z.number().min(-90).max(90) }).strict();

const meetingPointInput = z
  .object({
    text: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .meta({ description: 'Exact meeting point, e.g. "by the fountain, north side".' }),
    location: location.nullable().optional(),
  })
  .strict();

const timeZoneInput = z
  .string()
  .max(64)
  .refine(isIanaTimeZone, { message: 'Must be an IANA time zone, like Europe/Berlin or UTC.' })
  .meta({
    description:
      "The IANA time zone the event happens in (shown beside the viewer's own). When absent: the zone of the event's place, else of its meeting point when that is shown to everyone, else of the hosting grove's region box, else UTC. Never derived from an RSVP-only meeting point.",
    example: 'Europe/Berlin',
  });

const eventFields = {
  title: z.string().trim().min(1).max(200),
  type: z.enum(eventTypes),
  startsAt: isoDateTime(),
  endsAt: isoDateTime(),
  timeZone: timeZoneInput.optional(),
  venueName: z.string().trim().max(200).nullable().optional(),
  address: z.string().trim().max(500).nullable().optional(),
  area: z.string().trim().min(1).max(120).meta({
    description: 'Region shown to everyone (also when the meeting point is hidden); matched by the `area` filter.',
    example: 'Bristol',
  }),
  meetingPoint: meetingPointInput.nullable().optional(),
  meetingPointVisibility: z
    .enum(meetingPointVisibilities)
    .meta({ description: "`rsvp`: only members who RSVP'd (and the organizers) see the exact meeting point." }),
  rsvpApproval: z.boolean().meta({
    description:
      'With `meetingPointVisibility: rsvp`: RSVPs start pending and see the meeting point only once an organizer approves them (PUT /api/events/{id}/rsvps/{handle}/approve). Pending RSVPs are not in the public counts. Ignored while the meeting point is for everyone. Defaults to true whenever the meeting point is RSVP-only (on create, and on a PATCH that makes it so without sending this field). Setting it to false means anyone who can see the event gets the exact meeting point with one RSVP, a second account of a member the grove banned included.',
  }),
  placeId: z.uuid().nullable().optional().meta({ description: 'An approved place.' }),
  coverImage: imageRefInput('cover image', 'event').nullable().optional(),
  description: z.string().max(10000),
  visibility: z
    .enum(eventVisibilities)
    .meta({ description: '`public`; `grove`: members of the hosting grove; `friends`: friends of the creator.' }),
  capacity: z.number().int().min(1).max(100000).nullable().meta({
    description:
      'Seats for `going` RSVPs; null (the default) for unlimited. Once full, further `going` RSVPs join the waitlist (`myRsvp: waitlisted`) and are promoted first come first served when a seat frees (a withdrawal, a decline, a raised capacity); the promoted member gets a push. Lowering it never demotes anyone already going. A pending RSVP (events with `rsvpApproval`) holds its seat until declined.',
    example: 40,
  }),
};

/** The caller's own RSVP as events show it: `waitlisted` is a `going` RSVP still waiting for a seat. */
export const myRsvpStatuses = [...rsvpStatuses, 'waitlisted'] as const;

export const createEventInput = z
  .object({
    slug: hostSlugInput.optional().meta({
      description:
        "The readable part of the event's slug (made from the title when absent); a random suffix is always added, so a slug never tells whether an event you cannot see took it.",
    }),
    groveId: z.uuid().optional().meta({ description: 'Hosting grove (exactly one of groveId, organizationId).' }),
    organizationId: z
      .uuid()
      .optional()
      .meta({ description: 'Hosting organization (exactly one of groveId, organizationId).' }),
    ...eventFields,
    meetingPointVisibility: eventFields.meetingPointVisibility.default('everyone'),
    // No default here: absent means "approval exactly when the meeting point is RSVP-only" (service.ts).
    rsvpApproval: eventFields.rsvpApproval.optional(),
    description: eventFields.description.default(''),
    visibility: eventFields.visibility.default('public'),
    capacity: eventFields.capacity.optional(),
    recurrence: recurrenceField,
  })
  .strict()
  .refine((v) => (v.groveId === undefined) !== (v.organizationId === undefined), {
    message: 'Send exactly one of groveId and organizationId: the host.',
    path: ['groveId'],
  })
  .refine((v) => Date.parse(v.endsAt) > Date.parse(v.startsAt), {
    message: 'endsAt must be after startsAt.',
    path: ['endsAt'],
  })
  .refine((v) => v.rsvpApproval !== true || v.meetingPointVisibility === 'rsvp', {
    message: 'RSVP approval needs an RSVP-only meeting point (`meetingPointVisibility: rsvp`).',
    path: ['rsvpApproval'],
  })
  .refine((v) => v.visibility !== 'grove' || v.groveId !== undefined, {
    message: '`grove` visibility needs a grove host.',
    path: ['visibility'],
  })
  .meta({
    description:
      'Exactly one of `groveId` and `organizationId` (the host); `endsAt` after `startsAt`; `visibility: grove` only with `groveId`.',
    oneOf: [{ required: ['groveId'] }, { required: ['organizationId'] }],
    // The refinements above, as JSON Schema (all but endsAt > startsAt, which it cannot compare).
    allOf: [
      ifThen(
        { required: ['rsvpApproval'], properties: { rsvpApproval: { const: true } } },
        { required: ['meetingPointVisibility'], properties: { meetingPointVisibility: { const: 'rsvp' } } },
      ),
      ifThen({ required: ['visibility'], properties: { visibility: { const: 'grove' } } }, { required: ['groveId'] }),
    ],
    examples: [
      {
        groveId: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6',
        title: 'Saturday street outreach',
        type: 'outreach',
        startsAt: '2026-12-05T14:00:00Z',
        endsAt: '2026-12-05T17:00:00Z',
        area: 'Bristol',
        meetingPoint: { text: 'By the fountain, north side', location: { lng: -2.5973, lat: 51.4545 } },
        meetingPointVisibility: 'rsvp',
        description: 'Bring warm clothes; leaflets provided.',
        visibility: 'public',
        capacity: 40,
      },
      seriesCreateExample,
    ],
  });

export const updateEventInput = z
  .object({
    event: z.uuid().meta({ description: "The event's `_id` (GET on this path takes its slug)." }),
    title: eventFields.title.optional(),
    type: eventFields.type.optional(),
    startsAt: eventFields.startsAt.optional(),
    endsAt: eventFields.endsAt.optional(),
    timeZone: eventFields.timeZone.meta({
      description:
        'A new IANA zone. When absent and the PATCH sets a new `placeId`, the zone follows the new place; otherwise it stays.',
    }),
    venueName: eventFields.venueName,
    address: eventFields.address,
    area: eventFields.area.optional(),
    meetingPoint: eventFields.meetingPoint,
    meetingPointVisibility: eventFields.meetingPointVisibility.optional(),
    rsvpApproval: eventFields.rsvpApproval.optional(),
    placeId: eventFields.placeId,
    coverImage: eventFields.coverImage,
    description: eventFields.description.optional(),
    visibility: eventFields.visibility.optional(),
    capacity: eventFields.capacity.optional(),
    status: z.enum(eventStatuses).optional().meta({
      description:
        "Send `cancelled` to cancel. Cancelling is final: a cancelled event stays readable but cannot be changed or RSVP'd to.",
    }),
    scope: scopeField,
  })
  .strict()
  .meta({
    description:
      'Only the fields to change; `endsAt` must stay after `startsAt`, `visibility: grove` needs a grove host.',
    examples: [
      {
        event: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6',
        startsAt: '2026-12-05T15:00:00Z',
        endsAt: '2026-12-05T18:00:00Z',
      },
      { event: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', scope: 'following', title: 'Thursday vigil (new time)' },
    ],
  });

export const rsvpCounts = z
  .object({
    going: z.number().int(),
    interested: z.number().int(),
    waitlisted: z.number().int().meta({ description: '`going` RSVPs waiting for a seat (events with a `capacity`).' }),
  })
  .strict();

export const eventOutput = z
  .object({
    _id: z.string(),
    slug: z.string(),
    title: z.string(),
    type: z.enum(eventTypes),
    startsAt: z.string(),
    endsAt: z.string(),
    timeZone: z.string().meta({
      description: "IANA time zone of the event (the venue's local time); `startsAt`/`endsAt` stay UTC instants.",
      example: 'Europe/Berlin',
    }),
    status: z.enum(eventStatuses),
    visibility: z.enum(eventVisibilities),
    host: z
      .object({ kind: z.enum(['grove', 'organization']), _id: z.string(), slug: z.string(), name: z.string() })
      .strict(),
    venueName: z.string().nullable(),
    address: z.string().nullable(),
    area: z.string(),
    meetingPointVisibility: z.enum(meetingPointVisibilities),
    meetingPoint: z.object({ text: z.string(), location: location.nullable() }).strict().nullable().meta({
      description:
        "Null when there is none, or when it is for RSVP'd members only and the caller has not RSVP'd (see `meetingPointHidden`).",
    }),
    meetingPointHidden: z.boolean().meta({
      description:
        'True when an exact meeting point exists but is withheld from this caller; show `area` and `startsAt` instead.',
    }),
    placeId: z.string().nullable(),
    coverImage: z.string().nullable().meta({
      description:
        'As given: an https URL or the key of the attached upload (send it back, or leave it out, to keep it).',
    }),
    coverImageUrl: z.string().nullable().meta({
      description:
        'URL of the cover: the https URL given, or for an uploaded cover its clean image (re-encoded, without metadata) on this service; null when there is none.',
    }),
    coverImageDetails: imageOutput.nullable().meta({
      description: 'The cover with its size, alt text and resized variants (for srcset); null when there is none.',
    }),
    description: z.string(),
    rsvpCounts: rsvpCounts.meta({
      description: 'Visible to everyone; handles are for organizers only (GET /api/events/{id}/attendees).',
    }),
    capacity: z.number().int().nullable().meta({ description: 'Seats for `going` RSVPs; null for unlimited.' }),
    seatsLeft: z.number().int().nullable().meta({
      description:
        'Seats still free (0: a `going` RSVP joins the waitlist); null without a capacity. Pending RSVPs hold seats, so this can be less than `capacity - rsvpCounts.going`.',
    }),
    myRsvp: z.enum(myRsvpStatuses).nullable().meta({
      description:
        "The caller's own RSVP, or null. `waitlisted`: they RSVP'd `going` to a full event and wait for a seat (an RSVP-only meeting point stays hidden until then).",
    }),
    myWaitlistPosition: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The caller's place on the waitlist (1: next to get a seat); null when not waitlisted." }),
    myRsvpPending: z
      .boolean()
      .meta({ description: "True while the caller's own RSVP waits for an organizer's approval." }),
    rsvpApproval: z
      .boolean()
      .meta({ description: "True when RSVPs need an organizer's approval before the meeting point is revealed." }),
    canManage: z.boolean().meta({ description: 'True when the caller may edit or cancel the event.' }),
    series: seriesField,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict()
  .meta({ id: 'Event' });

export const listEventsInput = () =>
  z
    .object({
      from: isoDateTime()
        .optional()
        .meta({ description: 'Only events that end at or after this time (`from=<now>`: upcoming events).' }),
      to: isoDateTime()
        .optional()
        .meta({ description: 'Only events that start at or before this time. Must be after `from`.' }),
      q: z.string().trim().min(1).max(200).optional().meta({
        description:
          'Words to find in the title or description, each as a word prefix (`veg vig` finds "Vegan vigil"), case-insensitive; every word must match. Only letters and digits count.',
        example: 'vigil',
      }),
      past: queryBoolean().optional().meta({
        description:
          'true: only events that have ended, newest first (`startsAt` descending, the cursor pages in that order); `from`/`to` still narrow the window.',
      }),
      area: z.string().trim().min(1).max(120).optional().meta({
        description: "Case-insensitive: the event's area, or the region name of its hosting grove, equals this.",
      }),
      groveId: z.uuid().optional(),
      organizationId: z.uuid().optional(),
      series: seriesFilter,
      type: z.enum(eventTypes).optional(),
      ...pageQueryFields(),
    })
    .refine((v) => v.from === undefined || v.to === undefined || Date.parse(v.from) < Date.parse(v.to), {
      message: 'Must be after `from`.',
      path: ['to'],
    });
export const eventListOutput = listEnvelope(eventOutput);
// GET /api/events/{event} and PATCH /api/events/{event} are one path to OpenAPI, so they
// share the parameter name: GET takes the event's slug there, PATCH its `_id`.
export const eventSlugInput = z.object({
  event: z.string().min(1).max(120).meta({ description: "The event's slug (PATCH on this path takes its `_id`)." }),
});
export const eventIdInput = z.object({ id: z.uuid() });

export const rsvpInput = z
  .object({ id: z.uuid(), status: z.enum(rsvpStatuses) })
  .strict()
  .meta({ examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', status: 'going' }] });
export const rsvpStateOutput = z
  .object({
    eventId: z.string(),
    myRsvp: z.enum(myRsvpStatuses).nullable().meta({
      description:
        '`waitlisted` when a `going` RSVP found the event full: it waits for a seat, first come first served.',
    }),
    myWaitlistPosition: z
      .number()
      .int()
      .nullable()
      .meta({ description: '1: next to get a seat; null when not waitlisted.' }),
    myRsvpPending: z.boolean().meta({ description: 'True while an organizer has not approved it yet.' }),
    rsvpCounts,
  })
  .strict()
  .meta({ id: 'RsvpState' });

export const attendeesInput = () =>
  z.object({
    id: z.uuid(),
    waitlisted: queryBoolean().optional().meta({
      description: 'true: only the waitlist; false: only seated and `interested` RSVPs; absent: everyone.',
    }),
    ...pageQueryFields(),
  });
export const attendeeOutput = z
  .object({
    _id: z.string(),
    handle: z.string(),
    status: z.enum(rsvpStatuses),
    pending: z.boolean().meta({ description: 'Waiting for approval (events with `rsvpApproval`).' }),
    waitlistPosition: z.number().int().nullable().meta({
      description: 'Set for a `going` RSVP waiting for a seat (1: next to be promoted); null for everyone seated.',
    }),
    respondedAt: z.string(),
    checkedInAt: z.string().nullable().meta({
      description:
        'When an organizer checked the member in at the event (PUT /api/events/{id}/attendance/{handle}); null when not.',
    }),
  })
  .strict()
  .meta({ id: 'Attendee' });
export const attendeeListOutput = listEnvelope(attendeeOutput);

export const rsvpMemberInput = z
  .object({ id: z.uuid(), handle: z.string().min(1).max(30) })
  .strict()
  .meta({ examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', handle: 'sam_sprouts' }] });

export const revealsInput = () => z.object({ id: z.uuid(), ...pageQueryFields() });
export const revealOutput = z
  .object({
    _id: z.string(),
    handle: z.string(),
    firstRevealedAt: z.string(),
    rsvp: z
      .enum(rsvpStatuses)
      .nullable()
      .meta({ description: "The member's RSVP now; null once withdrawn (the reveal stays logged)." }),
  })
  .strict()
  .meta({ id: 'MeetingPointReveal' });
export const revealListOutput = listEnvelope(revealOutput);

export const calendarTokenOutput = z
  .object({
    url: z.string().meta({
      description:
        "Private iCalendar feed of the events the caller RSVP'd to. Anyone with this URL can read it; rotate or revoke it here.",
    }),
    createdAt: z.string(),
    expiresAt: z.string().meta({
      description: 'The link stops working then (CALENDAR_FEED_TTL_DAYS after creation); create it again to renew.',
    }),
  })
  .strict()
  .meta({ id: 'CalendarFeed' });

export type EventOutput = z.infer<typeof eventOutput>;
export type CreateEventInput = z.infer<typeof createEventInput>;
/** What the service takes: the path's `event` as `id`. */
export type UpdateEventInput = Omit<z.infer<typeof updateEventInput>, 'event'> & { id: string };
