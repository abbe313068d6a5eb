// Places: public reads (approved only), member submissions, admin moderation. The submitter id
// is read only to decide visibility; toPlace() never copies it into a response.
import { and, asc, count, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { places, placeTypes, type PlaceType } from '../../../db/schema/index.js';
import { AppError } from '../../errors.js';
import { decodeCursor, toPage } from '../../lib/pagination.js';
import { insertWithSlug } from '../../shared/slug.js';
import type { Caller, MemberServiceContext, ServiceContext } from '../../service/context.js';
import type { Config } from '../../config.js';
import { afterImagesAttached, attachImageRefs, imageRefUrl } from '../uploads/image-refs.js';
import { type ImageDetailsByKey, imageOutputsFor, lookupImageDetails } from '../uploads/image-output.js';
import { listApprovedPlaces } from './list-query.js';
import { placeColumns, ratingFields, type PlaceFields, type PlaceRow } from './place-row.js';
import type { CreatePlaceInput, ListPlacesInput, PlaceOutput } from './schemas.js';

/**
 * The URLs a client loads, in the order of photos (an uploaded photo is served clean by this
 * service), and the same as images with the sizes, alt texts and variants in `photos` (from
 * lookupImageDetails; without it the images have no size).
 */
export function withPhotoUrls(
  place: PlaceFields,
  config: Pick<Config, 'PUBLIC_URL'>,
  photos: ImageDetailsByKey = new Map(),
): PlaceOutput {
  return {
    ...place,
    photoUrls: place.photos.flatMap((ref) => imageRefUrl(config, ref) ?? []),
    photoImages: imageOutputsFor(config, place.photos, photos),
  };
}

/** The photos' sizes, alt texts and variants of a page of places (one query). */
export const photosOf = (ctx: ServiceContext, items: readonly { photos: string[] }[]) =>
  lookupImageDetails(
    ctx.db,
    items.flatMap((item) => item.photos),
  );

export function toPlace(
  row: PlaceRow,
  config: Pick<Config, 'PUBLIC_URL'>,
  photos: ImageDetailsByKey = new Map(),
): PlaceOutput {
  return withPhotoUrls(
    {
      _id: row.id,
      slug: row.slug,
      name: row.name,
      type: row.type,
      veganLevel: row.veganLevel,
      address: row.address,
      hours: row.hours,
      website: row.website,
      tags: row.tags,
      photos: row.photos,
      location: { lng: row.lng, lat: row.lat },
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      ...ratingFields(row.reviewCount, row.ratingSum),
      ...(row.status === 'rejected' && row.rejectionReason ? { rejectionReason: row.rejectionReason } : {}),
    },
    config,
    photos,
  );
}

function page(rows: PlaceRow[], limit: number, config: Pick<Config, 'PUBLIC_URL'>) {
  const { items, nextCursor } = toPage(rows, limit, (row) => row.id);
  return { items: items.map((row) => toPlace(row, config)), nextCursor };
}

/**
 * The spec makes an unknown cursor 400 too, not only a malformed one. A cursor always names a
 * row of its own list; public lists only ever hand out approved ids, and an approved place
 * never leaves that state, so the check cannot break paging. The admin queue accepts any
 * place id: the last place of a page may have been reviewed since.
 */
async function decodePlaceCursor(
  ctx: ServiceContext,
  cursor: string | undefined,
  approvedOnly: boolean,
): Promise<string | undefined> {
  if (cursor === undefined) return undefined;
  const id = decodeCursor(cursor);
  const [known] = await ctx.db
    .select({ id: places.id })
    .from(places)
    .where(and(eq(places.id, id), approvedOnly ? sql`${places.status} = 'approved'` : undefined))
    .limit(1);
  if (!known) throw new AppError('invalid_cursor');
  return id;
}

export async function listPlaces(ctx: ServiceContext, input: ListPlacesInput) {
  const after = await decodePlaceCursor(ctx, input.cursor, true);
  const items = await listApprovedPlaces(ctx.db, { ...input, after });
  const { items: served, nextCursor } = toPage(items, input.limit, (item) => item._id);
  const photos = await photosOf(ctx, served);
  return { items: served.map((item) => withPhotoUrls(item, ctx.config, photos)), nextCursor };
}

/** Approved: anyone. Otherwise only its submitter and admins; everyone else gets the same 404 as a missing slug. */
export async function getPlace(ctx: ServiceContext, caller: Caller, input: { slug: string }) {
  const [row] = await ctx.db
    .select({ ...placeColumns, rejectionReason: places.rejectionReason, submitterId: places.submitterId })
    .from(places)
    .where(eq(places.slug, input.slug.toLowerCase()))
    .limit(1);
  if (!row) throw new AppError('not_found', 'No such place.');
  if (row.status !== 'approved') {
    const auth = caller;
    const allowed =
      auth !== null && (auth.user.role === 'admin' || (row.submitterId !== null && auth.user.id === row.submitterId));
    if (!allowed) throw new AppError('not_found', 'No such place.');
  }
  return toPlace(row, ctx.config, await photosOf(ctx, [row]));
}

/**
 * Uploaded photos (`place` keys) are attached in the transaction that writes the place: a
 * refused photo leaves no place, a refused place leaves the keys attachable.
 */
export async function createPlace(ctx: MemberServiceContext, input: CreatePlaceInput) {
  const { created, attached } = await ctx.db.transaction(async (tx) => {
    // A new place is pending (hidden): its slug always carries a random suffix (server/shared/slug.ts).
    // Each try in its own savepoint, so a lost slug race does not abort the transaction.
    const created = await insertWithSlug({ text: input.name, hideable: true, fallback: 'place' }, (slug) =>
      tx.transaction(async (savepoint) => {
        const [row] = await savepoint
          .insert(places)
          .values({
            slug,
            name: input.name,
            type: input.type,
            veganLevel: input.veganLevel,
            address: input.address,
            hours: input.hours ?? null,
            website: input.website,
            tags: input.tags,
            photos: input.photos,
            location: [input.location.lng, input.location.lat],
            status: 'pending',
            submitterId: ctx.user.id,
            createdAt: ctx.clock.now(),
          })
          .returning({ id: places.id });
        return row!;
      }),
    );
    const attached = await attachImageRefs(ctx, input.photos, 'place', { executor: tx, field: 'photos', list: true });
    return { created, attached };
  });
  await afterImagesAttached(ctx, attached);
  const [row] = await ctx.db.select(placeColumns).from(places).where(eq(places.id, created.id));
  return toPlace(row!, ctx.config);
}

export async function listPendingPlaces(ctx: ServiceContext, input: { cursor?: string; limit: number }) {
  const after = await decodePlaceCursor(ctx, input.cursor, false);
  const rows = await ctx.db
    .select(placeColumns)
    .from(places)
    .where(and(eq(places.status, 'pending'), after ? gt(places.id, after) : undefined))
    .orderBy(asc(places.id))
    .limit(input.limit + 1);
  return page(rows, input.limit, ctx.config);
}

/** pending → approved | rejected in one statement; any other state is 409, an unknown id 404. */
async function review(ctx: ServiceContext, id: string, next: 'approved' | 'rejected', reason?: string) {
  const updated = await ctx.db
    .update(places)
    .set({ status: next, reviewedAt: ctx.clock.now(), rejectionReason: next === 'rejected' ? (reason ?? null) : null })
    .where(and(eq(places.id, id), eq(places.status, 'pending')))
    .returning({ id: places.id });
  const [row] = await ctx.db
    .select({ ...placeColumns, rejectionReason: places.rejectionReason })
    .from(places)
    .where(eq(places.id, id));
  if (!row) throw new AppError('not_found', 'No such place.');
  if (updated.length === 0)
    throw new AppError('conflict', `Only a pending place can be reviewed; this one is ${row.status}.`);
  return toPlace(row, ctx.config);
}

export const approvePlace = (ctx: ServiceContext, input: { id: string }) => review(ctx, input.id, 'approved');
export const rejectPlace = (ctx: ServiceContext, input: { id: string; reason?: string }) =>
  review(ctx, input.id, 'rejected', input.reason);

/** For /api/stats: approved places, in total and per type (every type present, zero when none). */
export async function approvedPlaceCounts(db: DbOrTx): Promise<{ total: number; byType: Record<PlaceType, number> }> {
  const rows = await db
    .select({ type: places.type, n: count() })
    .from(places)
    .where(sql`${places.status} = 'approved'`)
    .groupBy(places.type);
  const byType = Object.fromEntries(placeTypes.map((type) => [type, 0])) as Record<PlaceType, number>;
  for (const row of rows) byType[row.type] = Number(row.n);
  return { total: rows.reduce((sum, row) => sum + Number(row.n), 0), byType };
}
