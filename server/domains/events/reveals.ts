// The reveal log: who was ever served an event's RSVP-only exact meeting point. An RSVP can be
// withdrawn and a grove left, so the attendee list alone cannot tell organizers who knows where
// they meet; this log can. A row is written (once per member and event) in the same request that
// serves the point to anyone who does not organize the event, site admins included. Rows go with
// the event's RSVP rows (30 days after it ends, server/domains/events/rsvp-sweep.ts) and with the account.
import { and, asc, eq, sql } from 'drizzle-orm';
import { eventReveals, eventRsvps, events, users } from '../../../db/schema/index.js';
import type { DbOrTx } from '../../../db/client.js';
import type { Database } from '../../../db/client.js';
import { afterCursor, toPage } from '../../lib/pagination.js';
import { newId } from '../../../db/ids.js';
import type { EventOutput } from './schemas.js';
import { assertOrganizesEvent } from './rsvp.js';
import { organizesHost } from './visibility.js';
import type { MemberServiceContext } from '../../service/context.js';

/** The served events whose RSVP-only meeting point went out in this response. */
function revealedIn(served: EventOutput[]): string[] {
  return served.filter((e) => e.meetingPointVisibility === 'rsvp' && e.meetingPoint !== null).map((e) => e._id);
}

/**
 * Logs the reveals in `served` for `viewerId` (idempotent; the first time stays). Costs nothing
 * unless an RSVP-only point was actually served; organizers of an event are not logged for it.
 */
export async function recordReveals(
  database: Database,
  viewerId: string | null,
  served: EventOutput[],
  now: Date,
  executor?: DbOrTx,
): Promise<void> {
  if (!viewerId) return;
  const eventIds = revealedIn(served);
  if (eventIds.length === 0) return;
  const rows = sql.join(
    eventIds.map((id) => sql`(${newId()}::uuid, ${id}::uuid)`),
    sql`, `,
  );
  // Rows in event id order, whatever order the response served them in: two reads logging the
  // same events for the same member at once (the events list in id order, the calendar feed in
  // start order) then wait on the same first key instead of deadlocking.
  await database.rows(
    sql`
    insert into event_reveals (id, event_id, user_id, first_revealed_at)
    select v.id, ${events.id}, ${viewerId}::uuid, ${now.toISOString()}::timestamptz
    from (values ${rows}) as v(id, event_id)
    join events on ${events.id} = v.event_id
    where not ${organizesHost(viewerId)}
    order by ${events.id}
    on conflict (event_id, user_id) do nothing`,
    executor,
  );
}

/** Organizers of the event only (403 for others who can see it, 404 for the rest). */
export async function listReveals(ctx: MemberServiceContext, input: { id: string; cursor?: string; limit: number }) {
  await assertOrganizesEvent(ctx, input.id, 'who was shown the meeting point');
  const after = afterCursor(eventReveals.id, input.cursor);
  const rows = await ctx.db
    .select({
      id: eventReveals.id,
      handle: users.handle,
      firstRevealedAt: eventReveals.firstRevealedAt,
      rsvp: eventRsvps.status,
    })
    .from(eventReveals)
    .innerJoin(users, eq(users.id, eventReveals.userId))
    .leftJoin(eventRsvps, and(eq(eventRsvps.eventId, eventReveals.eventId), eq(eventRsvps.userId, eventReveals.userId)))
    .where(and(eq(eventReveals.eventId, input.id), after))
    .orderBy(asc(eventReveals.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (r) => r.id);
  return {
    items: page.items.map((r) => ({
      _id: r.id,
      handle: r.handle,
      firstRevealedAt: r.firstRevealedAt.toISOString(),
      rsvp: r.rsvp ?? null,
    })),
    nextCursor: page.nextCursor,
  };
}
