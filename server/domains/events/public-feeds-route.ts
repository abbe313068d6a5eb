// GET /api/groves/{slug}/events.ics|.atom and /api/organizations/{slug}/events.ics|.atom: the
// public feeds (public-feeds.ts), raw Hono routes because they are not JSON (like the private
// calendar feed, calendar-route.ts), documented into the OpenAPI document by documentPublicFeeds.
// They read no session (the Authorization header is ignored): the answer is the same for
// everyone, so shared caches may keep it.
//
// Caching: a strong ETag over the body (the writers are deterministic) and Last-Modified from the
// newest change the feed shows; If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2).
import { createHash } from 'node:crypto';
import type { Env, Hono, Context as HonoContext } from 'hono';
import type { OpenAPIObject } from 'trpc-to-openapi';
import { AppError } from '../../errors.js';
import { errorResponse, routeErrorAnswer } from '../../http/rest.js';
import { SLUG_PATTERN } from '../../shared/schemas.js';
import type { Context } from '../../trpc/context.js';
import { writePublicAtom, writePublicCalendar } from './public-feed-writers.js';
import { type FeedHostKind, loadPublicFeed, PAST_WINDOW_DAYS, FEED_LIMIT, type PublicFeed } from './public-feeds.js';

const CACHE_CONTROL = 'public, max-age=300';
const MAX_SLUG = 120;

const formats = {
  ics: { contentType: 'text/calendar; charset=utf-8', write: writePublicCalendar },
  atom: { contentType: 'application/atom+xml; charset=utf-8', write: writePublicAtom },
} as const;
type Format = keyof typeof formats;

const hostPaths: Record<FeedHostKind, string> = { grove: 'groves', organization: 'organizations' };

/** True when an If-None-Match header names this ETag (weak comparison, as GET uses; `*` matches). */
export function etagMatches(header: string, etag: string): boolean {
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === bare;
  });
}

/** 304 when the request's validators say the client's copy is current. */
function notModified(c: HonoContext, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = c.req.header('if-none-match');
  if (ifNoneMatch !== undefined) return etagMatches(ifNoneMatch, etag);
  const since = Date.parse(c.req.header('if-modified-since') ?? '');
  return !Number.isNaN(since) && lastModified.getTime() <= since;
}

function answer(c: HonoContext, format: Format, feed: PublicFeed, body: string): Response {
  const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
  const validators = {
    ETag: etag,
    'Last-Modified': feed.lastModified.toUTCString(),
    'Cache-Control': CACHE_CONTROL,
  };
  if (notModified(c, etag, feed.lastModified)) return c.body(null, 304, validators);
  return c.body(body, 200, { ...validators, 'Content-Type': formats[format].contentType });
}

export function mountPublicFeeds<E extends Env>(app: Hono<E>, contextFor: (c: HonoContext<E>) => Context) {
  for (const kind of ['grove', 'organization'] as const) {
    for (const format of ['ics', 'atom'] as const) {
      app.get(`/api/${hostPaths[kind]}/:slug/events.${format}`, async (c) => {
        const ctx = contextFor(c);
        try {
          const slug = c.req.param('slug');
          const feed =
            slug.length <= MAX_SLUG && SLUG_PATTERN.test(slug.toLowerCase())
              ? await loadPublicFeed(ctx, kind, slug)
              : null;
          if (!feed) return errorResponse(new AppError('not_found', `No such ${kind}.`));
          return answer(c, format, feed, formats[format].write(ctx, feed));
        } catch (cause) {
          return routeErrorAnswer(c, ctx, cause);
        }
      });
    }
  }
}

// ---- OpenAPI -----------------------------------------------------------------------------------

const envelope = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };
const validatorHeaders = {
  ETag: { description: 'Strong validator over the body; send it back in `If-None-Match`.', schema: { type: 'string' } },
  'Last-Modified': {
    description: 'The newest change the feed shows; send it back in `If-Modified-Since`.',
    schema: { type: 'string' },
  },
  'Cache-Control': { description: '`public, max-age=300`.', schema: { type: 'string' } },
};

