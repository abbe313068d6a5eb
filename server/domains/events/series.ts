// Recurring events. A series row (db/schema/event-series.ts) holds the rule, the zone, DTSTART as
// local wall time and the length; every occurrence is materialized as an `events` row of its own
// (own id, slug, RSVPs, cancel) with `seriesId` and `occurrenceWall` (its RECURRENCE-ID).
//
// Editing (PATCH scope):
//   this       one occurrence; it is marked `seriesOverridden` and series-wide edits leave it be
//              (service.ts updateEvent). Cancelling one occurrence is an exception (EXDATE).
//   following  this occurrence and the later ones; when earlier ones exist the series is split:
//              the earlier part keeps the id with COUNT cut to them, the rest moves to a new series.
//   all        every occurrence not yet ended. Past occurrences are never rewritten.
// A time change in following/all shifts the local wall time (18:00 → 19:00 in every occurrence,
// whatever the UTC offset that day); it may not move the date (400). Overridden occurrences keep
// their own time and fields; cancelling the series cancels them too (the members going are told).
import { and, asc, eq, gte, ne, sql } from 'drizzle-orm';
import { eventSeries, events, pushOutbox } from '../../../db/schema/index.js';
import type { DbOrTx } from '../../../db/client.js';
import { AppError } from '../../errors.js';
import type { MemberServiceContext } from '../../service/context.js';
import { afterImagesAttached, attachImageRefs, releaseImages } from '../uploads/image-refs.js';
import type { UpdateEventInput } from './schemas.js';
import { notifyEventChange, publishedState } from './changes.js';
import {
  expandWalls,
  instantOf,
  ruleFrom,
  ruleWithCount,
  shiftRule,
  shiftWall,
  wallDate,
  wallOf,
} from './series-expand.js';
import { assertApprovedPlace, meetingPointColumns, pushWorthyChange, updateEvent, visibleEvent } from './service.js';
import { deriveEventTimeZone } from './time-zone.js';
import { canManage, selectOneEvent, toEvent, type EventRow } from './view.js';
import { promoteWaitlist } from './waitlist.js';
import { viewerOf } from './visibility.js';
import { unusedCovers } from './series-plan.js';

/** Seconds since local midnight of a wall time. */
const timeOfDay = (wall: string) =>
  (wallDate(wall).getTime() - wallDate(`${wall.slice(0, 10)}T00:00:00`).getTime()) / 1000;

/**
 * PATCH with `scope: following | all` on an occurrence (anything else goes to updateEvent).
 * Answers the occurrence the PATCH named, as changed.
 */
