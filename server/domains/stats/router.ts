import { z } from 'zod';
import { router } from '../../trpc/init.js';
import { publicProcedure } from '../../trpc/procedures.js';
import { statsOutput } from './schemas.js';
import { getStats } from './service.js';

export const statsRouter = router({
  get: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/stats',
        tags: ['stats'],
        protect: false,
        summary: 'Aggregate counters',
        description: 'Cached for 5 minutes; `generatedAt` says when they were computed.',
      },
    })
    .input(z.object({}))
    .output(statsOutput)
    .query(({ ctx }) => getStats(ctx)),
});
