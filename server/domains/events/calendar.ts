// Private iCalendar feed of the events a member RSVP'd to. It is addressed by its own secret
// token (never the session token), so calendar apps can subscribe without signing in; only the
// SHA-256 of the token is stored. Creating a token again rotates it (the old URL stops working);
// deleting revokes it.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { calendarFeeds, eventRsvps, events, users } from '../../../db/schema/index.js';
import { generateSecretToken, hashSecretToken, looksLikeSecretToken } from '../../auth/tokens.js';
import type { Context } from '../../trpc/context.js';
import type { MemberContext } from '../groves/common.js';
import { recordReveals } from './reveals.js';
import { selectEvents, toEvent, type EventRow } from './view.js';
import { visibleTo, type Viewer } from './visibility.js';
import type { EventOutput } from './schemas.js';

/** The most events one feed lists (latest starts first is not needed by calendar apps). */
const FEED_LIMIT = 500;

export function feedUrl(ctx: Context, token: string): string {
  return `${ctx.config.PUBLIC_URL.replace(/\/$/, '')}/api/calendar/${token}.ics`;
}

export async function createCalendarToken(ctx: MemberContext) {
  const token = generateSecretToken();
  const now = ctx.clock.now();
  await ctx.db
    .insert(calendarFeeds)
    .values({ userId: ctx.user.id, tokenHash: hashSecretToken(token), createdAt: now })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { tokenHash: hashSecretToken(token), createdAt: now } });
  return { url: feedUrl(ctx, token), createdAt: now.toISOString() };
}

export async function revokeCalendarToken(ctx: MemberContext): Promise<{ ok: true }> {
  await ctx.db.delete(calendarFeeds).where(eq(calendarFeeds.userId, ctx.user.id));
  return { ok: true };
}

/** The feed body for a token, or null when the token is unknown or revoked. */
export async function calendarFeed(ctx: Context, token: string): Promise<string | null> {
  if (!looksLikeSecretToken(token)) return null;
  const [owner] = await ctx.db
    .select({ id: users.id, role: users.role })
    .from(calendarFeeds)
    .innerJoin(users, eq(users.id, calendarFeeds.userId))
    .where(eq(calendarFeeds.tokenHash, hashSecretToken(token)))
    .limit(1);
  if (!owner) return null;
  const viewer: Viewer = { id: owner.id, isSiteAdmin: owner.role === 'admin' };
  const rsvpd = ctx.db.select({ id: eventRsvps.eventId }).from(eventRsvps).where(eq(eventRsvps.userId, owner.id));
  const rows = (await selectEvents(ctx.db, viewer)
    .where(and(inArray(events.id, rsvpd), visibleTo(viewer)))
    .orderBy(asc(events.startsAt))
    .limit(FEED_LIMIT)) as EventRow[];
  const served = rows.map((r) => toEvent(r, viewer));
  // The feed carries RSVP-only meeting points too: it writes the reveal log like the API does.
  await recordReveals(ctx.database, owner.id, served, ctx.clock.now());
  return renderCalendar(ctx, served);
}

// ---- RFC 5545 -------------------------------------------------------------------------------

function escapeText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** Lines longer than 75 octets are folded: CRLF + one space. */
function fold(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  for (const char of line) {
    if (Buffer.byteLength(current + char, 'utf8') > (parts.length ? 74 : 75)) {
      parts.push(current);
      current = '';
    }
    current += char;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

function icsDate(iso: string): string {
  return iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

function renderCalendar(ctx: Context, items: EventOutput[]): string {
  const stamp = icsDate(ctx.clock.now().toISOString());
  const base = ctx.config.PUBLIC_URL.replace(/\/$/, '');
  const host = new URL(base).host;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Community Activism Service//Events//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'X-WR-CALNAME:My events',
  ];
  for (const e of items) {
    const where = [e.meetingPoint?.text, e.venueName, e.address, e.area]
      .filter((x): x is string => Boolean(x))
      .join(', ');
    lines.push(
      'BEGIN:VEVENT',
      `UID:${e._id}@${host}`,
      `DTSTAMP:${stamp}`,
      `DTSTART:${icsDate(e.startsAt)}`,
      `DTEND:${icsDate(e.endsAt)}`,
      `SUMMARY:${escapeText(e.title)}`,
      `STATUS:${e.status === 'cancelled' ? 'CANCELLED' : e.myRsvp === 'going' ? 'CONFIRMED' : 'TENTATIVE'}`,
      `LOCATION:${escapeText(where)}`,
      `DESCRIPTION:${escapeText(e.description)}`,
      `URL:${base}/api/events/${e.slug}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
