// Place lists: a member's collections of approved places, private by default.
//
// Visibility, decided in SQL: a list is readable when it is public or the caller owns it; any
// other list answers 404 exactly like a missing one. Only the owner changes a list (everyone
// else gets that same 404, public list or not). The owner's id never leaves the server; the
// owner's handle does only when the owner chose `showHandle`.
import { and, asc, count, eq, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { isUuid } from '../../../db/ids.js';
import { placeListItems, placeLists, places } from '../../../db/schema/index.js';
import { AppError } from '../../errors.js';
import { afterCursor, toPage } from '../../lib/pagination.js';
import { insertWithSlug } from '../../shared/slug.js';
import type { Caller, MemberServiceContext, ServiceContext } from '../../service/context.js';
import { placeColumns } from '../places/place-row.js';
import { photosOf, toPlace } from '../places/service.js';
import {
  PLACE_LIST_LIMITS,
  type CreatePlaceListInput,
  type PlaceListOutput,
  type UpdatePlaceListInput,
} from './schemas.js';

const approved = sql`${places.status} = 'approved'`;

// Spelled out: drizzle renders a lone column of the outer table unqualified inside a subquery.
const listColumns = {
  id: placeLists.id,
  slug: placeLists.slug,
  name: placeLists.name,
  description: placeLists.description,
  isPublic: placeLists.isPublic,
  showHandle: placeLists.showHandle,
  ownerHandle: sql<
    string | null
  >`case when place_lists.show_handle then (select u.handle from users u where u.id = place_lists.user_id) end`,
  placeCount: sql<number>`(select count(*)::int from place_list_items i join places p on p.id = i.place_id
    where i.list_id = place_lists.id and p.status = 'approved')`.mapWith(Number),
  createdAt: placeLists.createdAt,
  updatedAt: placeLists.updatedAt,
};

type ListRow = {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  isPublic: boolean;
  showHandle: boolean;
  ownerHandle: string | null;
  placeCount: number;
  createdAt: Date;
  updatedAt: Date;
};

function toList(row: ListRow): PlaceListOutput {
  return {
    _id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    isPublic: row.isPublic,
    showHandle: row.showHandle,
    ...(row.showHandle && row.ownerHandle !== null ? { ownerHandle: row.ownerHandle } : {}),
    placeCount: row.placeCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const noSuchList = () => new AppError('not_found', 'No such place list.');
const noSuchPlace = () => new AppError('not_found', 'No such place.');

/** `{id}` of a read: a UUID is an `_id`, anything else a slug (slugs never have a UUID's shape). */
function addressed(address: string): SQL {
  return isUuid(address) ? eq(placeLists.id, address.toLowerCase()) : eq(placeLists.slug, address.toLowerCase());
}

/** Public, or the caller's own. */
function readableBy(caller: Caller): SQL {
  const viewer = caller?.user.id;
  return viewer ? or(eq(placeLists.isPublic, true), eq(placeLists.userId, viewer))! : eq(placeLists.isPublic, true);
}

async function listWhere(db: DbOrTx, where: SQL | undefined): Promise<PlaceListOutput> {
  const [row] = await db.select(listColumns).from(placeLists).where(where).limit(1);
  if (!row) throw noSuchList();
  return toList(row);
}

const ownList = (ctx: MemberServiceContext, id: string) =>
  and(eq(placeLists.id, id), eq(placeLists.userId, ctx.user.id));

export async function listMyLists(ctx: MemberServiceContext, input: { cursor?: string; limit: number }) {
  const after = afterCursor(placeLists.id, input.cursor);
  const rows = await ctx.db
    .select(listColumns)
    .from(placeLists)
    .where(and(eq(placeLists.userId, ctx.user.id), after))
    .orderBy(asc(placeLists.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (row) => row.id);
  return { items: page.items.map(toList), nextCursor: page.nextCursor };
}

export async function getList(ctx: ServiceContext, caller: Caller, input: { id: string }): Promise<PlaceListOutput> {
  return listWhere(ctx.db, and(addressed(input.id), readableBy(caller)));
}

/** The approved places of a readable list, in `_id` order. */
export async function listPlacesOfList(
  ctx: ServiceContext,
  caller: Caller,
  input: { id: string; cursor?: string; limit: number },
) {
  const after = afterCursor(places.id, input.cursor);
  const [list] = await ctx.db
    .select({ id: placeLists.id })
    .from(placeLists)
    .where(and(addressed(input.id), readableBy(caller)))
    .limit(1);
  if (!list) throw noSuchList();
  const rows = await ctx.db
    .select(placeColumns)
    .from(placeListItems)
    .innerJoin(places, eq(places.id, placeListItems.placeId))
    .where(and(eq(placeListItems.listId, list.id), approved, after))
    .orderBy(asc(places.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (row) => row.id);
  const photos = await photosOf(ctx, page.items);
  return { items: page.items.map((row) => toPlace(row, ctx.config, photos)), nextCursor: page.nextCursor };
}

export async function createList(ctx: MemberServiceContext, input: CreatePlaceListInput): Promise<PlaceListOutput> {
  const [owned] = await ctx.db.select({ n: count() }).from(placeLists).where(eq(placeLists.userId, ctx.user.id));
  if (Number(owned?.n ?? 0) >= PLACE_LIST_LIMITS.listsPerMember)
    throw new AppError('conflict', `A member can keep at most ${PLACE_LIST_LIMITS.listsPerMember} place lists.`);
  const now = ctx.clock.now();
  // Lists can be private: the slug always carries a random suffix (server/shared/slug.ts), so it
  // never has a UUID's shape either. Each try in its own savepoint (see insertWithSlug).
  const created = await insertWithSlug({ text: input.name, hideable: true, fallback: 'list' }, (slug) =>
    ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(placeLists)
        .values({
          userId: ctx.user.id,
          slug,
          name: input.name,
          description: input.description || null,
          isPublic: input.isPublic,
          showHandle: input.showHandle,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: placeLists.id });
      return row!;
    }),
  );
  return listWhere(ctx.db, eq(placeLists.id, created.id));
}

export async function updateList(ctx: MemberServiceContext, input: UpdatePlaceListInput): Promise<PlaceListOutput> {
  const { id, description, ...changes } = input;
  const updated = await ctx.db
    .update(placeLists)
    .set({
      ...changes,
      ...(description !== undefined ? { description: description || null } : {}),
      updatedAt: ctx.clock.now(),
    })
    .where(ownList(ctx, id))
    .returning({ id: placeLists.id });
  if (updated.length === 0) throw noSuchList();
  return listWhere(ctx.db, eq(placeLists.id, id));
}

export async function deleteList(ctx: MemberServiceContext, input: { id: string }): Promise<{ ok: true }> {
  const deleted = await ctx.db.delete(placeLists).where(ownList(ctx, input.id)).returning({ id: placeLists.id });
  if (deleted.length === 0) throw noSuchList();
  return { ok: true };
}

/** Idempotent: a place already in the list stays once. Approved places only; a full list is 409. */
export async function addPlace(
  ctx: MemberServiceContext,
  input: { id: string; placeId: string },
): Promise<PlaceListOutput> {
  await ctx.db.transaction(async (tx) => {
    // The lock serialises adds to one list, so the size bound holds under concurrency.
    const [list] = await tx.select({ id: placeLists.id }).from(placeLists).where(ownList(ctx, input.id)).for('update');
    if (!list) throw noSuchList();
    const [place] = await tx
      .select({ id: places.id })
      .from(places)
      .where(and(eq(places.id, input.placeId), approved))
      .limit(1);
    if (!place) throw noSuchPlace();
    const [present] = await tx
      .select({ placeId: placeListItems.placeId })
      .from(placeListItems)
      .where(and(eq(placeListItems.listId, list.id), eq(placeListItems.placeId, place.id)))
      .limit(1);
    if (present) return;
    const [held] = await tx.select({ n: count() }).from(placeListItems).where(eq(placeListItems.listId, list.id));
    if (Number(held?.n ?? 0) >= PLACE_LIST_LIMITS.placesPerList)
      throw new AppError('conflict', `A place list holds at most ${PLACE_LIST_LIMITS.placesPerList} places.`);
    const now = ctx.clock.now();
    await tx.insert(placeListItems).values({ listId: list.id, placeId: place.id, addedAt: now });
    await tx.update(placeLists).set({ updatedAt: now }).where(eq(placeLists.id, list.id));
  });
  return listWhere(ctx.db, eq(placeLists.id, input.id));
}

/** Idempotent: removing a place that is not in the list is fine (the list itself must be the caller's). */
export async function removePlace(
  ctx: MemberServiceContext,
  input: { id: string; placeId: string },
): Promise<PlaceListOutput> {
  await ctx.db.transaction(async (tx) => {
    const [list] = await tx.select({ id: placeLists.id }).from(placeLists).where(ownList(ctx, input.id)).for('update');
    if (!list) throw noSuchList();
    const removed = await tx
      .delete(placeListItems)
      .where(and(eq(placeListItems.listId, list.id), eq(placeListItems.placeId, input.placeId)))
      .returning({ placeId: placeListItems.placeId });
    if (removed.length)
      await tx.update(placeLists).set({ updatedAt: ctx.clock.now() }).where(eq(placeLists.id, list.id));
  });
  return listWhere(ctx.db, eq(placeLists.id, input.id));
}
