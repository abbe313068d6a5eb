// GET /api/calendar/{token}.ics: the one non-JSON route of this domain, a raw Hono route
// (trpc-to-openapi only speaks JSON). Mounted by server/app.ts before the REST adapter;
// documentCalendarFeed adds it to the OpenAPI document. Unknown or revoked tokens answer 404.
import type { Env, Hono, Context as HonoContext } from 'hono';
import type { OpenAPIObject } from 'trpc-to-openapi';
import { AppError } from '../../errors.js';
import { errorResponse } from '../../http/rest.js';
import type { Context } from '../../trpc/context.js';
import { calendarFeed } from './calendar.js';

export function mountCalendarFeed<E extends Env>(app: Hono<E>, contextFor: (c: HonoContext<E>) => Context) {
  app.get('/api/calendar/:file', async (c) => {
    const match = /^([a-z2-7]{52})\.ics$/.exec(c.req.param('file'));
    const body = match ? await calendarFeed(contextFor(c), match[1]!) : null;
    if (body === null) return errorResponse(new AppError('not_found', 'No such calendar feed.'));
    return c.body(body, 200, {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Cache-Control': 'private, max-age=300',
    });
  });
}

/** Adds the feed route to the OpenAPI document (call before the docs page is rendered). */
export function documentCalendarFeed(doc: OpenAPIObject) {
  doc.paths ??= {};
  doc.paths['/api/calendar/{token}.ics'] = {
    get: {
      operationId: 'events-calendarFeed',
      tags: ['events'],
      summary: 'Private iCalendar feed (text/calendar)',
      description:
        "The events the feed's owner RSVP'd to (and may still see), cancelled ones marked CANCELLED. Each occurrence of a recurring series the owner RSVP'd to is a VEVENT of its own (RSVPs belong to occurrences), not the whole series. The token comes from POST /api/me/calendar-token; it is a secret of its own, not the session token, and no Authorization header is needed. 404 once rotated or revoked.",
      security: [],
      parameters: [
        { name: 'token', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z2-7]{52}$' } },
      ],
      responses: {
        '200': { description: 'iCalendar (RFC 5545).', content: { 'text/calendar': { schema: { type: 'string' } } } },
        '404': {
          description: 'Unknown, rotated or revoked token.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
        },
        '503': {
          description: 'Temporarily unavailable: `unavailable`.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
        },
      },
      'x-auth': 'public',
    } as never,
  };
}
