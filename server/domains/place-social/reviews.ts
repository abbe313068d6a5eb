// Place reviews: one per member and approved place, editable and deletable by its author.
//
// Privacy (spec: Place review; rule 1): the author's id is read only to find "my review" and is
// never selected by a public read. The handle comes from a join, and only when `show_handle`
// is true, decided in SQL. No route takes a review id: the author's own review is addressed by
// place + session (`/api/places/{id}/reviews/mine`), so a review `_id` cannot be used to learn
// who wrote it.
//
// The place's aggregate (places.review_count, places.rating_sum) moves in the same transaction
// as each review write, by increments: the UPDATE of the place row also serialises concurrent
// writes to one place's aggregate (an increment re-reads the latest row version under READ
// COMMITTED, a recount from a subquery would not).
import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { placeReviews, places, users } from '../../../db/schema/index.js';
import { AppError, isUniqueViolation } from '../../errors.js';
import { beforeCursor, toPage } from '../../lib/pagination.js';
import type { MemberServiceContext, ServiceContext } from '../../service/context.js';
import { EARLIEST_MONTH, type CreateReviewInput, type ReviewOutput, type UpdateReviewInput } from './schemas.js';

const approved = sql`${places.status} = 'approved'`;

/** Every column a review answer needs; the author appears only as a handle, only when chosen. */
const reviewColumns = {
  id: placeReviews.id,
  placeId: placeReviews.placeId,
  rating: placeReviews.rating,
  text: placeReviews.text,
  monthVisited: placeReviews.monthVisited,
  showHandle: placeReviews.showHandle,
  authorHandle: sql<string | null>`case when ${placeReviews.showHandle} then ${users.handle} end`,
  createdAt: placeReviews.createdAt,
  updatedAt: placeReviews.updatedAt,
};

type ReviewRow = {
  id: string;
  placeId: string;
  rating: number;
  text: string;
  monthVisited: string | null;
  showHandle: boolean;
  authorHandle: string | null;
  createdAt: Date;
  updatedAt: Date | null;
};

