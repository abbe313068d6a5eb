// Media library, the private watchlist and the admin editing of media items: wiring only.
import { router } from '../../trpc/init.js';
import { memberProcedure, publicProcedure } from '../../trpc/procedures.js';
import * as schemas from './schemas.js';
import * as service from './service.js';
import { editorialAdminRoutes } from '../editorial-routes.js';

const tags = ['media'];
const DRAFT_404 = 'A draft (unpublished) item answers 404, the same as a missing one.';

export const mediaRouter = router({
  list: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/media',
        tags,
        protect: false,
        summary: 'Published media items',
        description:
          'Published items only, in `_id` order (or featured first with `featuredFirst=true`). Filters: `kind`, `tag`, `featured`, `q` (word-prefix text search over title and synopsis). Nothing about watchlists (no save counts) is in any media answer.',
      },
    })
    .input(schemas.listMediaInput())
    .output(schemas.mediaListOutput)
    .query(({ ctx, input }) => service.listMedia(ctx, input)),

  get: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/media/{slug}',
        tags,
        protect: false,
        summary: 'One published media item by slug',
        description: DRAFT_404,
      },
    })
    .input(schemas.mediaSlugInput())
    .output(schemas.mediaItemOutput)
    .query(({ ctx, input }) => service.getMedia(ctx, input)),

  save: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'POST',
        path: '/api/media/{id}/save',
        tags,
        summary: "Add to the caller's private watchlist",
        description: `Idempotent: 200 \`{ saved: true }\` whether or not it was saved before. ${DRAFT_404} Only the caller ever sees their watchlist; nothing records whether or when anything was watched.`,
      },
    })
    .input(schemas.mediaIdInput())
    .output(schemas.savedOutput)
    .mutation(({ ctx, input }) => service.saveMedia(ctx, input)),

  unsave: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/media/{id}/save',
        tags,
        summary: "Remove from the caller's watchlist",
        description:
          "Idempotent: 200 `{ saved: false }`. The caller's own entry can always be removed, even of an item that became a draft; otherwise a draft or missing item answers 404.",
      },
    })
    .input(schemas.mediaIdInput())
    .output(schemas.savedOutput)
    .mutation(({ ctx, input }) => service.unsaveMedia(ctx, input)),

  ...editorialAdminRoutes('/api/admin/media', {
    list: {
      input: schemas.adminListMediaInput(),
      output: schemas.adminMediaListOutput,
      run: service.adminListMedia,
      summary: 'All media items, drafts included',
      description: 'In `_id` order. Filters: `kind`, `published`.',
    },
    create: {
      input: schemas.createMediaInput,
      output: schemas.adminMediaItemOutput,
      run: service.adminCreateMedia,
      summary: 'Create a media item (as a draft)',
      description:
        'Created unpublished: publish with PATCH `{ published: true }`. Without `slug`, one is made from the title with a random suffix; a `slug` that is taken answers 409 `conflict`. `trailer` takes a YouTube or Vimeo URL; `poster` an https URL or an image upload key of purpose `media` (attached: checked and re-encoded without metadata; a key that is not yours, of another purpose, used or not an image answers 400 and nothing is created).',
    },
    get: {
      input: schemas.mediaIdInput(),
      output: schemas.adminMediaItemOutput,
      run: service.adminGetMedia,
      summary: 'One media item, draft or published',
    },
    update: {
      input: schemas.updateMediaInput,
      output: schemas.adminMediaItemOutput,
      run: service.adminUpdateMedia,
      summary: 'Change a media item (edit, feature, publish)',
      description:
        '`published: true` publishes (the first publication time is kept), `false` makes it a draft again. A new title keeps the slug; a `slug` that is taken answers 409 `conflict`. A new `poster` key is attached like at creation; the uploaded poster it replaces is deleted (its URL answers 404).',
    },
    delete: {
      input: schemas.mediaIdInput(),
      run: service.adminDeleteMedia,
      summary: 'Delete a media item (and every watchlist entry of it)',
      description: 'Its uploaded poster is deleted too (the URL answers 404).',
    },
  }),
});

/** GET /api/me/watchlist: merged into the `me` namespace (its manifest adds it: server/domains/media/manifest.ts). */
export const watchlistRouter = router({
  listWatchlist: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/me/watchlist',
        tags: ['me'],
        summary: "The caller's private watchlist",
        description:
          'Saved items in the order they were saved (the cursor orders over the entry `_id`). Items that became drafts are left out until published again; deleted items are gone. Nobody else can read it, admins included.',
      },
    })
    .input(schemas.watchlistInput())
    .output(schemas.watchlistOutput)
    .query(({ ctx, input }) => service.listWatchlist(ctx, input)),
});
