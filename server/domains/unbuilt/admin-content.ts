// Admin tools for media items and guides: mounted, validated, answering 501.
// Admins see unpublished items; nobody else does.
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { adminProcedure, notImplemented } from '../../trpc/procedures.js';
import { jsonBoolean, jsonNumber, okOutput, queryBoolean, slugParam, uuidParam } from './common.js';
import { GUIDE_LIMITS, guideCategory, guideOutput } from './guides.js';
import { MEDIA_LIMITS, httpsUrl, mediaItemOutput, mediaKinds, mediaTags, watchLinkSchema } from './media.js';

const unbuilt = true as const;
const tags = ['admin'];

// ---- media ----

const adminFields = { published: z.boolean(), createdAt: z.string(), updatedAt: z.string() };
export const adminMediaItemOutput = mediaItemOutput.extend(adminFields).meta({ id: 'AdminMediaItem' });

// Fields without defaults: PATCH must not reset what it does not mention.
const mediaFields = {
  slug: slugParam().meta({ description: 'Made from the title when absent.' }),
  kind: z.enum(mediaKinds),
  title: z.string().trim().min(1).max(MEDIA_LIMITS.title),
  year: jsonNumber(z.number().int().min(1870).max(2100)).nullable(),
  synopsis: z.string().trim().max(MEDIA_LIMITS.synopsis),
  tags: z.array(z.enum(mediaTags)).max(mediaTags.length),
  posterUrl: httpsUrl().nullable(),
  watchLinks: z.array(watchLinkSchema).max(MEDIA_LIMITS.watchLinks),
  trailerUrl: httpsUrl().nullable(),
  featured: jsonBoolean(),
  published: jsonBoolean(),
};
export const createMediaInput = z
  .object({
    ...mediaFields,
    slug: mediaFields.slug.optional(),
    year: mediaFields.year.optional(),
    synopsis: mediaFields.synopsis.default(''),
    tags: mediaFields.tags.default([]),
    posterUrl: mediaFields.posterUrl.optional(),
    watchLinks: mediaFields.watchLinks.default([]),
    trailerUrl: mediaFields.trailerUrl.optional(),
    featured: mediaFields.featured.default(false),
    published: mediaFields.published.default(false),
  })
  .strict()
  .meta({
    examples: [
      {
        kind: 'documentary',
        title: 'Dominion',
        year: 2018,
        synopsis: 'Australian animal agriculture, filmed with hidden cameras.',
        tags: ['ethics'],
        posterUrl: 'https://images.example.org/dominion.jpg',
        watchLinks: [{ platform: 'YouTube', url: 'https://www.youtube.com/watch?v=LQRAfJyEsko' }],
        featured: true,
        published: true,
      },
    ],
  });
export const updateMediaInput = z
  .object({ id: uuidParam(), ...z.object(mediaFields).partial().shape })
  .strict()
  .refine((v) => Object.keys(v).some((k) => k !== 'id'), { message: 'Send at least one field to change.' })
  .meta({
    description: 'Only the fields to change, at least one.',
    minProperties: 1,
    examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', featured: false }],
  });
export const adminListMediaInput = () =>
  z.object({ kind: z.enum(mediaKinds).optional(), published: queryBoolean().optional(), ...pageQueryFields() });

// ---- guides ----

export const adminGuideOutput = guideOutput.extend(adminFields).meta({ id: 'AdminGuide' });
const guideFields = {
  slug: slugParam().meta({ description: 'Made from the title when absent.' }),
  title: z.string().trim().min(1).max(GUIDE_LIMITS.title),
  category: guideCategory(),
  summary: z.string().trim().max(GUIDE_LIMITS.summary),
  body: z.string().max(GUIDE_LIMITS.body).meta({ description: 'Markdown.' }),
  coverImageUrl: httpsUrl().nullable(),
  published: jsonBoolean(),
};
export const createGuideInput = z
  .object({
    ...guideFields,
    slug: guideFields.slug.optional(),
    summary: guideFields.summary.default(''),
    coverImageUrl: guideFields.coverImageUrl.optional(),
    published: guideFields.published.default(false),
  })
  .strict()
  .meta({
    examples: [
      {
        title: 'Hosting your first potluck',
        category: 'community',
        summary: 'Plan, invite, cook.',
        body: '# Hosting your first potluck\n\nStart small.',
        published: false,
      },
    ],
  });
