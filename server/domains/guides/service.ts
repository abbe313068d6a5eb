// Guides: public reads (published only, decided in SQL), admin editing, and the admin-managed
// set of categories. The body's HTML is rendered and sanitised when the guide is written
// (markdown.ts); a row rendered by an older renderer is re-rendered when read.
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { guideCategories, guides } from '../../../db/schema/index.js';
import { AppError, hasDatabaseCode, isUniqueViolation } from '../../errors.js';
import { afterCursor, toPage } from '../../lib/pagination.js';
import { insertWithSlug } from '../../shared/slug.js';
import type { Config } from '../../config.js';
import type { MemberServiceContext, ServiceContext } from '../../service/context.js';
import {
  createEditorial,
  deleteEditorial,
  editorialTable,
  isPublished,
  publishedFilter,
  updateEditorial,
} from '../editorial.js';
import { imageRefUrl } from '../uploads/image-refs.js';
import { type ImageDetails, imageDetailsColumn, imageOutputFor } from '../uploads/image-output.js';
import { RENDER_VERSION, renderGuideBody } from './markdown.js';
import type {
  AdminGuideOutput,
  AdminGuideSummaryOutput,
  CreateGuideInput,
  GuideOutput,
  GuideSummaryOutput,
  UpdateGuideInput,
} from './schemas.js';

const notFound = () => new AppError('not_found', 'No such guide.');
const editorial = editorialTable(guides, guides.coverImage, { imageField: 'coverImage', purpose: 'guide', notFound });
const published = isPublished(editorial);

/** Columns of a list row: no body, no HTML (a list never carries whole guides). */
const summaryColumns = {
  id: guides.id,
  slug: guides.slug,
  title: guides.title,
  categorySlug: guideCategories.slug,
  categoryName: guideCategories.name,
  summary: guides.summary,
  coverImage: guides.coverImage,
  coverImageDetails: imageDetailsColumn(guides.coverImage),
  readingMinutes: guides.readingMinutes,
  publishedAt: guides.publishedAt,
  createdAt: guides.createdAt,
  updatedAt: guides.updatedAt,
};
const fullColumns = {
  ...summaryColumns,
  body: guides.body,
  bodyHtml: guides.bodyHtml,
  renderVersion: guides.renderVersion,
};

