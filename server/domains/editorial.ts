// Editorial records: rows only admins write, drafts until published (guides, media items). What
// both share lives here: the draft filters, publishing, creation under a generated slug with the
// uploaded image attached in the same transaction, image replacement on update, and deletion
// that releases the image. Each domain keeps its own columns, outputs, filters and reads.
import { eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { AppError, isUniqueViolation } from '../errors.js';
import { insertWithSlug } from '../shared/slug.js';
import type { MemberServiceContext, ServiceContext } from '../service/context.js';
import { afterImagesAttached, attachImageRefs, droppedImageRefs, releaseImages } from './uploads/image-refs.js';
import type { ImagePurpose } from './uploads/images.js';

/** An editorial table: its `_id`, publication time and image reference columns, and how it is named. */
export interface EditorialTable<T extends PgTable> {
  table: T;
  id: PgColumn;
  publishedAt: PgColumn;
  image: PgColumn;
  /** The image field in inputs and error messages (`coverImage`, `poster`). */
  imageField: string;
  /** The upload purpose of its image keys, also the slug made when the title gives none. */
  purpose: ImagePurpose;
  notFound: () => AppError;
}

/** An editorial table with its `id` and `publishedAt` columns, and `image` holding its image reference. */
export function editorialTable<T extends PgTable & { id: PgColumn; publishedAt: PgColumn }>(
  table: T,
  image: PgColumn,
  names: { imageField: string; purpose: ImagePurpose; notFound: () => AppError },
): EditorialTable<T> {
  return { table, id: table.id, publishedAt: table.publishedAt, image, ...names };
}

type Row<T extends PgTable> = T['$inferSelect'];

/** Published rows only: the condition every public read carries (a draft answers like a missing row). */
export const isPublished = (e: EditorialTable<PgTable>): SQL => isNotNull(e.publishedAt);

/** The admin lists' `published` filter: published rows, drafts, or (undefined) both. */
export function publishedFilter(e: EditorialTable<PgTable>, published: boolean | undefined): SQL | undefined {
  if (published === undefined) return undefined;
  return published ? isNotNull(e.publishedAt) : isNull(e.publishedAt);
}

/** An update's publication change: publishing keeps the first publication time; unpublishing makes it a draft again. */
function publishChange(e: EditorialTable<PgTable>, publish: boolean | undefined, now: Date) {
  if (publish === undefined) return {};
  return { publishedAt: publish ? sql`coalesce(${e.publishedAt}, ${now.toISOString()}::timestamptz)` : null };
}

/**
 * Creates a draft: `values(slug)` are the domain's own columns. An uploaded image (a key of the
 * table's purpose) is attached in the transaction that writes the row: a refused image leaves
 * no row, and a refused row leaves the key attachable.
 */
export async function createEditorial<T extends PgTable>(
  ctx: MemberServiceContext,
  e: EditorialTable<T>,
  input: { slug?: string; title: string; image?: string | null },
  values: (slug: string) => Record<string, unknown>,
): Promise<Row<T>> {
  const now = ctx.clock.now();
  const { row, attached } = await ctx.db.transaction(async (tx) => {
    // Drafts are hidden, so a generated slug always carries a random suffix (server/shared/slug.ts).
    // Each try in its own savepoint, so a lost slug race does not abort the transaction.
    const row = await insertWithSlug(
      { clientSlug: input.slug, text: input.title, hideable: true, fallback: e.purpose },
      (slug) =>
        tx.transaction(async (savepoint) => {
          const [inserted] = await savepoint
            .insert(e.table)
            .values({ ...values(slug), publishedAt: null, createdAt: now, updatedAt: now } as T['$inferInsert'])
            .returning();
          return inserted as Row<T>;
        }),
    );
    const attached = await attachImageRefs(ctx, [input.image], e.purpose, { executor: tx, field: e.imageField });
    return { row, attached };
  });
  await afterImagesAttached(ctx, attached);
  return row;
}

/**
 * Changes a row: `changes` are the domain's columns (the image column among them when `image` is
 * given), `publish` its publication. A new image key is attached with the change; the uploaded
 * image it replaces is released (its URL answers 404). A taken slug answers 409.
 */
export async function updateEditorial<T extends PgTable>(
  ctx: MemberServiceContext,
  e: EditorialTable<T>,
  id: string,
  update: { changes: Record<string, unknown>; image: string | null | undefined; publish: boolean | undefined },
): Promise<Row<T>> {
  const now = ctx.clock.now();
  try {
    const { row, attached, dropped } = await ctx.db.transaction(async (tx) => {
      const [current] = await tx
        .select({ image: e.image })
        .from(e.table as PgTable)
        .where(eq(e.id, id))
        .for('update');
      if (!current) throw e.notFound();
      const held = current.image as string | null;
      const attached =
        update.image === undefined
          ? []
          : await attachImageRefs(ctx, [update.image], e.purpose, { executor: tx, field: e.imageField, keep: [held] });
      const [row] = await tx
        .update(e.table as PgTable)
        .set({ ...update.changes, updatedAt: now, ...publishChange(e, update.publish, now) })
        .where(eq(e.id, id))
        .returning();
      const dropped = update.image === undefined ? [] : droppedImageRefs([held], [update.image]);
      return { row: row as Row<T>, attached, dropped };
    });
    await afterImagesAttached(ctx, attached);
    await releaseImages(ctx, dropped);
    return row;
  } catch (error) {
    if (isUniqueViolation(error, 'slug')) throw new AppError('conflict', 'That slug is taken.');
    throw error;
  }
}

/** Deletes a row and releases its uploaded image (the URL answers 404). */
export async function deleteEditorial(
  ctx: ServiceContext,
  e: EditorialTable<PgTable>,
  id: string,
): Promise<{ ok: true }> {
  const removed = await ctx.db.delete(e.table).where(eq(e.id, id)).returning({ image: e.image });
  if (removed.length === 0) throw e.notFound();
  await releaseImages(
    ctx,
    removed.map((row) => row.image as string | null),
  );
  return { ok: true };
}
