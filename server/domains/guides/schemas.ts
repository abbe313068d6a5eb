// Guides (Markdown articles in an admin-managed category) and their categories.
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { imageRefInput } from '../uploads/image-ref.js';
import { queryBoolean } from '../../shared/query.js';
import { changeInput, chosenSlug, SLUG_PATTERN, slugParam, uuidParam } from '../../shared/schemas.js';
import { SLUG_MAX_LENGTH } from '../../shared/slug.js';
import { editorialUpdateInput } from '../editorial-schemas.js';
import { WORDS_PER_MINUTE } from './markdown.js';
import { imageOutput } from '../uploads/image-output.js';

export const GUIDE_LIMITS = {
  title: 200,
  summary: 500,
  body: 100_000,
  categoryName: 80,
  categoryDescription: 500,
} as const;

const slugInput = () => chosenSlug(SLUG_MAX_LENGTH);

// ---- categories ----

export const guideCategoryOutput = z
  .object({ _id: z.string(), slug: z.string(), name: z.string(), description: z.string() })
  .strict()
  .meta({ id: 'GuideCategory' });
export const guideCategoryRef = z
  .object({ slug: z.string(), name: z.string() })
  .strict()
  .meta({ id: 'GuideCategoryRef' });

export const listCategoriesInput = () => z.object(pageQueryFields());
export const createCategoryInput = z
  .object({
    slug: slugInput().optional().meta({ description: 'Made from the name when absent; 409 `conflict` when taken.' }),
    name: z.string().trim().min(1).max(GUIDE_LIMITS.categoryName),
    description: z.string().trim().max(GUIDE_LIMITS.categoryDescription).default(''),
  })
  .strict()
  .meta({ examples: [{ slug: 'outreach', name: 'Outreach', description: 'Leafleting, stalls, conversations.' }] });
export const updateCategoryInput = changeInput(
  {
    slug: slugInput().optional().meta({ description: 'Guides follow the category; 409 `conflict` when taken.' }),
    name: z.string().trim().min(1).max(GUIDE_LIMITS.categoryName).optional(),
    description: z.string().trim().max(GUIDE_LIMITS.categoryDescription).optional(),
  },
  { name: 'Street outreach' },
);
export const categoryIdInput = () => z.object({ id: uuidParam() });

// ---- guides ----

const readingMinutes = z
  .number()
  .int()
  .meta({
    description: `Estimated reading time: words of the body / ${WORDS_PER_MINUTE}, rounded up (0 for an empty body).`,
  });

export const guideSummaryOutput = z
  .object({
    _id: z.string(),
    slug: z.string(),
    title: z.string(),
    category: guideCategoryRef,
    summary: z.string(),
    coverImageUrl: z.string().nullable().meta({
      description:
        'URL of the cover: the https URL given, or for an uploaded cover its clean image (re-encoded, without metadata) on this service; null when there is none.',
    }),
    coverImageDetails: imageOutput.nullable().meta({
      description: 'The cover with its size, alt text and resized variants (for srcset); null when there is none.',
    }),
    readingMinutes,
    publishedAt: z.string().nullable(),
    updatedAt: z.string(),
  })
  .strict()
  .meta({ id: 'GuideSummary' });

export const guideOutput = guideSummaryOutput
  .extend({
    body: z.string().meta({ description: 'The Markdown source.' }),
    html: z.string().meta({
      description:
        'The body rendered to sanitised HTML: no raw HTML from the source, no script, style, iframe or event handler, only https/http/mailto and site-relative links (external ones with rel="noopener noreferrer nofollow"), https images only.',
    }),
  })
  .strict()
  .meta({ id: 'Guide' });

const adminFields = {
  coverImage: z
    .string()
    .nullable()
    .meta({ description: 'As given: an https URL or the key of the attached upload (send it back to keep it).' }),
  published: z.boolean(),
  createdAt: z.string(),
};
export const adminGuideSummaryOutput = guideSummaryOutput
  .extend(adminFields)
  .strict()
  .meta({ id: 'AdminGuideSummary' });
export const adminGuideOutput = guideOutput.extend(adminFields).strict().meta({ id: 'AdminGuide' });

export type GuideSummaryOutput = z.infer<typeof guideSummaryOutput>;
export type GuideOutput = z.infer<typeof guideOutput>;
export type AdminGuideOutput = z.infer<typeof adminGuideOutput>;
export type AdminGuideSummaryOutput = z.infer<typeof adminGuideSummaryOutput>;

const categoryFilter = () =>
  z
    .string()
    .max(SLUG_MAX_LENGTH)
    .regex(SLUG_PATTERN, 'Must be a category slug.')
    .meta({ description: 'A category slug (GET /api/guide-categories); an unknown one matches nothing.' });

export const listGuidesInput = () => z.object({ category: categoryFilter().optional(), ...pageQueryFields() });
export const guideSlugInput = () => z.object({ slug: slugParam() });
export const guideIdInput = () => z.object({ id: uuidParam() });

const guideFields = {
  slug: slugInput().meta({
    description: 'Chosen by the admin (409 `conflict` when taken). Absent: made from the title with a random suffix.',
  }),
  title: z.string().trim().min(1).max(GUIDE_LIMITS.title),
  category: slugInput().meta({ description: 'Slug of an existing category; an unknown one answers 400.' }),
  summary: z.string().trim().max(GUIDE_LIMITS.summary),
  body: z
    .string()
    .max(GUIDE_LIMITS.body)
    .meta({ description: 'Markdown (CommonMark with tables and autolinks). Raw HTML in it is shown as text.' }),
  coverImage: imageRefInput('cover image', 'guide').nullable(),
};

export const createGuideInput = z
  .object({
    ...guideFields,
    slug: guideFields.slug.optional(),
    summary: guideFields.summary.default(''),
    coverImage: guideFields.coverImage.optional(),
  })
  .strict()
  .meta({
    description: 'Created as a draft (unpublished); publish with PATCH `{ published: true }`.',
    examples: [
      {
        title: 'Hosting your first potluck',
        category: 'community',
        summary: 'Plan, invite, cook.',
        body: '# Hosting your first potluck\n\nStart small.',
      },
    ],
  });
export type CreateGuideInput = z.infer<typeof createGuideInput>;

export const updateGuideInput = editorialUpdateInput(guideFields, 'guide', {});
export type UpdateGuideInput = z.infer<typeof updateGuideInput>;

export const adminListGuidesInput = () =>
  z.object({
    category: categoryFilter().optional(),
    published: queryBoolean().optional().meta({ description: 'Only published (true) or only drafts (false).' }),
    ...pageQueryFields(),
  });

export const guideListOutput = listEnvelope(guideSummaryOutput);
export const adminGuideListOutput = listEnvelope(adminGuideSummaryOutput);
export const guideCategoryListOutput = listEnvelope(guideCategoryOutput);
