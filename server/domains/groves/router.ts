// Groves: wiring only (logic in service.ts).
import { router } from '../../trpc/init.js';
import { memberProcedure, publicProcedure } from '../../trpc/procedures.js';
import { okOutput } from '../../shared/schemas.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['groves'];

export const grovesRouter = router({
  list: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/groves',
        tags,
        protect: false,
        summary: 'List groves',
        description: 'Member counts only, never member lists.',
      },
    })
    .input(schemas.listGrovesInput())
    .output(schemas.groveListOutput)
    .query(({ ctx, input }) => service.listGroves(ctx, input)),

  get: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/groves/{slug}',
        tags,
        protect: false,
        summary: 'One grove',
        description: "Member counts only, never member lists. `myRole` is the caller's own membership.",
      },
    })
    .input(schemas.groveSlugInput)
    .output(schemas.groveOutput)
    .query(({ ctx, input }) => service.getGrove(ctx, input)),

  join: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'POST',
        path: '/api/groves/{id}/join',
        tags,
        summary: 'Join a grove',
        description: 'Idempotent; an organizer who joins again stays organizer. Answers the grove.',
      },
    })
    .input(schemas.groveIdInput)
    .output(schemas.groveOutput)
    .mutation(({ ctx, input }) => service.joinGrove(ctx, input)),

  leave: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/groves/{id}/leave',
        tags,
        summary: 'Leave a grove',
        description: 'Idempotent. An organizer who leaves stops being an organizer.',
      },
    })
    .input(schemas.leaveGroveInput())
    .output(okOutput)
    .mutation(({ ctx, input }) => service.leaveGrove(ctx, input)),
});
