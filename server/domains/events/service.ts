// Events: list and get under the visibility rules, create and change (organizers of the host,
// or site admins), cancel (PATCH status=cancelled, final).
import { and, asc, desc, eq, gte, lt, lte, ne, or, sql } from 'drizzle-orm';
import { events, groves, organizations, pushOutbox } from '../../../db/schema/index.js';
import type { DbOrTx } from '../../../db/client.js';
import { AppError } from '../../errors.js';
import { encodeTimeCursor, toPage } from '../../lib/pagination.js';
import type { Caller, MemberServiceContext, ServiceContext } from '../../service/context.js';
import { insertWithSlug } from '../../shared/slug.js';
import { afterImagesAttached, attachImageRefs, droppedImageRefs, releaseImages } from '../uploads/image-refs.js';
import { isGroveOrganizer } from '../../shared/grove-roles.js';
import { isOrganizationAdmin } from '../organizations/service.js';
import type { CreateEventInput, UpdateEventInput } from './schemas.js';
import { deriveEventTimeZone } from './time-zone.js';
import { insertSeries, planSeries, unusedCovers, type Occurrence } from './series-plan.js';
import { selectOneEvent, toEvent, canManage, type EventRow } from './view.js';
import { eventSearchCondition } from './search.js';
import { promoteWaitlist } from './waitlist.js';
import { notifyEventChange, publishedState } from './changes.js';
import { listEventRows, type ListEventsInput } from './list-query.js';
import { viewerOf, visibleTo, type Viewer } from './visibility.js';

export type { ListEventsInput } from './list-query.js';

/**
 * The list's filters as one plain condition, without visibility: the list as it was before its
 * prepared statements (list-query.ts), kept as the reference tests/events/list-shapes.test.ts
 * compares every shape with, and the filter of the plain app in bench/events-naive.ts. `after`
 * is the decoded cursor.
 */
export function eventListFilters(input: ListEventsInput, now: Date, after?: { at: Date; id: string }) {
  const area = input.area?.toLowerCase();
  const past = input.past === true;
  return and(
    after
      ? past
        ? sql`(${events.startsAt}, ${events.id}) < (${after.at.toISOString()}::timestamptz, ${after.id}::uuid)`
        : sql`(${events.startsAt}, ${events.id}) > (${after.at.toISOString()}::timestamptz, ${after.id}::uuid)`
      : undefined,
    // Ended before now; it also started before now (the index range the backward walk reads).
    past ? lt(events.endsAt, now) : undefined,
    past ? lt(events.startsAt, now) : undefined,
    input.from ? gte(events.endsAt, new Date(input.from)) : undefined,
    // Redundant with the line above (no event lasts longer than the longest one), but an
    // index range on starts_at: without it an upcoming list reads every past event first.
    input.from
      ? sql`${events.startsAt} >= ${input.from}::timestamptz - (select coalesce(max(d.ends_at - d.starts_at), interval '0') from events d)`
      : undefined,
    input.to ? lte(events.startsAt, new Date(input.to)) : undefined,
    // Both arms are index range reads with `from` (events_area_starts_at_idx,
    // events_host_grove_starts_at_idx via = any), OR-ed as bitmaps.
    area
      ? or(
          sql`lower(${events.area}) = ${area}`,
          sql`${events.hostGroveId} = any(array(select g.id from groves g where lower(g.region_name) = ${area}))`,
        )
      : undefined,
    input.groveId ? eq(events.hostGroveId, input.groveId) : undefined,
    input.series ? eq(events.seriesId, input.series) : undefined,
    input.organizationId ? eq(events.hostOrganizationId, input.organizationId) : undefined,
    input.type ? eq(events.type, input.type) : undefined,
    input.q ? eventSearchCondition(input.q) : undefined,
  );
}

/** Start-time order, ties by id; newest first for `past`. */
export function eventListOrder(input: Pick<ListEventsInput, 'past'>) {
  return input.past === true ? [desc(events.startsAt), desc(events.id)] : [asc(events.startsAt), asc(events.id)];
}