interface SummaryRow {
  id: string;
  slug: string;
  title: string;
  categorySlug: string;
  categoryName: string;
  summary: string;
  coverImage: string | null;
  coverImageDetails: ImageDetails | null;
  readingMinutes: number;
  publishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
interface FullRow extends SummaryRow {
  body: string;
  bodyHtml: string;
  renderVersion: number;
}

type UrlConfig = Pick<Config, 'PUBLIC_URL'>;

function toSummary(row: SummaryRow, config: UrlConfig): GuideSummaryOutput {
  return {
    _id: row.id,
    slug: row.slug,
    title: row.title,
    category: { slug: row.categorySlug, name: row.categoryName },
    summary: row.summary,
    coverImageUrl: imageRefUrl(config, row.coverImage),
    coverImageDetails: imageOutputFor(config, row.coverImage, row.coverImageDetails ?? undefined),
    readingMinutes: row.readingMinutes,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toGuide(row: FullRow, config: UrlConfig): GuideOutput {
  const current = row.renderVersion === RENDER_VERSION;
  const rendered = current ? { html: row.bodyHtml, readingMinutes: row.readingMinutes } : renderGuideBody(row.body);
  return { ...toSummary(row, config), readingMinutes: rendered.readingMinutes, body: row.body, html: rendered.html };
}

const adminFields = (row: SummaryRow) => ({
  coverImage: row.coverImage,
  published: row.publishedAt !== null,
  createdAt: row.createdAt.toISOString(),
});

function selectGuides<T extends typeof summaryColumns>(ctx: ServiceContext, columns: T) {
  return ctx.db.select(columns).from(guides).innerJoin(guideCategories, eq(guideCategories.id, guides.categoryId));
}

async function page<R>(
  ctx: ServiceContext,
  input: { category?: string; cursor?: string; limit: number },
  where: SQL | undefined,
  map: (row: SummaryRow) => R,
) {
  const rows = await selectGuides(ctx, summaryColumns)
    .where(
      and(
        where,
        input.category ? eq(guideCategories.slug, input.category) : undefined,
        afterCursor(guides.id, input.cursor),
      ),
    )
    .orderBy(asc(guides.id))
    .limit(input.limit + 1);
  const cut = toPage<SummaryRow>(rows, input.limit, (row) => row.id);
  return { items: cut.items.map(map), nextCursor: cut.nextCursor };
}

// ---- public ------------------------------------------------------------------------------

export const listGuides = (ctx: ServiceContext, input: { category?: string; cursor?: string; limit: number }) =>
  page(ctx, input, published, (row) => toSummary(row, ctx.config));

export async function getGuide(ctx: ServiceContext, input: { slug: string }): Promise<GuideOutput> {
  const [row] = await selectGuides(ctx, fullColumns)
    .where(and(eq(guides.slug, input.slug), published))
    .limit(1);
  if (!row) throw notFound();
  return toGuide(row, ctx.config);
}

// ---- admin -------------------------------------------------------------------------------

export const adminListGuides = (
  ctx: ServiceContext,
  input: { category?: string; published?: boolean; cursor?: string; limit: number },
): Promise<{ items: AdminGuideSummaryOutput[]; nextCursor: string | null }> =>
  page(ctx, input, publishedFilter(editorial, input.published), (row) => ({
    ...toSummary(row, ctx.config),
    ...adminFields(row),
  }));

async function adminGuideById(ctx: ServiceContext, id: string): Promise<AdminGuideOutput> {
  const [row] = await selectGuides(ctx, fullColumns).where(eq(guides.id, id)).limit(1);
  if (!row) throw notFound();
  return { ...toGuide(row, ctx.config), ...adminFields(row) };
}

export const adminGetGuide = (ctx: ServiceContext, input: { id: string }) => adminGuideById(ctx, input.id);

/** A category named in a guide body must exist: an unknown slug is a bad request, not a missing guide. */
async function categoryIdOf(ctx: ServiceContext, slug: string): Promise<string> {
  const [row] = await ctx.db
    .select({ id: guideCategories.id })
    .from(guideCategories)
    .where(eq(guideCategories.slug, slug))
    .limit(1);
  if (!row)
    throw new AppError('validation_failed', `category: no guide category "${slug}" (GET /api/guide-categories).`);
  return row.id;
}

function rendered(body: string) {
  const { html, readingMinutes } = renderGuideBody(body);
  return { body, bodyHtml: html, readingMinutes, renderVersion: RENDER_VERSION };
}

/** Created as a draft; an uploaded cover (a `guide` key) is attached with it (../editorial.ts). */
export async function adminCreateGuide(ctx: MemberServiceContext, input: CreateGuideInput): Promise<AdminGuideOutput> {
  const categoryId = await categoryIdOf(ctx, input.category);
  const content = rendered(input.body);
  const row = await createEditorial(
    ctx,
    editorial,
    { slug: input.slug, title: input.title, image: input.coverImage },
    (slug) => ({
      slug,
      title: input.title,
      categoryId,
      summary: input.summary,
      ...content,
      coverImage: input.coverImage ?? null,
    }),
  );
  return adminGuideById(ctx, row.id);
}

/** A new cover is attached with the change; the one it replaces is released (its URL answers 404). */
export async function adminUpdateGuide(ctx: MemberServiceContext, input: UpdateGuideInput): Promise<AdminGuideOutput> {
  const { id, category, body, published: publish, ...fields } = input;
  const changes: Partial<typeof guides.$inferInsert> = { ...fields };
  if (category !== undefined) changes.categoryId = await categoryIdOf(ctx, category);
  if (body !== undefined) Object.assign(changes, rendered(body));
  await updateEditorial(ctx, editorial, id, { changes, image: fields.coverImage, publish });
  return adminGuideById(ctx, id);
}

/** Deletes the guide and its uploaded cover. */
export const adminDeleteGuide = (ctx: ServiceContext, input: { id: string }) =>
  deleteEditorial(ctx, editorial, input.id);

// ---- categories --------------------------------------------------------------------------

type CategoryRow = typeof guideCategories.$inferSelect;
const toCategory = (row: CategoryRow) => ({
  _id: row.id,
  slug: row.slug,
  name: row.name,
  description: row.description,
});
const categoryNotFound = () => new AppError('not_found', 'No such guide category.');

/** Every category, drafts' ones too: a category is not secret, and clients build filters from it. */
export async function listCategories(ctx: ServiceContext, input: { cursor?: string; limit: number }) {
  const rows = await ctx.db
    .select()
    .from(guideCategories)
    .where(afterCursor(guideCategories.id, input.cursor))
    .orderBy(asc(guideCategories.id))
    .limit(input.limit + 1);
  const cut = toPage(rows, input.limit, (row) => row.id);
  return { items: cut.items.map(toCategory), nextCursor: cut.nextCursor };
}

export async function createCategory(ctx: ServiceContext, input: { slug?: string; name: string; description: string }) {
  // Categories are always public, so the bare slug is used when free (server/shared/slug.ts).
  // Each try in its own savepoint: under an Idempotency-Key ctx.db is the key's transaction.
  const row = await insertWithSlug(
    { clientSlug: input.slug, text: input.name, hideable: false, fallback: 'category' },
    (slug) =>
      ctx.db.transaction(async (savepoint) => {
        const [inserted] = await savepoint
          .insert(guideCategories)
          .values({ slug, name: input.name, description: input.description, createdAt: ctx.clock.now() })
          .returning();
        return inserted!;
      }),
  );
  return toCategory(row);
}

export async function updateCategory(
  ctx: ServiceContext,
  input: { id: string; slug?: string; name?: string; description?: string },
) {
  const { id, ...changes } = input;
  try {
    const [row] = await ctx.db.update(guideCategories).set(changes).where(eq(guideCategories.id, id)).returning();
    if (!row) throw categoryNotFound();
    return toCategory(row);
  } catch (error) {
    if (isUniqueViolation(error, 'slug')) throw new AppError('conflict', 'That slug is taken.');
    throw error;
  }
}

/** A category that still holds guides (drafts included) answers 409: move or delete them first. */
export async function deleteCategory(ctx: ServiceContext, input: { id: string }): Promise<{ ok: true }> {
  const inUse = () => new AppError('conflict', 'The category still holds guides; move or delete them first.');
  let removed: { id: string }[];
  try {
    removed = await ctx.db
      .delete(guideCategories)
      .where(
        and(
          eq(guideCategories.id, input.id),
          sql`not exists (select 1 from ${guides} where ${guides.categoryId} = ${input.id})`,
        ),
      )
      .returning({ id: guideCategories.id });
  } catch (error) {
    // A guide added by a concurrent request: the foreign key (ON DELETE RESTRICT) refused.
    if (hasDatabaseCode(error, (code) => code === '23503' || code === '23001')) throw inUse();
    throw error;
  }
  if (removed.length > 0) return { ok: true };
  const [exists] = await ctx.db
    .select({ id: guideCategories.id })
    .from(guideCategories)
    .where(eq(guideCategories.id, input.id))
    .limit(1);
  throw exists ? inUse() : categoryNotFound();
}
