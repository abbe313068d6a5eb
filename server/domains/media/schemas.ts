// Media items (films and other items; nothing is hosted or played), the private watchlist and
// the admin editing of items. The public output has no save count and nothing about the caller:
// every member and every anonymous reader gets the same bytes for the same item.
import { z } from 'zod';
import { HTTPS_URL_PATTERN, LETTER_OR_DIGIT_PATTERN } from '../../shared/patterns.js';
import { mediaKinds, mediaTags, trailerProviders } from '../../../db/schema/library.js';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { imageRefInput } from '../uploads/image-ref.js';
import { queryBoolean } from '../../shared/query.js';
import { chosenSlug, savedOutput, slugParam, uuidParam } from '../../shared/schemas.js';
import { SLUG_MAX_LENGTH } from '../../shared/slug.js';
import { editorialUpdateInput } from '../editorial-schemas.js';
import { parseTrailerUrl, TRAILER_URL_FORMS } from './trailer.js';
import { imageOutput } from '../uploads/image-output.js';

export { mediaKinds, mediaTags, savedOutput };

export const MEDIA_LIMITS = { title: 200, synopsis: 4000, watchLinks: 20, platform: 60, url: 2048, q: 100 } as const;

const httpsUrl = () =>
  z
    .string()
    .trim()
    .max(MEDIA_LIMITS.url)
    .pipe(z.url({ protocol: /^https$/, hostname: z.regexes.domain, message: 'Must be an absolute https URL.' }))
    .meta({ format: 'uri', pattern: HTTPS_URL_PATTERN });

export const watchLinkInput = z
  .object({ platform: z.string().trim().min(1).max(MEDIA_LIMITS.platform), url: httpsUrl() })
  .strict()
  .meta({ description: 'Where to watch it: the platform\'s name (e.g. "YouTube", "Netflix") and an https URL.' });

export const trailerOutput = z
  .object({
    provider: z.enum(trailerProviders),
    videoId: z.string(),
    embedUrl: z.string().meta({
      description:
        "The provider's privacy-enhanced player (youtube-nocookie.com, Vimeo with dnt=1). Load it in an iframe only when the viewer clicks: nothing from the provider loads before that.",
    }),
  })
  .strict()
  .meta({ id: 'MediaTrailer', description: 'A click-to-load trailer on an external video host.' });

export const mediaItemOutput = z
  .object({
    _id: z.string(),
    slug: z.string(),
    kind: z.enum(mediaKinds),
    title: z.string(),
    year: z.number().int().nullable(),
    synopsis: z.string(),
    tags: z.array(z.enum(mediaTags)),
    posterUrl: z.string().nullable().meta({
      description:
        'URL of the poster: the https URL given, or for an uploaded poster its clean image (re-encoded, without metadata) on this service; null when there is none.',
    }),
    posterImage: imageOutput.nullable().meta({
      description: 'The poster with its size, alt text and resized variants (for srcset); null when there is none.',
    }),
    watchLinks: z.array(z.object({ platform: z.string(), url: z.string() }).strict()),
    trailer: trailerOutput.nullable(),
    featured: z.boolean(),
  })
  .strict()
  .meta({ id: 'MediaItem' });

