// Media library (films and other items, nothing hosted) and the private watchlist: mounted,
// validated, answering 501. Privacy rule 6: no watched-history; the watchlist is private.
// The admin CRUD lives in admin-content.ts and reuses these schemas.
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { memberProcedure, notImplemented, publicProcedure } from '../../trpc/procedures.js';
import { queryBoolean, savedOutput, slugParam, uuidParam } from './common.js';

const unbuilt = true as const;
const tags = ['media'];

export const mediaKinds = ['documentary', 'film', 'series', 'talk', 'short'] as const;
export const mediaTags = ['ethics', 'health', 'environment', 'activism', 'cooking'] as const;
export const MEDIA_LIMITS = { title: 200, synopsis: 4000, watchLinks: 20, platform: 60, url: 2048 } as const;

export const httpsUrl = () =>
  z
    .string()
    .trim()
    .max(MEDIA_LIMITS.url)
    .pipe(z.url({ protocol: /^https$/, hostname: z.regexes.domain, message: 'Must be an absolute https URL.' }))
    .meta({ format: 'uri' });

export const watchLinkSchema = z
  .object({ platform: z.string().trim().min(1).max(MEDIA_LIMITS.platform), url: httpsUrl() })
  .strict()
  .meta({ id: 'WatchLink', description: 'Where to watch it, on an external platform.' });

export const mediaItemOutput = z
  .object({
    _id: z.string(),
    slug: z.string(),
    kind: z.enum(mediaKinds),
    title: z.string(),
    year: z.number().int().nullable(),
    synopsis: z.string(),
    tags: z.array(z.enum(mediaTags)),
    posterUrl: z.string().nullable(),
    watchLinks: z.array(z.object({ platform: z.string(), url: z.string() })),
    trailerUrl: z.string().nullable().meta({ description: 'Embed URL, loaded only when the viewer clicks.' }),
    featured: z.boolean(),
  })
  .meta({ id: 'MediaItem' });

export const listMediaInput = () =>
  z.object({
    kind: z.enum(mediaKinds).optional(),
    tag: z.enum(mediaTags).optional(),
    featured: queryBoolean().optional().meta({ description: 'Only featured (true) or non-featured (false) items.' }),
    ...pageQueryFields(),
  });
export const mediaSlugInput = () => z.object({ slug: slugParam() });
export const mediaIdInput = z.object({ id: uuidParam() });

export const mediaProcedures = {
  list: publicProcedure
    .meta({
      auth: 'public',
      unbuilt,
      openapi: { method: 'GET', path: '/api/media', tags, protect: false, summary: 'Published media items' },
    })
    .input(listMediaInput())
    .output(listEnvelope(mediaItemOutput))
    .query(() => notImplemented()),

  get: publicProcedure
    .meta({
      auth: 'public',
      unbuilt,
      openapi: { method: 'GET', path: '/api/media/{slug}', tags, protect: false, summary: 'One media item' },
    })
    .input(mediaSlugInput())
    .output(mediaItemOutput)
    .query(() => notImplemented()),

  save: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: { method: 'POST', path: '/api/media/{id}/save', tags, summary: "Add to the caller's private watchlist" },
    })
    .input(mediaIdInput)
    .output(savedOutput)
    .mutation(() => notImplemented()),

  unsave: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: { method: 'DELETE', path: '/api/media/{id}/save', tags, summary: "Remove from the caller's watchlist" },
    })
    .input(mediaIdInput)
    .output(savedOutput)
    .mutation(() => notImplemented()),
};
