// Guest RSVPs: zod inputs and outputs with their REST examples.
import { z } from 'zod';
import { rsvpStatuses } from '../../../db/schema/index.js';
import { LOCALES } from '../../shared/i18n/index.js';
import { listEnvelope, pageQueryFields } from '../../shared/schemas.js';
import { emailInput } from '../auth/schemas.js';

const EVENT_ID = '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6';
const TOKEN_EXAMPLE = 'mk3q7x2v5n4p6r8t2w4y6z3b5d7f9h2j4l6n8p3r5t7v9x2z4b6d8f';

export const guestRsvpInput = z
  .object({
    id: z.uuid(),
    email: emailInput,
    status: z.enum(rsvpStatuses),
    locale: z.enum(LOCALES).optional().meta({ description: 'Language of the mails (default English).' }),
  })
  .strict()
  .meta({ examples: [{ id: EVENT_ID, email: 'jo@example.org', status: 'going', locale: 'en' }] });

export const acceptedOutput = z.object({ accepted: z.literal(true) });

/** A token from a guest mail: any string is accepted, one that cannot be ours is simply unknown. */
const guestToken = () => z.string().min(1).max(128);

export const confirmInput = z
  .object({ token: guestToken() })
  .strict()
  .meta({ examples: [{ token: TOKEN_EXAMPLE }] });

export const withdrawInput = z
  .object({ token: guestToken() })
  .strict()
  .meta({ examples: [{ token: TOKEN_EXAMPLE }] });

export const guestEventSummary = z
  .object({
    _id: z.string(),
    slug: z.string(),
    title: z.string(),
    startsAt: z.string(),
    endsAt: z.string(),
    timeZone: z.string(),
    area: z.string(),
  })
  .strict()
  .meta({ id: 'GuestEventSummary' });

export const confirmOutput = z
  .object({
    event: guestEventSummary,
    status: z.enum(rsvpStatuses),
    pending: z.boolean().meta({
      description: 'The event keeps its meeting point for RSVPs: it is mailed once an organizer approves the guest.',
    }),
    withdrawToken: z.string().meta({
      description: 'Withdraws the RSVP (`DELETE /api/guest-rsvps/{token}`); also mailed. Lives as long as the RSVP.',
    }),
  })
  .strict()
  .meta({ id: 'GuestRsvpConfirmation' });

export const guestListInput = () => z.object({ id: z.uuid(), ...pageQueryFields() });

export const guestOutput = z
  .object({
    _id: z.string(),
    kind: z.literal('guest'),
    email: z
      .string()
      .meta({ description: 'First letter and domain only: `j…@example.org`.', example: 'j…@example.org' }),
    status: z.enum(rsvpStatuses),
    pending: z.boolean().meta({ description: 'Waiting for approval (the meeting point is RSVP-only).' }),
    confirmedAt: z.string(),
  })
  .strict()
  .meta({ id: 'GuestRsvp' });
export const guestListOutput = listEnvelope(guestOutput);

export const guestRefInput = z
  .object({ id: z.uuid(), guestId: z.uuid() })
  .strict()
  .meta({ examples: [{ id: EVENT_ID, guestId: '01936f5e-9d3b-7c4e-8f5a-b2c3d4e5f6a7' }] });

export const guestRevealOutput = z
  .object({
    _id: z.string(),
    email: z.string().meta({ description: 'First letter and domain only.', example: 'j…@example.org' }),
    firstRevealedAt: z.string(),
    rsvp: z.enum(rsvpStatuses).nullable().meta({ description: 'Null once the guest withdrew or was declined.' }),
  })
  .strict()
  .meta({ id: 'GuestReveal' });
export const guestRevealListOutput = listEnvelope(guestRevealOutput);
