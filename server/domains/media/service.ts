// Media items: public reads (published only, decided in SQL), the caller's private watchlist and
// admin editing. A draft answers exactly like a missing item to everyone but admins, for
// reading, saving and listing alike. No query here counts saves, and nothing records viewing.
import { and, asc, eq, gt, or, sql, type SQL } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { mediaItems, watchlistEntries, type MediaItem } from '../../../db/schema/index.js';
import { AppError } from '../../errors.js';
import { afterCursor, decodeCursor, encodeCursor, toPage } from '../../lib/pagination.js';
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
import { type ImageDetailsByKey, imageOutputFor, lookupImageDetails } from '../uploads/image-output.js';
// The places word-prefix rule, shared so `q` means the same on both lists.
import { toPrefixTsquery } from '../places/list-query.js';
import type {
  AdminMediaItemOutput,
  CreateMediaInput,
  ListMediaInput,
  MediaItemOutput,
  UpdateMediaInput,
} from './schemas.js';
import { trailerEmbedUrl } from './trailer.js';

const notFound = () => new AppError('not_found', 'No such media item.');
const editorial = editorialTable(mediaItems, mediaItems.poster, { imageField: 'poster', purpose: 'media', notFound });
const published = isPublished(editorial);

/** The posters' sizes, alt texts and variants (one query for a page of items). */
const postersOf = (ctx: ServiceContext, rows: readonly MediaItem[]) =>
  lookupImageDetails(
    ctx.db,
    rows.map((row) => row.poster),
  );

export function toMediaItem(
  row: MediaItem,
  config: Pick<Config, 'PUBLIC_URL'>,
  posters: ImageDetailsByKey = new Map(),
): MediaItemOutput {
  const trailer =
    row.trailerProvider && row.trailerVideoId ? { provider: row.trailerProvider, videoId: row.trailerVideoId } : null;
  return {
    _id: row.id,
    slug: row.slug,
    kind: row.kind,
    title: row.title,
    year: row.year,
    synopsis: row.synopsis,
    tags: row.tags,
    posterUrl: imageRefUrl(config, row.poster),
    posterImage: imageOutputFor(config, row.poster, row.poster ? posters.get(row.poster) : undefined),
    watchLinks: row.watchLinks.map(({ platform, url }) => ({ platform, url })),
    trailer: trailer && { ...trailer, embedUrl: trailerEmbedUrl(trailer) },
    featured: row.featured,
  };
}