const examples: Record<Format, string> = {
  ics: [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Community Activism Service//Public events//EN',
    'NAME:Riverside Grove',
    'X-WR-CALNAME:Riverside Grove',
    'BEGIN:VEVENT',
    'UID:0195f1c2-7d1e-7a3b-9c4d-5e6f7a8b9c0d@api.example.org',
    'SEQUENCE:0',
    'DTSTAMP:20260520T091500Z',
    'DTSTART;TZID=Europe/Berlin:20260601T180000',
    'DTEND;TZID=Europe/Berlin:20260601T200000',
    'SUMMARY:Candlelight vigil',
    'LOCATION:Town square\\, 1 High Street\\, Mitte',
    'STATUS:CONFIRMED',
    'END:VEVENT',
    'END:VCALENDAR',
  ].join('\r\n'),
  atom: [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    '    <id>https://api.example.org/api/groves/riverside/events.atom</id>',
    '    <title>Riverside Grove</title>',
    '    <updated>2026-05-20T09:15:00.000Z</updated>',
    '    <entry>',
    '        <title type="html"><![CDATA[CANCELLED: Candlelight vigil]]></title>',
    '        <id>urn:uuid:0195f1c2-7d1e-7a3b-9c4d-5e6f7a8b9c0d</id>',
    '        <category term="cancelled"/>',
    '    </entry>',
    '</feed>',
  ].join('\n'),
};

function describeFeed(kind: FeedHostKind, format: Format) {
  const what = format === 'ics' ? 'iCalendar (RFC 5545)' : 'Atom (RFC 4287)';
  const mediaType = format === 'ics' ? 'text/calendar' : 'application/atom+xml';
  const cancelled =
    format === 'ics'
      ? 'cancelled ones as `STATUS:CANCELLED`'
      : 'cancelled ones with the title prefix `CANCELLED: ` and `<category term="cancelled"/>` (scheduled ones `scheduled`)';
  return {
    operationId: `events-public${kind === 'grove' ? 'Grove' : 'Organization'}${format === 'ics' ? 'Calendar' : 'Atom'}`,
    tags: ['events'],
    summary: `Public ${format === 'ics' ? 'iCalendar' : 'Atom'} feed of a${kind === 'grove' ? ' grove' : 'n organization'}'s events (${mediaType})`,
    description: `The ${kind}'s \`public\` events only (never grove-only or friends-only ones): those not yet ended and those that ended in the last ${PAST_WINDOW_DAYS} days, by start time, at most ${FEED_LIMIT}; ${cancelled}. Each event carries its title, times (in its own zone), description, public place (venue, address, area) and a link to its page; never a meeting point, attendees, counts or who created it. No token: the Authorization header is ignored, and the answer is the same for every caller (\`Cache-Control: ${CACHE_CONTROL}\`). Conditional requests: \`If-None-Match\` with the ETag (it wins when both are sent) or \`If-Modified-Since\` answer 304 while the feed is unchanged. 404 for an unknown slug.`,
    security: [],
    parameters: [
      {
        name: 'slug',
        in: 'path',
        required: true,
        description: `The ${kind}'s slug.`,
        schema: { type: 'string', minLength: 1, maxLength: MAX_SLUG },
        example: 'riverside',
      },
      { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
      { name: 'If-Modified-Since', in: 'header', required: false, schema: { type: 'string' } },
    ],
    responses: {
      '200': {
        description: `${what}.`,
        headers: validatorHeaders,
        content: { [mediaType]: { schema: { type: 'string' }, example: examples[format] } },
      },
      '304': { description: 'Not modified: the copy named by the validators is current.', headers: validatorHeaders },
      '404': { description: `Not found: \`not_found\` (no ${kind} with that slug).`, content: envelope },
      '500': { description: 'Unexpected error: `internal_error`.', content: envelope },
      '503': {
        description: 'Temporarily unavailable: `unavailable`; retry after `Retry-After` seconds.',
        headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } },
        content: envelope,
      },
    },
    'x-auth': 'public',
  };
}

/** Adds the four feed routes to the OpenAPI document (call before the docs page is rendered). */
export function documentPublicFeeds(doc: OpenAPIObject) {
  doc.paths ??= {};
  for (const kind of ['grove', 'organization'] as const)
    for (const format of ['ics', 'atom'] as const)
      doc.paths[`/api/${hostPaths[kind]}/{slug}/events.${format}`] = { get: describeFeed(kind, format) as never };
}
