// The public feeds' bodies: iCalendar by ical-generator (escaping, folding; VTIMEZONE from
// calendar-zones.ts as the private feed does) and Atom by `feed`. Both are deterministic for the
// same feed (DTSTAMP is the event's last change, not "now"; no METHOD, so DTSTAMP means that by
// RFC 5545 3.8.7.2), so an ETag over the body only changes when the content does.
//
// Feeds carry no translated text (subscribers' apps fetch them without a language): the feed
// title is the host's name and a cancelled Atom entry says so in the iCalendar STATUS word.
import { Feed } from 'feed';
import ical, { type ICalCalendar } from 'ical-generator';
import type { ServiceContext } from '../../service/context.js';
import { addEventsToCalendar } from './calendar-series.js';
import { calendarZone, vtimezoneBlock, wallClock } from './calendar-zones.js';
import { type FeedHost, type PublicFeed, type PublicFeedEvent, webEventUrl } from './public-feeds.js';

type WriterContext = Pick<ServiceContext, 'config'>;

const apiBase = (ctx: WriterContext) => ctx.config.PUBLIC_URL.replace(/\/$/, '');

/** The feed's own address (Atom `self`, and the ids), e.g. /api/groves/<slug>/events.atom. */
export function publicFeedPath(host: Pick<FeedHost, 'kind' | 'slug'>, format: 'ics' | 'atom'): string {
  const hosts = host.kind === 'grove' ? 'groves' : 'organizations';
  return `/api/${hosts}/${encodeURIComponent(host.slug)}/events.${format}`;
}

/** The public place of an event: venue, address and area (never a meeting point). */
function placeOf(e: PublicFeedEvent): string {
  return [e.venueName, e.address, e.area].filter((x): x is string => Boolean(x)).join(', ');
}

// ---- iCalendar ------------------------------------------------------------------------------

export function writePublicCalendar(ctx: WriterContext, feed: PublicFeed): string {
  const calendar = ical({
    prodId: { company: 'Community Activism Service', product: 'Public events', language: 'EN' },
    name: feed.host.name,
    description: feed.host.description || null,
    source: `${apiBase(ctx)}${publicFeedPath(feed.host, 'ics')}`,
    // Calendar apps poll no more often than the HTTP cache allows anyway.
    ttl: 60 * 60,
    timezone: { name: null, generator: vtimezoneBlock },
  });
  addPublicEvents(ctx, calendar, [...feed.events, ...feed.seriesSiblings]);
  return calendar.toString();
}

/**
 * Adds these events to this calendar, a recurring series as one VEVENT with RRULE/EXDATE plus its
 * occurrences edited on their own (calendar-series.ts, shared with the private feed).
 */
export function addPublicEvents(ctx: WriterContext, calendar: ICalCalendar, items: readonly PublicFeedEvent[]) {
  const ordered = [...items].sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || (a.id < b.id ? -1 : 1));
  addEventsToCalendar(
    calendar,
    ordered.map((e) => ({
      id: e.id,
      title: e.title,
      description: e.description,
      startsAt: e.startsAt,
      endsAt: e.endsAt,
      timeZone: e.timeZone,
      status: e.status,
      location: placeOf(e) || null,
      url: webEventUrl(ctx, e.slug),
      series: e.series,
      createdAt: e.createdAt,
      updatedAt: e.updatedAt,
    })),
    // The stamp of a series' VEVENT is its newest occurrence's change: the body stays deterministic.
    { base: apiBase(ctx), stamp: new Date(Math.max(0, ...items.map((e) => e.updatedAt.getTime()))) },
  );
}

// ---- Atom (RFC 4287) -------------------------------------------------------------------------

/** Characters XML 1.0 cannot carry at all (C0 controls but tab and newlines, U+FFFE/U+FFFF, lone surrogates). */
const XML_INVALID =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML cannot carry, matched to remove them.
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const xmlSafe = (text: string) => text.replace(XML_INVALID, '');

/**
 * `feed` writes entry titles and content as HTML in CDATA: every value is HTML-escaped first, so
 * a title is shown as the text it is (never markup) and can never close the CDATA section.
 */
const html = (text: string) =>
  xmlSafe(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `2026-06-01 18:00` in the event's own zone (language-neutral, like the rest of the feed). */
function localTime(instant: Date, zone: string | null): string {
  return (zone ? wallClock(instant, zone) : instant).toISOString().slice(0, 16).replace('T', ' ');
}

function entryContent(e: PublicFeedEvent): string {
  const zone = calendarZone(e.timeZone);
  const when = `${localTime(e.startsAt, zone)} – ${localTime(e.endsAt, zone)} (${zone ?? 'UTC'})`;
  const parts = [`<p>${html(when)}</p>`];
  const where = placeOf(e);
  if (where) parts.push(`<p>${html(where)}</p>`);
  for (const paragraph of e.description.split(/\n{2,}/).filter((p) => p.trim()))
    parts.push(`<p>${html(paragraph).replace(/\n/g, '<br>')}</p>`);
  return parts.join('');
}

export function writePublicAtom(ctx: WriterContext, feed: PublicFeed): string {
  const web = new URL(ctx.config.MAGIC_LINK_URL).origin;
  const hosts = feed.host.kind === 'grove' ? 'groves' : 'organizations';
  const self = `${apiBase(ctx)}${publicFeedPath(feed.host, 'atom')}`;
  const out = new Feed({
    id: self,
    title: xmlSafe(feed.host.name),
    description: xmlSafe(feed.host.description) || undefined,
    updated: feed.lastModified,
    generator: false,
    link: `${web}/app/${hosts}/${encodeURIComponent(feed.host.slug)}`,
    feedLinks: { atom: self },
    // RFC 4287 wants an author on the feed when entries have none: the host, never a member.
    author: { name: xmlSafe(feed.host.name) },
  });
  for (const e of feed.events) {
    const cancelled = e.status === 'cancelled';
    out.addItem({
      id: `urn:uuid:${e.id}`,
      title: html(cancelled ? `CANCELLED: ${e.title}` : e.title),
      link: webEventUrl(ctx, e.slug),
      date: e.updatedAt,
      published: e.createdAt,
      content: entryContent(e),
      category: [{ term: cancelled ? 'cancelled' : 'scheduled' }, { term: e.type }],
    });
  }
  return out.atom1();
}