function toAdminMediaItem(
  row: MediaItem,
  config: Pick<Config, 'PUBLIC_URL'>,
  posters: ImageDetailsByKey,
): AdminMediaItemOutput {
  return {
    ...toMediaItem(row, config, posters),
    poster: row.poster,
    published: row.publishedAt !== null,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

// ---- public list -------------------------------------------------------------------------

/**
 * Featured-first pages run through two phases (featured, then the rest), each in `_id` order.
 * Their cursor carries the phase before the id ("f" or "n" + the usual 22 characters), so a
 * page boundary stays put even if the last item's `featured` flag changes in between.
 */
type Phase = 'f' | 'n';

function encodeFeaturedCursor(row: MediaItem): string {
  return `${row.featured ? 'f' : 'n'}${encodeCursor(row.id)}`;
}

function decodeFeaturedCursor(cursor: string): { phase: Phase; after: string } {
  const phase = cursor[0];
  if (cursor.length !== 23 || (phase !== 'f' && phase !== 'n')) throw new AppError('invalid_cursor');
  return { phase, after: decodeCursor(cursor.slice(1)) };
}

/** `search_document @@ prefix query`; undefined when `q` has no word (the schema refuses that). */
function searchCondition(q: string | undefined): SQL | undefined {
  const query = q === undefined ? null : toPrefixTsquery(q);
  return query === null ? undefined : sql`${mediaItems.searchDocument} @@ to_tsquery('simple', ${query})`;
}

export async function listMedia(ctx: ServiceContext, input: ListMediaInput) {
  const filters = [
    published,
    input.kind ? eq(mediaItems.kind, input.kind) : undefined,
    // `tags @> array[tag]` uses the GIN index on tags.
    input.tag ? sql`${mediaItems.tags} @> array[${input.tag}]::text[]` : undefined,
    input.featured === undefined ? undefined : eq(mediaItems.featured, input.featured),
    searchCondition(input.q),
  ];
  if (!input.featuredFirst) {
    const rows = await ctx.db
      .select()
      .from(mediaItems)
      .where(and(...filters, afterCursor(mediaItems.id, input.cursor)))
      .orderBy(asc(mediaItems.id))
      .limit(input.limit + 1);
    const page = toPage(rows, input.limit, (row) => row.id);
    const posters = await postersOf(ctx, page.items);
    return { items: page.items.map((row) => toMediaItem(row, ctx.config, posters)), nextCursor: page.nextCursor };
  }
  const cursor = input.cursor === undefined ? undefined : decodeFeaturedCursor(input.cursor);
  const afterPhase = !cursor
    ? undefined
    : cursor.phase === 'f'
      ? or(and(eq(mediaItems.featured, true), gt(mediaItems.id, cursor.after)), eq(mediaItems.featured, false))
      : and(eq(mediaItems.featured, false), gt(mediaItems.id, cursor.after));
  const rows = await ctx.db
    .select()
    .from(mediaItems)
    .where(and(...filters, afterPhase))
    .orderBy(sql`${mediaItems.featured} desc`, asc(mediaItems.id))
    .limit(input.limit + 1);
  const items = rows.slice(0, input.limit);
  const last = items[items.length - 1];
  const posters = await postersOf(ctx, items);
  return {
    items: items.map((row) => toMediaItem(row, ctx.config, posters)),
    nextCursor: rows.length > input.limit && last ? encodeFeaturedCursor(last) : null,
  };
}

export async function getMedia(ctx: ServiceContext, input: { slug: string }): Promise<MediaItemOutput> {
  const [row] = await ctx.db
    .select()
    .from(mediaItems)
    .where(and(eq(mediaItems.slug, input.slug), published))
    .limit(1);
  if (!row) throw notFound();
  return toMediaItem(row, ctx.config, await postersOf(ctx, [row]));
}

// ---- watchlist ---------------------------------------------------------------------------

/** A published item's id; a draft or missing item is 404, the same answer. */
async function publishedItem(ctx: ServiceContext, id: string): Promise<{ id: string }> {
  const [item] = await ctx.db
    .select({ id: mediaItems.id })
    .from(mediaItems)
    .where(and(eq(mediaItems.id, id), published))
    .limit(1);
  if (!item) throw notFound();
  return item;
}

/** Idempotent. A draft or missing item: 404, the same answer. */
export async function saveMedia(ctx: MemberServiceContext, input: { id: string }): Promise<{ saved: boolean }> {
  const item = await publishedItem(ctx, input.id);
  await ctx.db
    .insert(watchlistEntries)
    .values({ userId: ctx.user.id, mediaItemId: item.id, createdAt: ctx.clock.now() })
    .onConflictDoNothing({ target: [watchlistEntries.userId, watchlistEntries.mediaItemId] });
  return { saved: true };
}

/**
 * Idempotent. The caller may always remove their own entry, even of an item that became a
 * draft since; otherwise a draft or missing item is 404.
 */
export async function unsaveMedia(ctx: MemberServiceContext, input: { id: string }): Promise<{ saved: boolean }> {
  const removed = await ctx.db
    .delete(watchlistEntries)
    .where(and(eq(watchlistEntries.userId, ctx.user.id), eq(watchlistEntries.mediaItemId, input.id)))
    .returning({ id: watchlistEntries.id });
  if (removed.length > 0) return { saved: false };
  await publishedItem(ctx, input.id);
  return { saved: false };
}

/** The caller's saved items in the order of saving; items that are drafts now are left out. */
export async function listWatchlist(ctx: MemberServiceContext, input: { cursor?: string; limit: number }) {
  const rows = await ctx.db
    .select({ entryId: watchlistEntries.id, savedAt: watchlistEntries.createdAt, item: mediaItems })
    .from(watchlistEntries)
    .innerJoin(mediaItems, eq(mediaItems.id, watchlistEntries.mediaItemId))
    .where(and(eq(watchlistEntries.userId, ctx.user.id), published, afterCursor(watchlistEntries.id, input.cursor)))
    .orderBy(asc(watchlistEntries.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (row) => row.entryId);
  const posters = await postersOf(
    ctx,
    page.items.map((row) => row.item),
  );
  return {
    items: page.items.map((row) => ({
      _id: row.entryId,
      savedAt: row.savedAt.toISOString(),
      media: toMediaItem(row.item, ctx.config, posters),
    })),
    nextCursor: page.nextCursor,
  };
}

// ---- admin -------------------------------------------------------------------------------

export async function adminListMedia(
  ctx: ServiceContext,
  input: { kind?: MediaItem['kind']; published?: boolean; cursor?: string; limit: number },
) {
  const rows = await ctx.db
    .select()
    .from(mediaItems)
    .where(
      and(
        input.kind ? eq(mediaItems.kind, input.kind) : undefined,
        publishedFilter(editorial, input.published),
        afterCursor(mediaItems.id, input.cursor),
      ),
    )
    .orderBy(asc(mediaItems.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (row) => row.id);
  const posters = await postersOf(ctx, page.items);
  return { items: page.items.map((row) => toAdminMediaItem(row, ctx.config, posters)), nextCursor: page.nextCursor };
}

async function adminMediaById(ctx: ServiceContext, id: string): Promise<AdminMediaItemOutput> {
  const [row] = await ctx.db.select().from(mediaItems).where(eq(mediaItems.id, id)).limit(1);
  if (!row) throw notFound();
  return toAdminMediaItem(row, ctx.config, await postersOf(ctx, [row]));
}

export const adminGetMedia = (ctx: ServiceContext, input: { id: string }) => adminMediaById(ctx, input.id);

/** Created as a draft; an uploaded poster (a `media` key) is attached with it (../editorial.ts). */
export async function adminCreateMedia(
  ctx: MemberServiceContext,
  input: CreateMediaInput,
): Promise<AdminMediaItemOutput> {
  const row = await createEditorial(
    ctx,
    editorial,
    { slug: input.slug, title: input.title, image: input.poster },
    (slug) => ({
      slug,
      kind: input.kind,
      title: input.title,
      year: input.year ?? null,
      synopsis: input.synopsis,
      tags: input.tags,
      poster: input.poster ?? null,
      watchLinks: input.watchLinks,
      trailerProvider: input.trailer?.provider ?? null,
      trailerVideoId: input.trailer?.videoId ?? null,
      featured: input.featured,
    }),
  );
  return toAdminMediaItem(row, ctx.config, await postersOf(ctx, [row]));
}

/** A new poster is attached with the change; the one it replaces is released (its URL answers 404). */
export async function adminUpdateMedia(
  ctx: MemberServiceContext,
  input: UpdateMediaInput,
): Promise<AdminMediaItemOutput> {
  const { id, trailer, published: publish, ...fields } = input;
  const changes: Partial<typeof mediaItems.$inferInsert> = { ...fields };
  if (trailer !== undefined) {
    changes.trailerProvider = trailer?.provider ?? null;
    changes.trailerVideoId = trailer?.videoId ?? null;
  }
  const row = await updateEditorial(ctx, editorial, id, { changes, image: fields.poster, publish });
  return toAdminMediaItem(row, ctx.config, await postersOf(ctx, [row]));
}

/** Deletes the item and, with it (ON DELETE CASCADE), every watchlist entry of it, and its uploaded poster. */
export const adminDeleteMedia = (ctx: ServiceContext, input: { id: string }) =>
  deleteEditorial(ctx, editorial, input.id);
