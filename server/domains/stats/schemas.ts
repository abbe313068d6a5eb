import { z } from 'zod';
import { placeTypes } from '../../../db/schema/places.js';
import { actionTotalsOutput } from '../actions/schemas.js';

export const statsOutput = z
  .object({
    members: z.number().int().meta({ description: 'Registered accounts.' }),
    places: z
      .object({
        approved: z.number().int().meta({ description: 'Approved places on the public map.' }),
        byType: z.object(
          Object.fromEntries(placeTypes.map((type) => [type, z.number().int()])) as Record<
            (typeof placeTypes)[number],
            z.ZodNumber
          >,
        ),
      })
      .meta({ description: 'Approved places, in total and per type.' }),
    events: z
      .object({
        upcomingPublic: z.number().int().meta({ description: 'Public, scheduled events that have not ended.' }),
        groves: z.number().int(),
        organizations: z.number().int(),
      })
      .meta({ description: 'Events, groves and organizations (counts only).' }),
    actions: actionTotalsOutput.nullable().meta({
      description:
        'Anonymous sum of the action totals of every member who opted in; null while fewer than 5 contribute. Cached like the rest: an opt-out leaves it within 5 minutes.',
    }),
    generatedAt: z.string().meta({ description: 'When these counters were computed; they are cached for 5 minutes.' }),
  })
  .meta({ id: 'Stats' });

export type StatsOutput = z.infer<typeof statsOutput>;