export async function listEvents(ctx: ServiceContext, caller: Caller, input: ListEventsInput) {
  const viewer = viewerOf(caller);
  // Prepared per filter shape (list-query.ts). The cursor is the last row's (startsAt, id), a
  // keyset in the list's own order. Visibility is a condition of the statement, never a filter
  // applied afterwards.
  const rows = await listEventRows(ctx.db, viewer, input, ctx.clock.now());
  const page = toPage(
    rows,
    input.limit,
    (r) => r.event.id,
    (r) => encodeTimeCursor(r.event.startsAt, r.event.id),
  );
  return { items: page.items.map((r) => toEvent(r, viewer, ctx.config)), nextCursor: page.nextCursor };
}

/** An event the viewer may see, or 404 (the same answer as a missing one). */
export async function visibleEvent(db: DbOrTx, viewer: Viewer, where: ReturnType<typeof eq>): Promise<EventRow> {
  const row = await selectOneEvent(db, viewer, and(where, visibleTo(viewer)));
  if (!row) throw new AppError('not_found', 'No such event.');
  return row;
}

export async function getEvent(ctx: ServiceContext, caller: Caller, input: { slug: string }) {
  const viewer = viewerOf(caller);
  return toEvent(await visibleEvent(ctx.db, viewer, eq(events.slug, input.slug.toLowerCase())), viewer, ctx.config);
}

/** A member hosts only for a grove they organize or an organization they administer; site admins for any. */
async function assertMayHost(
  ctx: MemberServiceContext,
  host: { groveId?: string | null; organizationId?: string | null },
) {
  if (host.groveId) {
    const [grove] = await ctx.db.select({ id: groves.id }).from(groves).where(eq(groves.id, host.groveId)).limit(1);
    if (!grove) throw new AppError('not_found', 'No such grove.');
    if (ctx.user.role !== 'admin' && !(await isGroveOrganizer(ctx.db, host.groveId, ctx.user.id))) {
      throw new AppError('forbidden', 'Only organizers of the grove can host its events.');
    }
    return;
  }
  const [org] = await ctx.db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, host.organizationId!))
    .limit(1);
  if (!org) throw new AppError('not_found', 'No such organization.');
  if (ctx.user.role !== 'admin' && !(await isOrganizationAdmin(ctx.db, host.organizationId!, ctx.user.id))) {
    throw new AppError('forbidden', 'Only admins of the organization can host its events.');
  }
}

export async function assertApprovedPlace(ctx: ServiceContext, placeId: string | null | undefined) {
  if (!placeId) return;
  const [place] = await ctx.database.rows<{ status: string }>(sql`select status from places where id = ${placeId}`);
  if (place?.status !== 'approved') throw new AppError('validation_failed', 'placeId: Must be an approved place.');
}

export function meetingPointColumns(point: CreateEventInput['meetingPoint']) {
  if (point === undefined) return {};
  return {
    meetingPointText: point?.text ?? null,
    meetingPointLocation: point?.location ? ([point.location.lng, point.location.lat] as [number, number]) : null,
  };
}

