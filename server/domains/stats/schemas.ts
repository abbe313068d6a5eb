import { z } from 'zod';

export const statsOutput = z
  .object({
    members: z.number().int().meta({ description: 'Registered accounts.' }),
    generatedAt: z.string().meta({ description: 'When these counters were computed; they are cached for 5 minutes.' }),
  })
  .meta({ id: 'Stats' });

export type StatsOutput = z.infer<typeof statsOutput>;
