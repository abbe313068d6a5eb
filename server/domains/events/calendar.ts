// Private iCalendar feed of the events a member RSVP'd to. It is addressed by its own secret
// token (never the session token), so calendar apps can subscribe without signing in; only the
// SHA-256 of the token is stored. The link lives CALENDAR_FEED_TTL_DAYS from its creation;
// creating it again rotates the secret and renews that time; deleting revokes it, and so do a
// password or email change, "sign out everywhere else" and panic (server/domains/me/service.ts).
// The feed is written by ical-generator (escaping, folding), never by string concatenation.
import { and, asc, eq, inArray } from 'drizzle-orm';
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { calendarFeeds, eventRsvps, events, users } from '../../../db/schema/index.js';
import { generateSecretToken, hashSecretToken, looksLikeSecretToken } from '../../auth/tokens.js';
import type { MemberServiceContext, ServiceContext } from '../../service/context.js';
import { recordReveals } from './reveals.js';
import { selectEvents, toEvent, type EventRow } from './view.js';
import { visibleTo, type Viewer } from './visibility.js';
import type { EventOutput } from './schemas.js';
import { DAY_MS } from '../../lib/clock.js';
import { vtimezoneBlock } from './calendar-zones.js';
import { addEventsToCalendar } from './calendar-series.js';

/** The most events one feed lists (latest starts first is not needed by calendar apps). */
const FEED_LIMIT = 500;

/** When a link created at `createdAt` stops working. */
export function calendarFeedExpiry(ctx: Pick<ServiceContext, 'config'>, createdAt: Date): Date {
  return new Date(createdAt.getTime() + ctx.config.CALENDAR_FEED_TTL_DAYS * DAY_MS);
}

export function feedUrl(ctx: ServiceContext, token: string): string {
  return `${ctx.config.PUBLIC_URL.replace(/\/$/, '')}/api/calendar/${token}.ics`;
}

export async function createCalendarToken(ctx: MemberServiceContext) {
  const token = generateSecretToken();
  const now = ctx.clock.now();
  await ctx.db
    .insert(calendarFeeds)
    .values({ userId: ctx.user.id, tokenHash: hashSecretToken(token), createdAt: now })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { tokenHash: hashSecretToken(token), createdAt: now } });
  return {
    url: feedUrl(ctx, token),
    createdAt: now.toISOString(),
    expiresAt: calendarFeedExpiry(ctx, now).toISOString(),
  };
}

export async function revokeCalendarToken(ctx: MemberServiceContext): Promise<{ ok: true }> {
  await ctx.db.delete(calendarFeeds).where(eq(calendarFeeds.userId, ctx.user.id));
  return { ok: true };
}

/** The feed body for a token, or null when the token is unknown or revoked. */
export async function calendarFeed(ctx: ServiceContext, token: string): Promise<string | null> {
  if (!looksLikeSecretToken(token)) return null;
  const [owner] = await ctx.db
    .select({ id: users.id, role: users.role, createdAt: calendarFeeds.createdAt })
    .from(calendarFeeds)
    .innerJoin(users, eq(users.id, calendarFeeds.userId))
    .where(eq(calendarFeeds.tokenHash, hashSecretToken(token)))
    .limit(1);
  if (!owner || calendarFeedExpiry(ctx, owner.createdAt) <= ctx.clock.now()) return null;
  const viewer: Viewer = { id: owner.id, isSiteAdmin: owner.role === 'admin' };
  const rsvpd = ctx.db.select({ id: eventRsvps.eventId }).from(eventRsvps).where(eq(eventRsvps.userId, owner.id));
  const rows = (await selectEvents(ctx.db, viewer)
    .where(and(inArray(events.id, rsvpd), visibleTo(viewer)))
    .orderBy(asc(events.startsAt))
    .limit(FEED_LIMIT)) as EventRow[];
  const served = rows.map((r) => toEvent(r, viewer, ctx.config));
  // The feed carries RSVP-only meeting points too: it writes the reveal log like the API does.
  await recordReveals(ctx.database, owner.id, served, ctx.clock.now());
  return renderCalendar(ctx, served);
}

// ---- RFC 5545 (ical-generator escapes text, including bare CR, and folds long lines) ---------

export function renderCalendar(ctx: Pick<ServiceContext, 'config' | 'clock'>, items: EventOutput[]): string {
  const calendar = ical({
    prodId: { company: 'Community Activism Service', product: 'Events', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    name: 'My events',
    // Each event in its own zone, with that zone's VTIMEZONE block (calendar-zones.ts).
    timezone: { name: null, generator: vtimezoneBlock },
  });
  // A member RSVPs per occurrence: the feed lists the occurrences they RSVP'd to, each a VEVENT
  // of its own (a series VEVENT would show occurrences they never said yes to).
  const base = ctx.config.PUBLIC_URL.replace(/\/$/, '');
  addEventsToCalendar(
    calendar,
    items.map((e) => ({
      id: e._id,
      title: e.title,
      description: e.description,
      startsAt: e.startsAt,
      endsAt: e.endsAt,
      timeZone: e.timeZone,
      status: e.status,
      // The member's own feed: the meeting point they may see comes first.
      location: [e.meetingPoint?.text, e.venueName, e.address, e.area].filter(Boolean).join(', ') || null,
      url: `${base}/api/events/${e.slug}`,
      series: e.series,
      scheduledStatus: e.myRsvp === 'going' ? ICalEventStatus.CONFIRMED : ICalEventStatus.TENTATIVE,
    })),
    { base, stamp: ctx.clock.now(), groupSeries: false },
  );
  return calendar.toString();
}