export async function createEvent(ctx: MemberServiceContext, input: CreateEventInput) {
  await assertMayHost(ctx, input);
  await assertApprovedPlace(ctx, input.placeId);
  const timeZone =
    input.timeZone ??
    (await deriveEventTimeZone(ctx.db, {
      placeId: input.placeId,
      meetingPoint: input.meetingPoint?.location,
      meetingPointVisibility: input.meetingPointVisibility,
      groveId: input.groveId,
    }));
  const now = ctx.clock.now();
  // A recurring event is one row per occurrence, all in this transaction (series.ts).
  const plan = input.recurrence ? planSeries(input, timeZone) : null;
  const occurrences: Occurrence[] = plan?.occurrences ?? [
    { startsAt: new Date(input.startsAt), endsAt: new Date(input.endsAt), wall: null },
  ];
  // An uploaded cover (an `event` key) is attached in the transaction that writes the event: a
  // refused cover leaves no event, a refused event leaves the key attachable.
  const { row, attached } = await ctx.db.transaction(async (tx) => {
    const seriesId = plan ? await insertSeries(tx, plan.series, now) : null;
    const rows: { id: string }[] = [];
    // Events can be non-public, so every slug carries a random suffix (server/shared/slug.ts), a
    // slug the client chose too: used as sent, a taken one would answer 409 for an event the
    // caller cannot see. Each try in its own savepoint, so a lost slug race does not abort the
    // transaction. An occurrence's slug adds its local date.
    for (const o of occurrences) {
      const text = `${input.slug ?? input.title}${o.wall ? `-${o.wall.slice(0, 10)}` : ''}`;
      const row = await insertWithSlug({ text, hideable: true }, (slug) =>
        tx.transaction(async (savepoint) => {
          const [inserted] = await savepoint
            .insert(events)
            .values({
              slug,
              title: input.title,
              type: input.type,
              startsAt: o.startsAt,
              endsAt: o.endsAt,
              timeZone,
              seriesId,
              occurrenceWall: o.wall,
              hostGroveId: input.groveId ?? null,
              hostOrganizationId: input.organizationId ?? null,
              creatorId: ctx.user.id,
              venueName: input.venueName ?? null,
              address: input.address ?? null,
              area: input.area,
              ...meetingPointColumns(input.meetingPoint),
              meetingPointVisibility: input.meetingPointVisibility,
              // Approval unless the organizer opted out: an RSVP-only point is otherwise one RSVP away.
              rsvpApproval: input.rsvpApproval ?? input.meetingPointVisibility === 'rsvp',
              placeId: input.placeId ?? null,
              coverImage: input.coverImage ?? null,
              description: input.description,
              visibility: input.visibility,
              capacity: input.capacity ?? null,
              createdAt: now,
              updatedAt: now,
            })
            .returning({ id: events.id });
          return inserted!;
        }),
      );
      rows.push(row);
    }
    const attached = await attachImageRefs(ctx, [input.coverImage], 'event', { executor: tx, field: 'coverImage' });
    // Federation and other observers hear of each occurrence (events/changes.ts), in this transaction.
    for (const { id } of rows) {
      await notifyEventChange(ctx, tx, {
        eventId: id,
        wasPublished: false,
        isPublished: publishedState({ visibility: input.visibility, status: 'scheduled' }),
      });
    }
    return { row: rows[0]!, attached };
  });
  await afterImagesAttached(ctx, attached);
  const viewer = viewerOf(ctx);
  return toEvent((await selectOneEvent(ctx.db, viewer, eq(events.id, row.id)))!, viewer, ctx.config);
}

/**
 * Organizers of the host (and site admins) may change it; others who can see it get 403, the
 * rest 404. A cancelled event is final: any change answers 409.
 */
/**
 * What going members are told about a change: `cancelled`, `changed` (time, venue, address,
 * place or meeting point), or nothing (title, description, cover and the rest).
 */
export function pushWorthyChange(
  row: EventRow,
  input: UpdateEventInput,
  next: { startsAt: Date; endsAt: Date },
): 'cancelled' | 'changed' | null {
  const e = row.event;
  if (input.status === 'cancelled') return 'cancelled';
  const differs = <T>(given: T | undefined, current: T) => given !== undefined && given !== current;
  if (next.startsAt.getTime() !== e.startsAt.getTime() || next.endsAt.getTime() !== e.endsAt.getTime())
    return 'changed';
  if (differs(input.venueName, e.venueName) || differs(input.address, e.address) || differs(input.placeId, e.placeId))
    return 'changed';
  if (input.meetingPoint !== undefined) {
    const given = input.meetingPoint;
    const current = row.meetingLng === null ? null : { lng: row.meetingLng, lat: row.meetingLat };
    const givenLocation = given?.location ? { lng: given.location.lng, lat: given.location.lat } : null;
    if ((given?.text ?? null) !== e.meetingPointText || JSON.stringify(givenLocation) !== JSON.stringify(current))
      return 'changed';
  }
  return null;
}