export async function updateSeriesEvents(ctx: MemberServiceContext, input: UpdateEventInput) {
  const { scope, ...fields } = input;
  const viewer = viewerOf(ctx);
  const current = await visibleEvent(ctx.db, viewer, eq(events.id, input.id));
  const e = current.event;
  if (!e.seriesId || !e.occurrenceWall || scope === undefined || scope === 'this') return updateEvent(ctx, fields);
  if (!canManage(current, viewer)) throw new AppError('forbidden', "Only the event's organizers can change it.");
  if (e.status === 'cancelled') throw new AppError('conflict', 'The event is cancelled; it can no longer be changed.');
  if (fields.visibility === 'grove' && !e.hostGroveId)
    throw new AppError('validation_failed', 'visibility: `grove` visibility needs a grove host.');
  await assertApprovedPlace(ctx, fields.placeId);

  const { id, startsAt: _s, endsAt: _e, meetingPoint, status, coverImage, ...rest } = fields;
  if (rest.timeZone === undefined && rest.placeId && rest.placeId !== e.placeId)
    rest.timeZone = await deriveEventTimeZone(ctx.db, { placeId: rest.placeId });
  if (rest.meetingPointVisibility === 'rsvp' && e.meetingPointVisibility !== 'rsvp' && rest.rsvpApproval === undefined)
    rest.rsvpApproval = true;
  const oldZone = e.timeZone ?? 'UTC';
  const zone = rest.timeZone ?? oldZone;
  const timed = fields.startsAt !== undefined || fields.endsAt !== undefined || zone !== oldZone;
  const newStart = fields.startsAt ? new Date(fields.startsAt) : e.startsAt;
  const newEnd = fields.endsAt ? new Date(fields.endsAt) : e.endsAt;
  if (newEnd <= newStart) throw new AppError('validation_failed', 'endsAt: Must be after startsAt.');
  const oldWall = wallOf(e.startsAt, oldZone);
  const newWall = fields.startsAt ? wallOf(newStart, zone) : oldWall;
  if (newWall.slice(0, 10) !== oldWall.slice(0, 10))
    throw new AppError(
      'validation_failed',
      'startsAt: A change for several occurrences may move the time of day, not the date; move occurrences one by one (scope: this).',
    );
  const shift = timeOfDay(newWall) - timeOfDay(oldWall);
  const durationMs = newEnd.getTime() - newStart.getTime();
  const now = ctx.clock.now();

  const { attached, dropped } = await ctx.db.transaction(async (tx) => {
    const [series] = await tx.select().from(eventSeries).where(eq(eventSeries.id, e.seriesId!)).for('update');
    let seriesId = series!.id;
    if (scope === 'following') seriesId = await splitAt(tx, series!, e.occurrenceWall!, now);
    // Every row of the (possibly new) series from the pivot on; the pivot of `all` is the start.
    const scoped = await tx
      .select()
      .from(events)
      .where(
        and(
          eq(events.seriesId, seriesId),
          scope === 'following' ? gte(events.occurrenceWall, e.occurrenceWall!) : undefined,
        ),
      )
      .orderBy(asc(events.startsAt))
      .for('update');
    const cancelling = status === 'cancelled';
    const targets = scoped.filter(
      (r) => r.status !== 'cancelled' && r.endsAt > now && (r.id === id || cancelling || !r.seriesOverridden),
    );
    const before = [...new Set(targets.map((r) => r.coverImage))];
    const attached =
      coverImage === undefined
        ? []
        : await attachImageRefs(ctx, [coverImage], 'event', { executor: tx, field: 'coverImage', keep: before });
    for (const r of targets) {
      let startsAt = r.startsAt;
      let endsAt = r.endsAt;
      if (timed && !cancelling) {
        const wall = shiftWall(wallOf(r.startsAt, r.timeZone ?? oldZone), shift);
        startsAt = instantOf(wall, zone);
        endsAt = new Date(startsAt.getTime() + durationMs);
      }
      const changed = await tx
        .update(events)
        .set({
          ...rest,
          ...meetingPointColumns(meetingPoint),
          ...(coverImage === undefined ? {} : { coverImage }),
          ...(cancelling ? { status } : {}),
          startsAt,
          endsAt,
          updatedAt: now,
        })
        .where(and(eq(events.id, r.id), ne(events.status, 'cancelled')))
        .returning({ id: events.id });
      // Defensive (the rows are locked since `scoped` was read): no push for a row left unchanged.
      if (changed.length === 0) continue;
      if (rest.capacity !== undefined) await promoteWaitlist(ctx.database, tx, r.id, now);
      const row = { ...current, event: r } as EventRow;
      const change = pushWorthyChange(row, { ...fields, id: r.id }, { startsAt, endsAt });
      if (change)
        await tx.insert(pushOutbox).values({
          kind: 'eventUpdate',
          subjectId: r.id,
          change,
          actorId: ctx.user.id,
          notBefore: now,
          createdAt: now,
        });
      // Federation and other observers hear of each occurrence changed (events/changes.ts).
      await notifyEventChange(ctx, tx, {
        eventId: r.id,
        wasPublished: publishedState(r),
        isPublished: publishedState({
          visibility: rest.visibility ?? r.visibility,
          status: cancelling ? status : r.status,
        }),
      });
    }
    if (timed && !cancelling) {
      // The whole series moves on the wall clock: DTSTART, UNTIL and every RECURRENCE-ID (past and
      // overridden rows keep their own times; they become overrides of the moved rule).
      await tx
        .update(events)
        .set({
          occurrenceWall: sql`to_char(${events.occurrenceWall}::timestamp + make_interval(secs => ${shift}), 'YYYY-MM-DD"T"HH24:MI:SS')`,
          seriesOverridden: sql`${events.seriesOverridden} or ${events.endsAt} <= ${now.toISOString()}::timestamptz`,
        })
        .where(eq(events.seriesId, seriesId));
    }
    if (timed && !cancelling) {
      const [s] = await tx.select().from(eventSeries).where(eq(eventSeries.id, seriesId));
      await tx
        .update(eventSeries)
        .set({
          startWall: shiftWall(s!.startWall, shift),
          rule: shiftRule(s!.rule, shift),
          timeZone: zone,
          durationSeconds: Math.round(durationMs / 1000),
          updatedAt: now,
        })
        .where(eq(eventSeries.id, seriesId));
    }
    const after = coverImage === undefined ? before : [coverImage];
    return {
      attached,
      dropped: await unusedCovers(
        tx,
        before.filter((c) => !after.includes(c)),
      ),
    };
  });
  await afterImagesAttached(ctx, attached);
  await releaseImages(ctx, dropped);
  return toEvent((await selectOneEvent(ctx.db, viewer, eq(events.id, input.id)))!, viewer, ctx.config);
}

/**
 * "This and following": the occurrences from `wall` on move to a new series (answered), the
 * series keeps the earlier ones with COUNT cut to them. Without earlier ones there is nothing to
 * split and the series itself is answered.
 */
async function splitAt(tx: DbOrTx, series: typeof eventSeries.$inferSelect, wall: string, now: Date) {
  const walls = expandWalls(series.rule, series.startWall);
  const index = walls.filter((w) => w < wall).length;
  if (index === 0) return series.id;
  await tx
    .update(eventSeries)
    .set({ rule: ruleWithCount(series.rule, index), updatedAt: now })
    .where(eq(eventSeries.id, series.id));
  const [created] = await tx
    .insert(eventSeries)
    .values({
      rule: ruleFrom(series.rule, index),
      timeZone: series.timeZone,
      startWall: wall,
      durationSeconds: series.durationSeconds,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: eventSeries.id });
  await tx
    .update(events)
    .set({ seriesId: created!.id })
    .where(and(eq(events.seriesId, series.id), gte(events.occurrenceWall, wall)));
  return created!.id;
}