export const updateGuideInput = z
  .object({ id: uuidParam(), ...z.object(guideFields).partial().shape })
  .strict()
  .refine((v) => Object.keys(v).some((k) => k !== 'id'), { message: 'Send at least one field to change.' })
  .meta({
    description: 'Only the fields to change, at least one.',
    minProperties: 1,
    examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', published: true }],
  });
export const adminListGuidesInput = () =>
  z.object({ category: guideCategory().optional(), published: queryBoolean().optional(), ...pageQueryFields() });

const byId = z.object({ id: uuidParam() });

// Static paths (/api/admin/media, /api/admin/guides) have no {id} sibling of the same shape, so order is free.
export const adminContentProcedures = {
  listMedia: adminProcedure
    .meta({
      auth: 'admin',
      unbuilt,
      openapi: { method: 'GET', path: '/api/admin/media', tags, summary: 'All media items, published or not' },
    })
    .input(adminListMediaInput())
    .output(listEnvelope(adminMediaItemOutput))
    .query(() => notImplemented()),
  createMedia: adminProcedure
    .meta({
      auth: 'admin',
      unbuilt,
      successStatus: 201,
      openapi: { method: 'POST', path: '/api/admin/media', tags, summary: 'Create a media item' },
    })
    .input(createMediaInput)
    .output(adminMediaItemOutput)
    .mutation(() => notImplemented()),
  getMedia: adminProcedure
    .meta({
      auth: 'admin',
      unbuilt,
      openapi: { method: 'GET', path: '/api/admin/media/{id}', tags, summary: 'One media item' },
    })
    .input(byId)
    .output(adminMediaItemOutput)
    .query(() => notImplemented()),
  updateMedia: adminProcedure
    .meta({
      auth: 'admin',
      unbuilt,
      openapi: {
        method: 'PATCH',
        path: '/api/admin/media/{id}',
        tags,
        summary: 'Change a media item (feature, publish, edit)',
      },
    })
    .input(updateMediaInput)
    .output(adminMediaItemOutput)
    .mutation(() => notImplemented()),
  deleteMedia: adminProcedure
    .meta({
      auth: 'admin',
      unbuilt,
      openapi: {
        method: 'DELETE',
        path: '/api/admin/media/{id}',
        tags,
        summary: 'Delete a media item (and every watchlist entry of it)',
      },
    })
    .input(byId)
    .output(okOutput)
    .mutation(() => notImplemented()),

  listGuides: adminProcedure
    .meta({
      auth: 'admin',
      unbuilt,
      openapi: { method: 'GET', path: '/api/admin/guides', tags, summary: 'All guides, published or not' },
    })
    .input(adminListGuidesInput())
    .output(listEnvelope(adminGuideOutput))
    .query(() => notImplemented()),
  createGuide: adminProcedure
    .meta({
      auth: 'admin',
      unbuilt,
      successStatus: 201,
      openapi: { method: 'POST', path: '/api/admin/guides', tags, summary: 'Create a guide' },
    })
    .input(createGuideInput)
    .output(adminGuideOutput)
    .mutation(() => notImplemented()),
  getGuide: adminProcedure
    .meta({
      auth: 'admin',
      unbuilt,
      openapi: { method: 'GET', path: '/api/admin/guides/{id}', tags, summary: 'One guide' },
    })
    .input(byId)
    .output(adminGuideOutput)
    .query(() => notImplemented()),
  updateGuide: adminProcedure
    .meta({
      auth: 'admin',
      unbuilt,
      openapi: { method: 'PATCH', path: '/api/admin/guides/{id}', tags, summary: 'Change a guide' },
    })
    .input(updateGuideInput)
    .output(adminGuideOutput)
    .mutation(() => notImplemented()),
  deleteGuide: adminProcedure
    .meta({
      auth: 'admin',
      unbuilt,
      openapi: { method: 'DELETE', path: '/api/admin/guides/{id}', tags, summary: 'Delete a guide' },
    })
    .input(byId)
    .output(okOutput)
    .mutation(() => notImplemented()),
};
