// The one SELECT that turns event rows into API events for a given viewer: host, RSVP counts,
// the viewer's own RSVP, whether they may manage it, and the meeting point only when allowed.
import { eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { events, groves, type Event } from '../../../db/schema/index.js';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../../db/client.js';
import type { Config } from '../../config.js';
import { imageRefUrl } from '../uploads/image-refs.js';
import { type ImageDetails, imageDetailsColumn, imageOutputFor } from '../uploads/image-output.js';
import type { EventOutput } from './schemas.js';
import { type EventRowSeries, seriesOf } from './series-view.js';
import { guestCounts } from './guest-seats.js';
import { FALLBACK_TIME_ZONE } from './time-zone.js';
import { organizesHost, type Viewer } from './visibility.js';

type RsvpStatus = 'going' | 'interested';

export function eventColumns(viewer: Viewer) {
  return {
    event: events,
    groveSlug: groves.slug,
    groveName: groves.name,
    // The host organization and the series by correlated lookups, not joins: as joins the
    // generic plan hashed the whole organizations and event_series tables for every page
    // (its estimate of the page's rows is a guess), a cost that grows with those tables.
    organizationSlug: sql<
      string | null
    >`(select o.slug from organizations o where o.id = ${events.hostOrganizationId})`,
    organizationName: sql<
      string | null
    >`(select o.name from organizations o where o.id = ${events.hostOrganizationId})`,
    meetingLng: sql<number | null>`st_x(${events.meetingPointLocation})`,
    meetingLat: sql<number | null>`st_y(${events.meetingPointLocation})`,
    // Every count of the event's RSVPs in one pass over them (one subplan per row of the page,
    // not four): [going, waitlisted, seated, interested]. Public counts leave out RSVPs still
    // waiting for an organizer's approval; seats count them (they hold theirs until declined).
    rsvpCounts: sql<number[]>`(select array[
        count(*) filter (where r.status = 'going' and not r.pending and r.waitlist_order is null),
        count(*) filter (where r.waitlist_order is not null and not r.pending),
        count(*) filter (where r.status = 'going' and r.waitlist_order is null),
        count(*) filter (where r.status = 'interested' and not r.pending)]::int[]
      from event_rsvps r where r.event_id = ${events.id})`,
    guestCounts: guestCounts(sql`${events.id}`),
    // The viewer's own RSVP as [status, pending, waitlist position or null], or null: one lookup.
    mine: viewer.id
      ? sql<[RsvpStatus, boolean, number | null] | null>`(select json_build_array(r.status, r.pending,
          case when r.waitlist_order is null then null
               else (select count(*)::int from event_rsvps w where w.event_id = r.event_id and w.waitlist_order <= r.waitlist_order) end)
          from event_rsvps r where r.event_id = ${events.id} and r.user_id = ${viewer.id})`
      : sql<null>`null::json`,
    organizes: organizesHost(viewer.id),
    coverImageDetails: imageDetailsColumn(events.coverImage),
    series: sql<EventRowSeries | null>`(select json_build_object('id', s.id, 'rule', s.rule, 'timeZone', s.time_zone,
        'startWall', s.start_wall, 'durationSeconds', s.duration_seconds)
      from event_series s where s.id = ${events.seriesId})`,
  };
}

export type EventRow = {
  event: Event;
  groveSlug: string | null;
  groveName: string | null;
  organizationSlug: string | null;
  organizationName: string | null;
  meetingLng: number | null;
  meetingLat: number | null;
  /** [going, waitlisted, seated, interested] of the members' RSVPs. */
  rsvpCounts: number[];
  /** [going, interested, seated] of the confirmed guests (guest-seats.ts). */
  guestCounts: number[] | null;
  /** The viewer's RSVP: [status, pending, waitlist position or null]. */
  mine: [RsvpStatus, boolean, number | null] | null;
  organizes: boolean;
  coverImageDetails: ImageDetails | null;
  series: EventRowSeries | null;
};

/**
 * eventColumns flattened for a statement whose rows come back as value arrays (the events list,
 * list-query.ts): the event's own columns, then the rest, mapped by eventRowFromValues instead of
 * Drizzle's generic row mapping (~0.1 ms of a 21-row page, bench/README.md). The raw
 * meeting-point geometry is left out: the page carries its coordinates (meetingLng/meetingLat).
 */
export function eventValueColumns(viewer: Viewer) {
  const { event: _event, ...derived } = eventColumns(viewer);
  const { meetingPointLocation: _geometry, ...own } = getTableColumns(events);
  return { ...own, ...derived };
}

/** Where each eventValueColumns field sits in a value row (Drizzle selects them in key order). */
const at = Object.fromEntries(
  Object.keys(eventValueColumns({ id: null, isSiteAdmin: false })).map((key, i) => [key, i]),
) as Record<keyof ReturnType<typeof eventValueColumns>, number>;

/** Both drivers leave timestamps as PostgreSQL's text under Drizzle ("2026-05-01 10:00:00.123+00"). */
const asDate = (value: unknown) => (value instanceof Date ? value : new Date(value as string));

/** One value row of eventValueColumns as the EventRow that selectEvents would have answered. */
export function eventRowFromValues(r: unknown[]): EventRow {
  const meetingLng = r[at.meetingLng] as number | null;
  const meetingLat = r[at.meetingLat] as number | null;
  return {
    event: {
      id: r[at.id] as string,
      slug: r[at.slug] as string,
      title: r[at.title] as string,
      type: r[at.type] as Event['type'],
      startsAt: asDate(r[at.startsAt]),
      endsAt: asDate(r[at.endsAt]),
      hostGroveId: r[at.hostGroveId] as string | null,
      hostOrganizationId: r[at.hostOrganizationId] as string | null,
      creatorId: r[at.creatorId] as string | null,
      venueName: r[at.venueName] as string | null,
      address: r[at.address] as string | null,
      area: r[at.area] as string,
      meetingPointText: r[at.meetingPointText] as string | null,
      meetingPointLocation:
        meetingLng === null || meetingLat === null ? null : [Number(meetingLng), Number(meetingLat)],
      meetingPointVisibility: r[at.meetingPointVisibility] as Event['meetingPointVisibility'],
      rsvpApproval: r[at.rsvpApproval] as boolean,
      placeId: r[at.placeId] as string | null,
      coverImage: r[at.coverImage] as string | null,
      description: r[at.description] as string,
      visibility: r[at.visibility] as Event['visibility'],
      status: r[at.status] as Event['status'],
      capacity: r[at.capacity] as number | null,
      timeZone: r[at.timeZone] as string | null,
      seriesId: r[at.seriesId] as string | null,
      occurrenceWall: r[at.occurrenceWall] as string | null,
      seriesOverridden: r[at.seriesOverridden] as boolean,
      createdAt: asDate(r[at.createdAt]),
      updatedAt: asDate(r[at.updatedAt]),
    },
    groveSlug: r[at.groveSlug] as string | null,
    groveName: r[at.groveName] as string | null,
    organizationSlug: r[at.organizationSlug] as string | null,
    organizationName: r[at.organizationName] as string | null,
    meetingLng,
    meetingLat,
    rsvpCounts: r[at.rsvpCounts] as number[],
    guestCounts: r[at.guestCounts] as number[] | null,
    mine: r[at.mine] as EventRow['mine'],
    organizes: r[at.organizes] as boolean,
    coverImageDetails: r[at.coverImageDetails] as ImageDetails | null,
    series: r[at.series] as EventRowSeries | null,
  };
}

/** Events joined with their host, for the given viewer; add where/order/limit. */
export function selectEvents(db: DbOrTx, viewer: Viewer) {
  return selectWithHost(db, eventColumns(viewer));
}

/** `columns` over events joined with their hosting grove (eventColumns or eventValueColumns). */
export function selectWithHost<T extends SelectedFields>(db: DbOrTx, columns: T) {
  return db.select(columns).from(events).leftJoin(groves, eq(groves.id, events.hostGroveId));
}

export async function selectOneEvent(
  db: DbOrTx,
  viewer: Viewer,
  where: SQL | undefined,
): Promise<EventRow | undefined> {
  const [row] = await selectEvents(db, viewer).where(where).limit(1);
  return row as EventRow | undefined;
}

/** The viewer's RSVP on a row: status, whether it waits for approval, waitlist position. */
function viewerRsvp(row: EventRow) {
  const mine = row.mine;
  return {
    status: mine?.[0] ?? null,
    pending: mine?.[1] === true,
    waitlistPosition: mine?.[2] ?? null,
  };
}

export function canManage(row: EventRow, viewer: Viewer): boolean {
  return viewer.isSiteAdmin || Boolean(row.organizes);
}

/**
 * Who gets the exact meeting point: everyone when it is not RSVP-only; otherwise members with an
 * RSVP (an approved one when the event approves RSVPs), the event's organizers and site admins.
 */
export function meetingPointAllowed(row: EventRow, viewer: Viewer): boolean {
  if (row.event.meetingPointVisibility === 'everyone' || canManage(row, viewer)) return true;
  const mine = viewerRsvp(row);
  return mine.status !== null && !mine.pending && mine.waitlistPosition === null;
}

export function toEvent(row: EventRow, viewer: Viewer, config: Pick<Config, 'PUBLIC_URL'>): EventOutput {
  const e = row.event;
  const manage = canManage(row, viewer);
  const hasPoint = e.meetingPointText !== null;
  const pointAllowed = meetingPointAllowed(row, viewer);
  const mine = viewerRsvp(row);
  const [going = 0, waitlisted = 0, seated = 0, interested = 0] = row.rsvpCounts ?? [];
  const [guestsGoing = 0, guestsInterested = 0, guestSeats = 0] = row.guestCounts ?? [];
  const host = e.hostGroveId
    ? { kind: 'grove' as const, _id: e.hostGroveId, slug: row.groveSlug!, name: row.groveName! }
    : {
        kind: 'organization' as const,
        _id: e.hostOrganizationId!,
        slug: row.organizationSlug!,
        name: row.organizationName!,
      };
  return {
    _id: e.id,
    slug: e.slug,
    title: e.title,
    type: e.type,
    startsAt: e.startsAt.toISOString(),
    endsAt: e.endsAt.toISOString(),
    // Null only until the backfill job reaches a row older than the column.
    timeZone: e.timeZone ?? FALLBACK_TIME_ZONE,
    status: e.status,
    visibility: e.visibility,
    host,
    venueName: e.venueName,
    address: e.address,
    area: e.area,
    meetingPointVisibility: e.meetingPointVisibility,
    meetingPoint:
      hasPoint && pointAllowed
        ? {
            text: e.meetingPointText!,
            location:
              row.meetingLng === null || row.meetingLat === null
                ? null
                : { lng: Number(row.meetingLng), lat: Number(row.meetingLat) },
          }
        : null,
    meetingPointHidden: hasPoint && !pointAllowed,
    placeId: e.placeId,
    coverImage: e.coverImage,
    coverImageUrl: imageRefUrl(config, e.coverImage),
    coverImageDetails: imageOutputFor(config, e.coverImage, row.coverImageDetails ?? undefined),
    description: e.description,
    rsvpCounts: { going: going + guestsGoing, interested: interested + guestsInterested, waitlisted },
    capacity: e.capacity,
    seatsLeft: e.capacity === null ? null : Math.max(0, e.capacity - seated - guestSeats),
    myRsvp: mine.status === null ? null : mine.waitlistPosition !== null ? 'waitlisted' : mine.status,
    myWaitlistPosition: mine.waitlistPosition,
    myRsvpPending: mine.status !== null && mine.pending,
    rsvpApproval: e.rsvpApproval,
    canManage: manage,
    series: seriesOf(row),
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}