function toReview(row: ReviewRow): ReviewOutput {
  return {
    _id: row.id,
    placeId: row.placeId,
    rating: row.rating,
    text: row.text,
    monthVisited: row.monthVisited,
    showHandle: row.showHandle,
    // No key at all otherwise: "no author field" (spec), not a null one.
    ...(row.showHandle && row.authorHandle !== null ? { authorHandle: row.authorHandle } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt ? row.updatedAt.toISOString() : null,
  };
}

const noSuchPlace = () => new AppError('not_found', 'No such place.');
const noReview = () => new AppError('not_found', 'You have not reviewed this place.');

/**
 * A visit cannot be in a future month. "Now" is taken 14 hours ahead of UTC (the earliest time
 * zone), so a member whose month already began is not refused while UTC still shows the last one.
 */
function assertMonthVisited(ctx: ServiceContext, month: string | null | undefined): void {
  if (month === null || month === undefined) return;
  const ahead = new Date(ctx.clock.now().getTime() + 14 * 3_600_000);
  const current = `${ahead.getUTCFullYear()}-${String(ahead.getUTCMonth() + 1).padStart(2, '0')}`;
  if (month > current) throw new AppError('validation_failed', 'monthVisited: must not be in the future.');
  if (month < EARLIEST_MONTH)
    throw new AppError('validation_failed', `monthVisited: must be ${EARLIEST_MONTH} or later.`);
}

async function assertApprovedPlace(db: DbOrTx, placeId: string): Promise<void> {
  const [place] = await db
    .select({ id: places.id })
    .from(places)
    .where(and(eq(places.id, placeId), approved))
    .limit(1);
  if (!place) throw noSuchPlace();
}

/** Reviews of an approved place, newest first; a place that is not approved is 404 like a missing one. */
export async function listReviews(ctx: ServiceContext, input: { id: string; cursor?: string; limit: number }) {
  const before = beforeCursor(placeReviews.id, input.cursor);
  await assertApprovedPlace(ctx.db, input.id);
  const rows = await ctx.db
    .select(reviewColumns)
    .from(placeReviews)
    .innerJoin(users, eq(users.id, placeReviews.userId))
    .where(and(eq(placeReviews.placeId, input.id), before))
    .orderBy(desc(placeReviews.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (row) => row.id);
  return { items: page.items.map(toReview), nextCursor: page.nextCursor };
}

async function ownReviewRow(db: DbOrTx, placeId: string, userId: string): Promise<ReviewRow | undefined> {
  const [row] = await db
    .select(reviewColumns)
    .from(placeReviews)
    .innerJoin(users, eq(users.id, placeReviews.userId))
    .where(and(eq(placeReviews.placeId, placeId), eq(placeReviews.userId, userId)))
    .limit(1);
  return row;
}

/** The caller's own review of the place, or 404 when they have none. */
export async function getMyReview(ctx: MemberServiceContext, input: { id: string }): Promise<ReviewOutput> {
  const row = await ownReviewRow(ctx.db, input.id, ctx.user.id);
  if (!row) throw noReview();
  return toReview(row);
}

export async function createReview(ctx: MemberServiceContext, input: CreateReviewInput): Promise<ReviewOutput> {
  assertMonthVisited(ctx, input.monthVisited);
  try {
    // Its own transaction, or a savepoint inside the Idempotency-Key transaction: a duplicate
    // rolls back the aggregate increment with it.
    await ctx.db.transaction(async (tx) => {
      const [place] = await tx
        .update(places)
        .set({
          reviewCount: sql`${places.reviewCount} + 1`,
          ratingSum: sql`${places.ratingSum} + ${input.rating}`,
        })
        .where(and(eq(places.id, input.id), approved))
        .returning({ id: places.id });
      if (!place) throw noSuchPlace();
      await tx.insert(placeReviews).values({
        placeId: input.id,
        userId: ctx.user.id,
        rating: input.rating,
        text: input.text,
        monthVisited: input.monthVisited ?? null,
        showHandle: input.showHandle,
        createdAt: ctx.clock.now(),
      });
    });
  } catch (error) {
    if (isUniqueViolation(error, 'place_reviews_place_id_user_id'))
      throw new AppError(
        'conflict',
        'You have already reviewed this place; change it with PATCH /api/places/{id}/reviews/mine.',
      );
    throw error;
  }
  return getMyReview(ctx, { id: input.id });
}

export async function updateMyReview(ctx: MemberServiceContext, input: UpdateReviewInput): Promise<ReviewOutput> {
  assertMonthVisited(ctx, input.monthVisited);
  const { id: placeId, ...changes } = input;
  await ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select({ id: placeReviews.id, rating: placeReviews.rating })
      .from(placeReviews)
      .where(and(eq(placeReviews.placeId, placeId), eq(placeReviews.userId, ctx.user.id)))
      .for('update');
    if (!current) throw noReview();
    await tx
      .update(placeReviews)
      .set({ ...changes, updatedAt: ctx.clock.now() })
      .where(eq(placeReviews.id, current.id));
    if (changes.rating !== undefined && changes.rating !== current.rating)
      await tx
        .update(places)
        .set({ ratingSum: sql`${places.ratingSum} + ${changes.rating - current.rating}` })
        .where(eq(places.id, placeId));
  });
  return getMyReview(ctx, { id: placeId });
}

export async function deleteMyReview(ctx: MemberServiceContext, input: { id: string }): Promise<{ ok: true }> {
  await ctx.db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(placeReviews)
      .where(and(eq(placeReviews.placeId, input.id), eq(placeReviews.userId, ctx.user.id)))
      .returning({ rating: placeReviews.rating });
    if (!gone) throw noReview();
    await tx
      .update(places)
      .set({
        reviewCount: sql`${places.reviewCount} - 1`,
        ratingSum: sql`${places.ratingSum} - ${gone.rating}`,
      })
      .where(eq(places.id, input.id));
  });
  return { ok: true };
}
