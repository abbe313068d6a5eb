// Shift inputs and outputs (issue #26). Handles appear only in `roster`, for the event's organizers.
import { z } from 'zod';
import { listEnvelope } from '../../lib/pagination.js';
import { isoDateTimeInput } from '../../shared/schemas.js';

/** The most shifts one event may have: the list answers them all on one page (`nextCursor` is always null). */
export const MAX_SHIFTS_PER_EVENT = 100;

const instant = isoDateTimeInput('2026-12-05T13:00:00Z');

export const createShiftInput = z
  .object({
    id: z.uuid(),
    startsAt: instant,
    endsAt: instant,
    capacity: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .meta({ description: 'How many members the shift takes (at least 1).' }),
    role: z
      .string()
      .trim()
      .min(1)
      .max(60)
      .optional()
      .meta({ description: 'Short free text naming the job, e.g. "setup".' }),
  })
  .strict()
  .refine((v) => Date.parse(v.endsAt) > Date.parse(v.startsAt), {
    message: 'endsAt must be after startsAt.',
    path: ['endsAt'],
  })
  .meta({
    description: '`endsAt` after `startsAt`; `capacity` at least 1.',
    examples: [
      {
        id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6',
        startsAt: '2026-12-05T13:00:00Z',
        endsAt: '2026-12-05T14:00:00Z',
        capacity: 4,
        role: 'setup',
      },
    ],
  });

export const eventShiftsInput = z.object({ id: z.uuid() });
export const shiftIdInput = z
  .object({ id: z.uuid(), shiftId: z.uuid() })
  .strict()
  .meta({
    examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', shiftId: '01936f5e-9d3b-7c4e-8f5a-b2c3d4e5f6a7' }],
  });

export const shiftOutput = z
  .object({
    _id: z.string(),
    eventId: z.string(),
    startsAt: z.string(),
    endsAt: z.string(),
    capacity: z.number().int(),
    role: z.string().nullable(),
    counts: z
      .object({ signedUp: z.number().int(), capacity: z.number().int() })
      .strict()
      .meta({ description: 'Signups so far and the capacity; everyone who can see the event sees these.' }),
    mine: z.boolean().meta({ description: 'True when the caller signed up for this shift.' }),
    roster: z
      .array(z.object({ handle: z.string(), signedUpAt: z.string() }).strict())
      .optional()
      .meta({
        description: "Who signed up, oldest first: only for the event's organizers (absent for everyone else).",
      }),
  })
  .strict()
  .meta({ id: 'EventShift' });

export const shiftListOutput = listEnvelope(shiftOutput);

export type ShiftOutput = z.infer<typeof shiftOutput>;
