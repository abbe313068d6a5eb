// The action log: every query names the caller as owner in its WHERE clause (privacy rule 3),
// so another member's entry is exactly as missing as one that never existed (404).
import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import { actionEntries, places, type ActionEntry } from '../../../db/schema/index.js';
import { AppError, isUniqueViolation } from '../../errors.js';
import { beforeCursor, toPage } from '../../lib/pagination.js';
import { countEntry, uncountEntry } from './aggregates.js';
import type { ActionEntryOutput, CreateActionInput, ListActionsInput } from './schemas.js';
import { confirmableEvent } from './suggestions.js';
import { DAY_MS } from '../../lib/clock.js';
import type { MemberServiceContext } from '../../service/context.js';

export function toActionEntry(row: ActionEntry): ActionEntryOutput {
  return {
    _id: row.id,
    kind: row.kind,
    occurredOn: row.occurredOn,
    hours: row.minutes === null ? null : row.minutes / 60,
    note: row.note,
    placeId: row.placeId,
    placeName: row.placeName,
    eventId: row.eventId,
    eventTitle: row.eventTitle,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Newest first (by `_id`: the order entries were logged). */
export async function listActions(ctx: MemberServiceContext, input: ListActionsInput) {
  const before = beforeCursor(actionEntries.id, input.cursor);
  const rows = await ctx.db
    .select()
    .from(actionEntries)
    .where(
      and(
        eq(actionEntries.userId, ctx.user.id),
        input.kind ? eq(actionEntries.kind, input.kind) : undefined,
        input.from ? gte(actionEntries.occurredOn, input.from) : undefined,
        input.to ? lte(actionEntries.occurredOn, input.to) : undefined,
        before,
      ),
    )
    .orderBy(desc(actionEntries.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (row) => row.id);
  return { items: page.items.map(toActionEntry), nextCursor: page.nextCursor };
}

/** A date in the member's own time zone may be a day ahead of UTC, never more. */
function assertNotFuture(ctx: MemberServiceContext, occurredOn: string) {
  const latest = new Date(ctx.clock.now().getTime() + DAY_MS).toISOString().slice(0, 10);
  if (occurredOn > latest) throw new AppError('validation_failed', 'occurredOn: Must not be in the future.');
}

/** A place the caller may see: approved, or their own pending submission; its name as of now. */
async function visiblePlaceName(ctx: MemberServiceContext, placeId: string): Promise<string> {
  const [place] = await ctx.db
    .select({ name: places.name })
    .from(places)
    .where(and(eq(places.id, placeId), sql`(${places.status} = 'approved' or ${places.submitterId} = ${ctx.user.id})`))
    .limit(1);
  if (!place) throw new AppError('validation_failed', 'placeId: No such place.');
  return place.name;
}

export async function createAction(ctx: MemberServiceContext, input: CreateActionInput): Promise<ActionEntryOutput> {
  let occurredOn = input.occurredOn;
  let event: { eventId: string; eventTitle: string } | null = null;
  if (input.eventId !== undefined) {
    const confirmed = await confirmableEvent(ctx, input.eventId);
    event = { eventId: confirmed.id, eventTitle: confirmed.title };
    occurredOn ??= confirmed.occurredOn;
  }
  if (occurredOn === undefined) throw new AppError('validation_failed', 'occurredOn: Required.');
  assertNotFuture(ctx, occurredOn);
  const placeName =
    input.placeId !== undefined ? await visiblePlaceName(ctx, input.placeId) : (input.placeName ?? null);
  const minutes = input.hours === undefined ? null : Math.round(input.hours * 60);
  const now = ctx.clock.now();
  try {
    const row = await ctx.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(actionEntries)
        .values({
          userId: ctx.user.id,
          kind: input.kind,
          occurredOn,
          minutes,
          note: input.note ?? null,
          placeId: input.placeId ?? null,
          placeName,
          eventId: event?.eventId ?? null,
          eventTitle: event?.eventTitle ?? null,
          createdAt: now,
        })
        .returning();
      await countEntry(tx, ctx.user.id, minutes ?? 0, now);
      return inserted!;
    });
    return toActionEntry(row);
  } catch (error) {
    // Two confirmations of the same event racing: the unique index lets one through.
    if (isUniqueViolation(error, 'action_entries_user_event_key'))
      throw new AppError('conflict', 'That event is already in your log.');
    throw error;
  }
}

export async function deleteAction(ctx: MemberServiceContext, input: { id: string }): Promise<{ ok: true }> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(actionEntries)
      .where(and(eq(actionEntries.id, input.id), eq(actionEntries.userId, ctx.user.id)))
      .returning({ minutes: actionEntries.minutes });
    if (!gone) throw new AppError('not_found', 'No such entry in your log.');
    await uncountEntry(tx, ctx.user.id, gone.minutes ?? 0, now);
  });
  return { ok: true };
}
