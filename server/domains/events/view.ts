// The one SELECT that turns event rows into API events for a given viewer: host, RSVP counts,
// the viewer's own RSVP, whether they may manage it, and the meeting point only when allowed.
import { eq, sql, type SQL } from 'drizzle-orm';
import { eventSeries, events, groves, organizations, type Event, type EventSeries } from '../../../db/schema/index.js';
import type { DbOrTx } from '../../../db/client.js';
import type { Config } from '../../config.js';
import { imageRefUrl } from '../uploads/image-refs.js';
import { type ImageDetails, imageDetailsColumn, imageOutputFor } from '../uploads/image-output.js';
import type { EventOutput } from './schemas.js';
import { seriesOf } from './series-view.js';
import { guestCount, guestSeats } from './guest-seats.js';
import { FALLBACK_TIME_ZONE } from './time-zone.js';
import { organizesHost, type Viewer } from './visibility.js';

type RsvpStatus = 'going' | 'interested';

export function eventColumns(viewer: Viewer) {
  return {
    event: events,
    groveSlug: groves.slug,
    groveName: groves.name,
    organizationSlug: organizations.slug,
    organizationName: organizations.name,
    meetingLng: sql<number | null>`st_x(${events.meetingPointLocation})`,
    meetingLat: sql<number | null>`st_y(${events.meetingPointLocation})`,
    // Public counts leave out RSVPs still waiting for an organizer's approval.
    going: sql<number>`(select count(*)::int from event_rsvps r where r.event_id = ${events.id} and r.status = 'going' and not r.pending and r.waitlist_order is null) + ${guestCount(sql`${events.id}`, 'going')}`,
    waitlisted: sql<number>`(select count(*)::int from event_rsvps r where r.event_id = ${events.id} and r.waitlist_order is not null and not r.pending)`,
    // Seats taken, pending RSVPs included (they hold theirs until declined); only with a capacity.
    seated: sql<number>`(case when ${events.capacity} is null then 0 else (select count(*)::int from event_rsvps r where r.event_id = ${events.id} and r.status = 'going' and r.waitlist_order is null) + ${guestSeats(sql`${events.id}`)} end)`,
    interested: sql<number>`(select count(*)::int from event_rsvps r where r.event_id = ${events.id} and r.status = 'interested' and not r.pending) + ${guestCount(sql`${events.id}`, 'interested')}`,
    myRsvp: viewer.id
      ? sql<RsvpStatus | null>`(select r.status from event_rsvps r where r.event_id = ${events.id} and r.user_id = ${viewer.id})`
      : sql<RsvpStatus | null>`null::text`,
    myWaitlistPosition: viewer.id
      ? sql<
          number | null
        >`(select (select count(*)::int from event_rsvps w where w.event_id = r.event_id and w.waitlist_order <= r.waitlist_order) from event_rsvps r where r.event_id = ${events.id} and r.user_id = ${viewer.id} and r.waitlist_order is not null)`
      : sql<number | null>`null::int`,
    myRsvpPending: viewer.id
      ? sql<boolean>`coalesce((select r.pending from event_rsvps r where r.event_id = ${events.id} and r.user_id = ${viewer.id}), false)`
      : sql<boolean>`false`,
    organizes: organizesHost(viewer.id),
    coverImageDetails: imageDetailsColumn(events.coverImage),
    series: eventSeries,
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
  going: number;
  waitlisted: number;
  seated: number;
  interested: number;
  myRsvp: RsvpStatus | null;
  myWaitlistPosition: number | null;
  myRsvpPending: boolean;
  organizes: boolean;
  coverImageDetails: ImageDetails | null;
  series: EventSeries | null;
};

/** Events joined with their host, for the given viewer; add where/order/limit. */
export function selectEvents(db: DbOrTx, viewer: Viewer) {
  return db
    .select(eventColumns(viewer))
    .from(events)
    .leftJoin(groves, eq(groves.id, events.hostGroveId))
    .leftJoin(organizations, eq(organizations.id, events.hostOrganizationId))
    .leftJoin(eventSeries, eq(eventSeries.id, events.seriesId));
}

export async function selectOneEvent(
  db: DbOrTx,
  viewer: Viewer,
  where: SQL | undefined,
): Promise<EventRow | undefined> {
  const [row] = await selectEvents(db, viewer).where(where).limit(1);
  return row as EventRow | undefined;
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
  return row.myRsvp !== null && !row.myRsvpPending && row.myWaitlistPosition === null;
}

export function toEvent(row: EventRow, viewer: Viewer, config: Pick<Config, 'PUBLIC_URL'>): EventOutput {
  const e = row.event;
  const manage = canManage(row, viewer);
  const hasPoint = e.meetingPointText !== null;
  const pointAllowed = meetingPointAllowed(row, viewer);
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
    rsvpCounts: { going: Number(row.going), interested: Number(row.interested), waitlisted: Number(row.waitlisted) },
    capacity: e.capacity,
    seatsLeft: e.capacity === null ? null : Math.max(0, e.capacity - Number(row.seated)),
    myRsvp: row.myRsvp === null ? null : row.myWaitlistPosition !== null ? 'waitlisted' : row.myRsvp,
    myWaitlistPosition: row.myWaitlistPosition === null ? null : Number(row.myWaitlistPosition),
    myRsvpPending: row.myRsvp !== null && Boolean(row.myRsvpPending),
    rsvpApproval: e.rsvpApproval,
    canManage: manage,
    series: seriesOf(row),
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}
