// Place reviews (under the `places` namespace) and place lists (`placeLists`): wiring only.
import { okOutput } from '../../shared/schemas.js';
import { router } from '../../trpc/init.js';
import { memberProcedure, publicProcedure } from '../../trpc/procedures.js';
import { placeListOutput as placesPageOutput } from '../places/schemas.js';
import * as lists from './lists.js';
import * as reviews from './reviews.js';
import * as schemas from './schemas.js';

const reviewTags = ['places'];
const listTags = ['place-lists'];

const mineDescription =
  "The caller's own review of the place, addressed by place and session: no route takes a review `_id`, so a review's id cannot be used to find its author. 404 when the caller has not reviewed the place.";

/** Merged into the places router: the tRPC paths stay places.listReviews, places.createReview... */
export const placeReviewsRouter = router({
  listReviews: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/places/{id}/reviews',
        tags: reviewTags,
        protect: false,
        summary: 'Reviews of an approved place',
        description:
          "Newest first (descending `_id`). The same answer for every caller. A review names its author only by handle and only when the author chose `showHandle`; otherwise it has no author field at all. A place that is not approved answers 404 like a missing one. The place's `averageRating` and `reviewCount` are on the place itself (GET /api/places, GET /api/places/{slug}).",
      },
    })
    .input(schemas.listReviewsInput())
    .output(schemas.reviewListOutput)
    .query(({ ctx, input }) => reviews.listReviews(ctx, input)),

  createReview: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'reviews.create',
      successStatus: 201,
      errors: ['conflict'],
      openapi: {
        method: 'POST',
        path: '/api/places/{id}/reviews',
        tags: reviewTags,
        summary: 'Review a place',
        description:
          "One review per member and place: a second answers 409 `conflict` (change the first with PATCH /api/places/{id}/reviews/mine). Approved places only; any other place answers 404 like a missing one. `monthVisited` (YYYY-MM) may not be a future month (400). `showHandle` (default false) decides whether the review shows the author's handle. The place's `averageRating` and `reviewCount` include it at once.",
      },
    })
    .input(schemas.createReviewInput)
    .output(schemas.reviewOutput)
    .mutation(({ ctx, input }) => reviews.createReview(ctx, input)),

  getMyReview: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/places/{id}/reviews/mine',
        tags: reviewTags,
        summary: 'My review of a place',
        description: mineDescription,
      },
    })
    .input(schemas.placeReviewInput)
    .output(schemas.reviewOutput)
    .query(({ ctx, input }) => reviews.getMyReview(ctx, input)),

  updateMyReview: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'PATCH',
        path: '/api/places/{id}/reviews/mine',
        tags: reviewTags,
        summary: 'Change my review of a place',
        description: `${mineDescription} Only the fields sent change; \`updatedAt\` records the edit.`,
      },
    })
    .input(schemas.updateReviewInput)
    .output(schemas.reviewOutput)
    .mutation(({ ctx, input }) => reviews.updateMyReview(ctx, input)),

  deleteMyReview: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/places/{id}/reviews/mine',
        tags: reviewTags,
        summary: 'Delete my review of a place',
        description: `${mineDescription} The place's rating aggregate drops it at once; the caller may review the place again.`,
      },
    })
    .input(schemas.placeReviewInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => reviews.deleteMyReview(ctx, input)),
});

const ownerOnly = 'Owner only: any other caller gets 404, exactly as for a missing list, public or not.';

export const placeListsRouter = router({
  list: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/place-lists',
        tags: listTags,
        summary: "The caller's place lists",
        description: 'Private and public ones, oldest first (by `_id`).',
      },
    })
    .input(schemas.listPlaceListsInput())
    .output(schemas.placeListListOutput)
    .query(({ ctx, input }) => lists.listMyLists(ctx, input)),

  create: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'placeLists.create',
      successStatus: 201,
      errors: ['conflict'],
      openapi: {
        method: 'POST',
        path: '/api/place-lists',
        tags: listTags,
        summary: 'Create a place list (private by default)',
        description: `Private unless \`isPublic\`; the owner's handle shows only with \`showHandle\`. The \`slug\` (always with a random suffix) is the list's stable public address. At most ${schemas.PLACE_LIST_LIMITS.listsPerMember} lists per member: 409 \`conflict\` past that. Add places with PUT /api/place-lists/{id}/places/{placeId}.`,
      },
    })
    .input(schemas.createPlaceListInput)
    .output(schemas.placeListOutput)
    .mutation(({ ctx, input }) => lists.createList(ctx, input)),

  get: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/place-lists/{id}',
        tags: listTags,
        protect: false,
        summary: 'One place list, by id or slug',
        description:
          "`id` is the list's `_id` or its `slug`. A public list is readable by anyone, signed in or not, and shows no owner unless the owner chose `showHandle` (then only `ownerHandle`). A private list is readable by its owner only; anyone else gets 404, exactly as for a list that never existed. Its places: GET /api/place-lists/{id}/places.",
      },
    })
    .input(schemas.placeListAddressInput)
    .output(schemas.placeListOutput)
    .query(async ({ ctx, input }) => lists.getList(ctx, await ctx.authenticate(), input)),

  listPlaces: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/place-lists/{id}/places',
        tags: listTags,
        protect: false,
        summary: 'The places of a place list',
        description:
          'The approved places of the list, in `_id` order, as GET /api/places shows them. Readable exactly like GET /api/place-lists/{id}: public lists by anyone, private ones by their owner; otherwise 404.',
      },
    })
    .input(schemas.listPlacesOfListInput())
    .output(placesPageOutput)
    .query(async ({ ctx, input }) => lists.listPlacesOfList(ctx, await ctx.authenticate(), input)),

  update: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'PATCH',
        path: '/api/place-lists/{id}',
        tags: listTags,
        summary: 'Change a place list',
        description: `Name, description, \`isPublic\`, \`showHandle\`; the slug stays. ${ownerOnly}`,
      },
    })
    .input(schemas.updatePlaceListInput)
    .output(schemas.placeListOutput)
    .mutation(({ ctx, input }) => lists.updateList(ctx, input)),

  delete: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/place-lists/{id}',
        tags: listTags,
        summary: 'Delete a place list',
        description: `The places themselves stay. ${ownerOnly}`,
      },
    })
    .input(schemas.placeListIdInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => lists.deleteList(ctx, input)),

  addPlace: memberProcedure
    .meta({
      auth: 'member',
      errors: ['conflict'],
      openapi: {
        method: 'PUT',
        path: '/api/place-lists/{id}/places/{placeId}',
        tags: listTags,
        summary: 'Add a place to a place list',
        description: `Idempotent: a place already in the list stays once. Approved places only; any other place answers 404 like a missing one. At most ${schemas.PLACE_LIST_LIMITS.placesPerList} places per list: 409 \`conflict\` past that. ${ownerOnly}`,
      },
    })
    .input(schemas.placeInListInput)
    .output(schemas.placeListOutput)
    .mutation(({ ctx, input }) => lists.addPlace(ctx, input)),

  removePlace: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/place-lists/{id}/places/{placeId}',
        tags: listTags,
        summary: 'Remove a place from a place list',
        description: `Idempotent: removing a place that is not in the list answers 200 too. ${ownerOnly}`,
      },
    })
    .input(schemas.placeInListInput)
    .output(schemas.placeListOutput)
    .mutation(({ ctx, input }) => lists.removePlace(ctx, input)),
});