export async function updateEvent(ctx: MemberServiceContext, input: UpdateEventInput) {
  const viewer = viewerOf(ctx);
  const current = await visibleEvent(ctx.db, viewer, eq(events.id, input.id));
  if (!canManage(current, viewer)) throw new AppError('forbidden', "Only the event's organizers can change it.");
  const e = current.event;
  if (e.status === 'cancelled') throw new AppError('conflict', 'The event is cancelled; it can no longer be changed.');

  const startsAt = input.startsAt ? new Date(input.startsAt) : e.startsAt;
  const endsAt = input.endsAt ? new Date(input.endsAt) : e.endsAt;
  if (endsAt <= startsAt) throw new AppError('validation_failed', 'endsAt: Must be after startsAt.');
  if (input.visibility === 'grove' && !e.hostGroveId)
    throw new AppError('validation_failed', 'visibility: `grove` visibility needs a grove host.');
  await assertApprovedPlace(ctx, input.placeId);

  const { id, startsAt: _s, endsAt: _e, meetingPoint, scope: _scope, ...rest } = input;
  // An occurrence edited on its own leaves the series' rule: series-wide edits skip it (series.ts).
  const overridden = e.seriesId && input.status !== 'cancelled' ? { seriesOverridden: true } : {};
  // A new place brings its zone unless the same PATCH names one (the zone is otherwise kept: an
  // organizer's explicit choice is not overwritten by an edit of the meeting point).
  if (rest.timeZone === undefined && rest.placeId && rest.placeId !== e.placeId)
    rest.timeZone = await deriveEventTimeZone(ctx.db, { placeId: rest.placeId });
  // Making the point RSVP-only turns approval on unless the same PATCH says otherwise.
  if (rest.meetingPointVisibility === 'rsvp' && e.meetingPointVisibility !== 'rsvp' && rest.rsvpApproval === undefined)
    rest.rsvpApproval = true;
  // The check above read the row without a lock: a cancel may commit between that read and this
  // write. The condition is re-checked on the newest row version (PostgreSQL re-evaluates an
  // UPDATE's WHERE after waiting for a concurrent writer), so a cancelled event is never edited
  // or un-cancelled, whichever PATCH commits first.
  // A new cover is attached with the change; the one it replaces is released (its URL answers 404).
  // Only a change of cover locks the row first, to know for sure which cover it replaces.
  const { attached, dropped } = await ctx.db.transaction(async (tx) => {
    let attached: string[] = [];
    let before: string | null = null;
    if (rest.coverImage !== undefined) {
      const [locked] = await tx
        .select({ coverImage: events.coverImage })
        .from(events)
        .where(eq(events.id, id))
        .for('update');
      before = locked?.coverImage ?? null;
      attached = await attachImageRefs(ctx, [rest.coverImage], 'event', {
        executor: tx,
        field: 'coverImage',
        keep: [before],
      });
    }
    const changed = await tx
      .update(events)
      .set({
        ...rest,
        ...overridden,
        startsAt,
        endsAt,
        ...meetingPointColumns(meetingPoint),
        updatedAt: ctx.clock.now(),
      })
      .where(and(eq(events.id, id), ne(events.status, 'cancelled')))
      .returning({ coverImage: events.coverImage });
    if (changed.length === 0) throw new AppError('conflict', 'The event was cancelled; it can no longer be changed.');
    // A raised (or removed) capacity seats waiting members in order; a lowered one demotes nobody.
    // The UPDATE above holds the event's seat lock (waitlist.ts) until this transaction ends.
    if (rest.capacity !== undefined) await promoteWaitlist(ctx.database, tx, id, ctx.clock.now());
    // Members going are told of a cancellation or a new time or place (server/domains/events/event-update-pushes.ts).
    const pushWorthy = pushWorthyChange(current, input, { startsAt, endsAt });
    if (pushWorthy) {
      const now = ctx.clock.now();
      await tx.insert(pushOutbox).values({
        kind: 'eventUpdate',
        subjectId: id,
        change: pushWorthy,
        actorId: ctx.user.id,
        notBefore: now,
        createdAt: now,
      });
    }
    await notifyEventChange(ctx, tx, {
      eventId: id,
      wasPublished: publishedState(e),
      isPublished: publishedState({ visibility: rest.visibility ?? e.visibility, status: rest.status ?? e.status }),
    });
    return { attached, dropped: droppedImageRefs([before], [changed[0]!.coverImage]) };
  });
  await afterImagesAttached(ctx, attached);
  // Occurrences of a series share their cover: it goes only when none uses it any more.
  await releaseImages(ctx, await unusedCovers(ctx.db, dropped));
  return toEvent((await selectOneEvent(ctx.db, viewer, eq(events.id, id)))!, viewer, ctx.config);
}
