// Guides, their admin editing and the admin-managed guide categories: wiring only.
import { router } from '../../trpc/init.js';
import { adminProcedure, publicProcedure } from '../../trpc/procedures.js';
import { okOutput } from '../../shared/schemas.js';
import * as schemas from './schemas.js';
import * as service from './service.js';
import { editorialAdminRoutes } from '../editorial-routes.js';

const tags = ['guides'];
const adminTags = ['admin'];

export const guidesRouter = router({
  list: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/guides',
        tags,
        protect: false,
        summary: 'Published guides, optionally of one category',
        description: 'Published guides only, in `_id` order, without their bodies (GET /api/guides/{slug} has them).',
      },
    })
    .input(schemas.listGuidesInput())
    .output(schemas.guideListOutput)
    .query(({ ctx, input }) => service.listGuides(ctx, input)),

  get: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/guides/{slug}',
        tags,
        protect: false,
        summary: 'One published guide: Markdown source and sanitised HTML',
        description: 'A draft answers 404, the same as a missing guide.',
      },
    })
    .input(schemas.guideSlugInput())
    .output(schemas.guideOutput)
    .query(({ ctx, input }) => service.getGuide(ctx, input)),

  ...editorialAdminRoutes('/api/admin/guides', {
    list: {
      input: schemas.adminListGuidesInput(),
      output: schemas.adminGuideListOutput,
      run: service.adminListGuides,
      summary: 'All guides, drafts included',
      description: 'In `_id` order, without bodies. Filters: `category`, `published`.',
    },
    create: {
      input: schemas.createGuideInput,
      output: schemas.adminGuideOutput,
      run: service.adminCreateGuide,
      summary: 'Create a guide (as a draft)',
      description:
        'Created unpublished: publish with PATCH `{ published: true }`. The Markdown body is rendered to sanitised HTML now. `category` must be an existing category slug (400 otherwise). Without `slug`, one is made from the title with a random suffix; a `slug` that is taken answers 409 `conflict`. `coverImage`: an https URL or an image upload key of purpose `guide` (attached: checked and re-encoded without metadata; a key that is not yours, of another purpose, used or not an image answers 400 and nothing is created).',
    },
    get: {
      input: schemas.guideIdInput(),
      output: schemas.adminGuideOutput,
      run: service.adminGetGuide,
      summary: 'One guide, draft or published',
    },
    update: {
      input: schemas.updateGuideInput,
      output: schemas.adminGuideOutput,
      run: service.adminUpdateGuide,
      summary: 'Change a guide (edit, recategorise, publish)',
      description:
        '`published: true` publishes (the first publication time is kept), `false` makes it a draft again. A new title keeps the slug; a `slug` that is taken answers 409 `conflict`. A new `coverImage` key is attached like at creation; the uploaded cover it replaces is deleted (its URL answers 404).',
    },
    delete: {
      input: schemas.guideIdInput(),
      run: service.adminDeleteGuide,
      summary: 'Delete a guide',
      description: 'Its uploaded cover is deleted too (the URL answers 404).',
    },
  }),
});

export const guideCategoriesRouter = router({
  list: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/guide-categories',
        tags,
        protect: false,
        summary: 'The guide categories',
        description: 'Every category, in `_id` order; admins manage the set (/api/admin/guide-categories).',
      },
    })
    .input(schemas.listCategoriesInput())
    .output(schemas.guideCategoryListOutput)
    .query(({ ctx, input }) => service.listCategories(ctx, input)),

  adminCreate: adminProcedure
    .meta({
      auth: 'admin',
      successStatus: 201,
      errors: ['conflict'],
      openapi: {
        method: 'POST',
        path: '/api/admin/guide-categories',
        tags: adminTags,
        summary: 'Create a guide category',
        description: 'Without `slug`, one is made from the name; a `slug` that is taken answers 409 `conflict`.',
      },
    })
    .input(schemas.createCategoryInput)
    .output(schemas.guideCategoryOutput)
    .mutation(({ ctx, input }) => service.createCategory(ctx, input)),

  adminUpdate: adminProcedure
    .meta({
      auth: 'admin',
      errors: ['conflict'],
      openapi: {
        method: 'PATCH',
        path: '/api/admin/guide-categories/{id}',
        tags: adminTags,
        summary: 'Rename a guide category',
        description: 'Its guides follow a new slug. A `slug` that is taken answers 409 `conflict`.',
      },
    })
    .input(schemas.updateCategoryInput)
    .output(schemas.guideCategoryOutput)
    .mutation(({ ctx, input }) => service.updateCategory(ctx, input)),

  adminDelete: adminProcedure
    .meta({
      auth: 'admin',
      errors: ['conflict'],
      openapi: {
        method: 'DELETE',
        path: '/api/admin/guide-categories/{id}',
        tags: adminTags,
        summary: 'Delete an empty guide category',
        description: 'A category that still holds guides (drafts included) answers 409 `conflict`.',
      },
    })
    .input(schemas.categoryIdInput())
    .output(okOutput)
    .mutation(({ ctx, input }) => service.deleteCategory(ctx, input)),
});
