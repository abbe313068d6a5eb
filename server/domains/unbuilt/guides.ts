// Guides (articles with a category): mounted, validated, answering 501. Admin CRUD lives in
// admin-content.ts and reuses these schemas. Categories are slugs chosen by admins.
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { notImplemented, publicProcedure } from '../../trpc/procedures.js';
import { slugParam } from './common.js';

const unbuilt = true as const;
const tags = ['guides'];

export const GUIDE_LIMITS = { title: 200, summary: 500, body: 100_000, category: 60 } as const;

export const guideCategory = () =>
  z
    .string()
    .max(GUIDE_LIMITS.category)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Must be a category slug.');

export const guideSummaryOutput = z
  .object({
    _id: z.string(),
    slug: z.string(),
    title: z.string(),
    category: z.string(),
    summary: z.string(),
    coverImageUrl: z.string().nullable(),
    updatedAt: z.string(),
  })
  .meta({ id: 'GuideSummary' });

export const guideOutput = guideSummaryOutput
  .extend({ body: z.string().meta({ description: 'Markdown.' }), publishedAt: z.string().nullable() })
  .meta({ id: 'Guide' });

export const listGuidesInput = () => z.object({ category: guideCategory().optional(), ...pageQueryFields() });
export const guideSlugInput = () => z.object({ slug: slugParam() });

export const guidesProcedures = {
  list: publicProcedure
    .meta({
      auth: 'public',
      unbuilt,
      openapi: {
        method: 'GET',
        path: '/api/guides',
        tags,
        protect: false,
        summary: 'Published guides, optionally of one category',
      },
    })
    .input(listGuidesInput())
    .output(listEnvelope(guideSummaryOutput))
    .query(() => notImplemented()),

  get: publicProcedure
    .meta({
      auth: 'public',
      unbuilt,
      openapi: { method: 'GET', path: '/api/guides/{slug}', tags, protect: false, summary: 'One guide' },
    })
    .input(guideSlugInput())
    .output(guideOutput)
    .query(() => notImplemented()),
};