export const adminMediaItemOutput = mediaItemOutput
  .extend({
    poster: z
      .string()
      .nullable()
      .meta({ description: 'As given: an https URL or the key of the attached upload (send it back to keep it).' }),
    published: z.boolean(),
    publishedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict()
  .meta({ id: 'AdminMediaItem' });

export type MediaItemOutput = z.infer<typeof mediaItemOutput>;
export type AdminMediaItemOutput = z.infer<typeof adminMediaItemOutput>;

/** q: words of letters or digits; each word matches as a prefix (the places rule). */
const searchInput = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(MEDIA_LIMITS.q)
    .refine((q) => /[\p{L}\p{N}]/u.test(q), 'Must contain at least one letter or digit.')
    .meta({
      description:
        'Text search over title and synopsis: every word must match the start of a word (`domin` finds "Dominion"). Up to 10 words count.',
      pattern: LETTER_OR_DIGIT_PATTERN,
    });

export const listMediaInput = () =>
  z.object({
    kind: z.enum(mediaKinds).optional(),
    tag: z.enum(mediaTags).optional(),
    featured: queryBoolean()
      .optional()
      .meta({ description: 'Only featured (true) or only non-featured (false) items.' }),
    featuredFirst: queryBoolean().default(false).meta({
      description:
        'true: featured items first (in `_id` order), then the others (in `_id` order). A cursor belongs to the ordering it came from: passing it to the other ordering answers 400 `invalid_cursor`.',
    }),
    q: searchInput().optional(),
    ...pageQueryFields(),
  });
export type ListMediaInput = z.infer<ReturnType<typeof listMediaInput>>;

export const mediaSlugInput = () => z.object({ slug: slugParam() });
export const mediaIdInput = () => z.object({ id: uuidParam() });

export const watchlistEntryOutput = z
  .object({
    _id: z.string().meta({ description: 'The watchlist entry (the cursor orders over it: the order of saving).' }),
    savedAt: z.string(),
    media: mediaItemOutput,
  })
  .strict()
  .meta({ id: 'WatchlistEntry' });
export const watchlistInput = () => z.object(pageQueryFields());

// ---- admin ----

const adminSlugInput = () => chosenSlug(SLUG_MAX_LENGTH).meta({ example: 'dominion' });

const trailerInput = () =>
  httpsUrl()
    .transform((url, ctx) => {
      const trailer = parseTrailerUrl(url);
      if (!trailer) {
        ctx.addIssue({ code: 'custom', message: `Must be a trailer URL of: ${TRAILER_URL_FORMS.join(', ')}.` });
        return z.NEVER;
      }
      return trailer;
    })
    .meta({
      description: `A YouTube or Vimeo URL (${TRAILER_URL_FORMS.join(', ')}). Only the provider and video id are kept; the embed URL is built by the server.`,
    });

/** Tags are de-duplicated. */
const tagsInput = () =>
  z
    .array(z.enum(mediaTags))
    .max(mediaTags.length * 2)
    .transform((tags) => [...new Set(tags)]);

// Fields without defaults: PATCH must not reset what it does not mention.
const mediaFields = {
  slug: adminSlugInput().meta({
    description: 'Chosen by the admin (409 `conflict` when taken). Absent: made from the title with a random suffix.',
  }),
  kind: z.enum(mediaKinds),
  title: z.string().trim().min(1).max(MEDIA_LIMITS.title),
  year: z.number().int().min(1870).max(2100).nullable(),
  synopsis: z.string().trim().max(MEDIA_LIMITS.synopsis),
  tags: tagsInput(),
  poster: imageRefInput('poster', 'media').nullable(),
  watchLinks: z.array(watchLinkInput).max(MEDIA_LIMITS.watchLinks),
  trailer: trailerInput().nullable(),
  featured: z.boolean(),
};

export const createMediaInput = z
  .object({
    ...mediaFields,
    slug: mediaFields.slug.optional(),
    year: mediaFields.year.optional(),
    synopsis: mediaFields.synopsis.default(''),
    tags: mediaFields.tags.default([]),
    poster: mediaFields.poster.optional(),
    watchLinks: mediaFields.watchLinks.default([]),
    trailer: mediaFields.trailer.optional(),
    featured: mediaFields.featured.default(false),
  })
  .strict()
  .meta({
    description: 'Created as a draft (unpublished); publish with PATCH `{ published: true }`.',
    examples: [
      {
        kind: 'documentary',
        title: 'Dominion',
        year: 2018,
        synopsis: 'Australian animal agriculture, filmed with hidden cameras.',
        tags: ['ethics'],
        poster: 'https://images.example.org/dominion.jpg',
        watchLinks: [{ platform: 'YouTube', url: 'https://www.youtube.com/watch?v=LQRAfJyEsko' }],
        trailer: 'https://www.youtube.com/watch?v=LQRAfJyEsko',
        featured: true,
      },
    ],
  });
export type CreateMediaInput = z.infer<typeof createMediaInput>;

export const updateMediaInput = editorialUpdateInput(mediaFields, 'item', { featured: false });
export type UpdateMediaInput = z.infer<typeof updateMediaInput>;

export const adminListMediaInput = () =>
  z.object({
    kind: z.enum(mediaKinds).optional(),
    published: queryBoolean().optional().meta({ description: 'Only published (true) or only drafts (false).' }),
    ...pageQueryFields(),
  });

export const mediaListOutput = listEnvelope(mediaItemOutput);
export const adminMediaListOutput = listEnvelope(adminMediaItemOutput);
export const watchlistOutput = listEnvelope(watchlistEntryOutput);
