// Place routes and their admin moderation routes: wiring only.
import { router } from '../../trpc/init.js';
import { adminProcedure, memberProcedure, publicProcedure } from '../../trpc/procedures.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['places'];
const adminTags = ['admin'];

export const placesRouter = router({
  list: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/places',
        tags,
        protect: false,
        summary: 'Approved places, optionally in a bounding box',
        description:
          'Approved places only, ordered by `_id`. Filters: `bbox` (west,south,east,north; west > east crosses the antimeridian), `type`, `veganLevel`, `q` (word-prefix text search over name, address and tags). 400 `validation_failed` for a bad filter, 400 `invalid_cursor` for a bad cursor.',
      },
    })
    .input(schemas.listPlacesInput())
    .output(schemas.placeListOutput)
    .query(({ ctx, input }) => service.listPlaces(ctx, input)),

  get: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/places/{slug}',
        tags,
        protect: false,
        summary: 'One place by slug',
        description:
          'A place that is not approved is visible only to its submitter and admins; anyone else gets the same 404 as for a slug that never existed.',
      },
    })
    .input(schemas.placeSlugInput)
    .output(schemas.placeOutput)
    .query(async ({ ctx, input }) => service.getPlace(ctx, await ctx.authenticate(), input)),

  create: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'places.create',
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/api/places',
        tags,
        summary: 'Submit a place for review',
        description:
          'Created with status `pending`: visible to the submitter and admins until an admin approves it. The slug is derived from the name; a taken slug gets a numeric suffix. Unknown fields are rejected. `photos` take https URLs and image upload keys of purpose `place` (attached: checked, re-encoded without metadata, served at `photoUrls`); a key that is not yours, of another purpose, used or not an image answers 400 and no place is created.',
      },
    })
    .input(schemas.createPlaceInput)
    .output(schemas.placeOutput)
    .mutation(({ ctx, input }) => service.createPlace(ctx, input)),

  adminListPending: adminProcedure
    .meta({
      auth: 'admin',
      openapi: {
        method: 'GET',
        path: '/api/admin/places/pending',
        tags: adminTags,
        summary: 'Places waiting for review',
        description: 'Oldest first (ordered by `_id`).',
      },
    })
    .input(schemas.listPendingInput)
    .output(schemas.placeListOutput)
    .query(({ ctx, input }) => service.listPendingPlaces(ctx, input)),

  approve: adminProcedure
    .meta({
      auth: 'admin',
      errors: ['conflict'],
      openapi: {
        method: 'PUT',
        path: '/api/admin/places/{id}/approve',
        tags: adminTags,
        summary: 'Approve a pending place',
        description:
          'pending → approved: the place appears in public reads and statistics. 409 `conflict` unless pending; 404 for an unknown id.',
      },
    })
    .input(schemas.placeIdInput)
    .output(schemas.placeOutput)
    .mutation(({ ctx, input }) => service.approvePlace(ctx, input)),

  reject: adminProcedure
    .meta({
      auth: 'admin',
      errors: ['conflict'],
      openapi: {
        method: 'PUT',
        path: '/api/admin/places/{id}/reject',
        tags: adminTags,
        summary: 'Reject a pending place',
        description:
          'pending → rejected: the place stays out of public reads. An optional `reason` (body) is stored and shown to the submitter (and admins) as `rejectionReason` on the rejected place. 409 `conflict` unless pending; 404 for an unknown id.',
      },
    })
    .input(schemas.rejectPlaceInput)
    .output(schemas.placeOutput)
    .mutation(({ ctx, input }) => service.rejectPlace(ctx, input)),
});

// Reportable (POST /api/reports): this domain decides what a reporter may see and what the admins get.
