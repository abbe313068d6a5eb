// Recurring events in the API: the `recurrence` of a create, the `series` of every event output,
// and the scopes of a PATCH (server/domains/events/series.ts).
import { z } from 'zod';

export const recurrenceInput = z
  .object({
    rule: z.string().trim().min(1).max(500).meta({
      description:
        "An RFC 5545 RRULE without DTSTART (`startsAt`/`endsAt` are the first occurrence's slot): FREQ DAILY, WEEKLY, MONTHLY or YEARLY with INTERVAL, BYDAY (`2TH`: second Thursday), BYMONTHDAY, BYMONTH, BYSETPOS, WKST, and COUNT or UNTIL (required; a date-only UNTIL includes that day). Expanded on the local wall time of `timeZone`, so 18:00 stays 18:00 across daylight-saving changes. At most 100 occurrences within two years (400 otherwise).",
      example: 'FREQ=WEEKLY;BYDAY=TH;COUNT=10',
    }),
    exceptions: z
      .array(z.iso.date())
      .max(100)
      .optional()
      .meta({ description: 'Local dates (YYYY-MM-DD) the rule skips (EXDATE).', example: ['2026-12-24'] }),
  })
  .strict();

export const seriesOutput = z
  .object({
    _id: z.string(),
    rule: z
      .string()
      .meta({ description: 'The RRULE, normalized (no DTSTART).', example: 'FREQ=WEEKLY;COUNT=10;BYDAY=TH' }),
    timeZone: z.string().meta({ description: 'The zone the rule is expanded in.' }),
    start: z.string().meta({ description: 'DTSTART: local wall time of the series start, `YYYY-MM-DDTHH:MM:SS`.' }),
    durationSeconds: z.number().int(),
    occurrence: z.string().meta({
      description:
        "This occurrence's scheduled local start in the series (its RECURRENCE-ID), `YYYY-MM-DDTHH:MM:SS`; differs from `startsAt` once it was moved on its own.",
    }),
    overridden: z.boolean().meta({
      description: 'Edited on its own (`scope: this`): edits of the series (`following`, `all`) leave it as it is.',
    }),
  })
  .strict()
  .meta({ id: 'EventSeries' });

export const editScopes = ['this', 'following', 'all'] as const;

export const recurrenceField = recurrenceInput.optional().meta({
  description:
    'Makes it a recurring series: every occurrence is an event of its own (own `_id`, slug, RSVPs), listed by GET /api/events?series=<series._id>. The answer is the first occurrence.',
});

export const seriesCreateExample = {
  groveId: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6',
  title: 'Thursday vigil',
  type: 'vigil',
  startsAt: '2026-12-03T17:00:00Z',
  endsAt: '2026-12-03T18:00:00Z',
  timeZone: 'Europe/Berlin',
  area: 'Berlin',
  recurrence: { rule: 'FREQ=WEEKLY;BYDAY=TH;COUNT=10', exceptions: ['2026-12-24'] },
};

export const scopeField = z.enum(editScopes).optional().meta({
  description:
    'For an occurrence of a series: `this` (default) changes this occurrence only (it is then `overridden`); `following` this and the later ones (they become a new series when earlier ones exist); `all` every occurrence not yet ended. With `following`/`all`, occurrences edited on their own are left as they are (cancelling excepted), past ones are never rewritten, and a new `startsAt` may change the time of day and the length but not the date (400). Ignored for single events.',
});

export const seriesField = seriesOutput
  .nullable()
  .meta({ description: 'The recurring series this occurrence belongs to; null for a single event.' });

export const seriesFilter = z.uuid().optional().meta({
  description:
    'Only the occurrences of this series (`series._id`), in start order, under the same visibility rules: an unknown series, or one the caller may not see, lists nothing.',
});
