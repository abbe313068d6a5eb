// Public feeds of a grove's or organization's events (issue #26): what they list and the
// validators that make them cacheable. The writers are in public-feed-writers.ts, the routes in
// public-feeds-route.ts.
//
// A feed lists only `public` events of that host: the upcoming ones and those that ended in the
// last PAST_WINDOW_DAYS, oldest first, at most FEED_LIMIT. It reads its own narrow column list
// straight from `events`, so nothing private can reach a writer: no meeting point (not even one
// shown to everyone: a subscribed calendar keeps its copy after the point turns RSVP-only), no
// creator, no RSVPs or counts.
import { and, asc, eq, gte, inArray, lt, max, not } from 'drizzle-orm';
import { events, eventSeries, groves, organizations } from '../../../db/schema/index.js';
import type { ServiceContext } from '../../service/context.js';
import { DAY_MS } from '../../lib/clock.js';
import type { EventOutput } from './schemas.js';
import { FALLBACK_TIME_ZONE } from './time-zone.js';

export type FeedHostKind = 'grove' | 'organization';

/** How long an ended event stays in the feeds. */
export const PAST_WINDOW_DAYS = 30;
/** The most events one feed lists. */
export const FEED_LIMIT = 200;

export interface FeedHost {
  kind: FeedHostKind;
  id: string;
  slug: string;
  name: string;
  description: string;
  createdAt: Date;
}

/** An event as the public feeds see it: public columns only. */
export interface PublicFeedEvent {
  id: string;
  slug: string;
  title: string;
  type: string;
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
  status: 'scheduled' | 'cancelled';
  venueName: string | null;
  address: string | null;
  area: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
  series: EventOutput['series'];
}

export interface PublicFeed {
  host: FeedHost;
  events: PublicFeedEvent[];
  /**
   * The other public occurrences of the series listed in `events` (outside the window): the
   * iCalendar feed writes a series as one VEVENT with RRULE, and an occurrence it is not given
   * would become an EXDATE. A series has at most 100 occurrences (series-plan.ts).
   */
  seriesSiblings: PublicFeedEvent[];
  /** The newest change the feed shows (Last-Modified), whole seconds as HTTP dates carry them. */
  lastModified: Date;
}

/** Where people read an event: the web front end's event page (its origin is MAGIC_LINK_URL's). */
export function webEventUrl(ctx: Pick<ServiceContext, 'config'>, slug: string): string {
  return `${new URL(ctx.config.MAGIC_LINK_URL).origin}/app/events/${encodeURIComponent(slug)}`;
}

async function findHost(ctx: ServiceContext, kind: FeedHostKind, slug: string): Promise<FeedHost | null> {
  const table = kind === 'grove' ? groves : organizations;
  const [row] = await ctx.db
    .select({
      id: table.id,
      slug: table.slug,
      name: table.name,
      description: table.description,
      createdAt: table.createdAt,
    })
    .from(table)
    .where(eq(table.slug, slug.toLowerCase()))
    .limit(1);
  return row ? { kind, ...row } : null;
}

/** The feed of the host with this slug, or null when there is no such grove or organization. */
export async function loadPublicFeed(
  ctx: ServiceContext,
  kind: FeedHostKind,
  slug: string,
): Promise<PublicFeed | null> {
  const host = await findHost(ctx, kind, slug);
  if (!host) return null;
  const hostColumn = kind === 'grove' ? events.hostGroveId : events.hostOrganizationId;
  const hosted = and(eq(hostColumn, host.id), eq(events.visibility, 'public'));
  const since = new Date(ctx.clock.now().getTime() - PAST_WINDOW_DAYS * DAY_MS);
  const columns = {
    id: events.id,
    slug: events.slug,
    title: events.title,
    type: events.type,
    startsAt: events.startsAt,
    endsAt: events.endsAt,
    timeZone: events.timeZone,
    status: events.status,
    venueName: events.venueName,
    address: events.address,
    area: events.area,
    description: events.description,
    createdAt: events.createdAt,
    updatedAt: events.updatedAt,
    occurrenceWall: events.occurrenceWall,
    seriesOverridden: events.seriesOverridden,
    seriesId: eventSeries.id,
    seriesRule: eventSeries.rule,
    seriesTimeZone: eventSeries.timeZone,
    seriesStart: eventSeries.startWall,
    seriesDuration: eventSeries.durationSeconds,
  };
  const rows = await ctx.db
    .select(columns)
    .from(events)
    .leftJoin(eventSeries, eq(eventSeries.id, events.seriesId))
    .where(and(hosted, gte(events.endsAt, since)))
    .orderBy(asc(events.startsAt), asc(events.id))
    .limit(FEED_LIMIT);
  const seriesIds = [...new Set(rows.flatMap((r) => (r.seriesId ? [r.seriesId] : [])))];
  const listed = rows.map((r) => r.id);
  const siblings =
    seriesIds.length === 0
      ? []
      : await ctx.db
          .select(columns)
          .from(events)
          .innerJoin(eventSeries, eq(eventSeries.id, events.seriesId))
          .where(and(hosted, inArray(events.seriesId, seriesIds), not(inArray(events.id, listed))))
          .orderBy(asc(events.startsAt), asc(events.id));
  // The feed also changes when an event leaves the window: the latest such moment counts as a
  // change, so If-Modified-Since does not keep a feed that has since dropped one.
  const [left] = await ctx.db
    .select({ endsAt: max(events.endsAt) })
    .from(events)
    .where(and(hosted, lt(events.endsAt, since)));
  const leftAt = left?.endsAt ? new Date(new Date(left.endsAt).getTime() + PAST_WINDOW_DAYS * DAY_MS) : null;
  const feedEvents = rows.map(toFeedEvent);
  const seriesSiblings = siblings.map(toFeedEvent);
  const newest = Math.max(
    host.createdAt.getTime(),
    leftAt?.getTime() ?? 0,
    ...[...feedEvents, ...seriesSiblings].map((e) => e.updatedAt.getTime()),
  );
  return { host, events: feedEvents, seriesSiblings, lastModified: new Date(Math.floor(newest / 1000) * 1000) };
}

interface FeedRow extends Omit<PublicFeedEvent, 'series' | 'timeZone'> {
  timeZone: string | null;
  occurrenceWall: string | null;
  seriesOverridden: boolean;
  seriesId: string | null;
  seriesRule: string | null;
  seriesTimeZone: string | null;
  seriesStart: string | null;
  seriesDuration: number | null;
}

function toFeedEvent(r: FeedRow): PublicFeedEvent {
  const { occurrenceWall, seriesOverridden, seriesId, seriesRule, seriesTimeZone, seriesStart, seriesDuration, ...e } =
    r;
  const series =
    seriesId && occurrenceWall
      ? {
          _id: seriesId,
          rule: seriesRule!,
          timeZone: seriesTimeZone!,
          start: seriesStart!,
          durationSeconds: seriesDuration!,
          occurrence: occurrenceWall,
          overridden: seriesOverridden,
        }
      : null;
  return { ...e, timeZone: e.timeZone ?? FALLBACK_TIME_ZONE, series };
}
