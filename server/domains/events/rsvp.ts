// RSVPs: going | interested, one per member and event; counts for everyone, handles for the
// event's organizers only (spec privacy rule 4; site admins included in "everyone else").
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { eventRsvps, events, users } from '../../../db/schema/index.js';
import { AppError } from '../../errors.js';
import { decodeCursor, toPage } from '../../lib/pagination.js';
import type { MemberContext } from '../../shared/context.js';
import { visibleEvent } from './service.js';
import { viewerOf } from './visibility.js';

type RsvpStatus = 'going' | 'interested';

async function rsvpState(ctx: MemberContext, eventId: string) {
  const [row] = await ctx.database.rows<{ going: number; interested: number; mine: RsvpStatus | null }>(sql`
    select count(*) filter (where status = 'going')::int as going,
           count(*) filter (where status = 'interested')::int as interested,
           max(case when user_id = ${ctx.user.id} then status end) as mine
    from event_rsvps where event_id = ${eventId}`);
  return {
    eventId,
    myRsvp: row?.mine ?? null,
    rsvpCounts: { going: Number(row?.going ?? 0), interested: Number(row?.interested ?? 0) },
  };
}

/** Sets or changes the caller's RSVP. Not on cancelled or already ended events (409). */
export async function setRsvp(ctx: MemberContext, input: { id: string; status: RsvpStatus }) {
  const viewer = await viewerOf(ctx);
  const { event } = await visibleEvent(ctx.db, viewer, eq(events.id, input.id));
  if (event.status === 'cancelled') throw new AppError('conflict', 'The event is cancelled.');
  const now = ctx.clock.now();
  if (event.endsAt <= now) throw new AppError('conflict', 'The event is over.');
  await ctx.db
    .insert(eventRsvps)
    .values({ eventId: input.id, userId: ctx.user.id, status: input.status, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [eventRsvps.eventId, eventRsvps.userId],
      set: { status: input.status, updatedAt: now },
    });
  return rsvpState(ctx, input.id);
}

/** Idempotent: removing an RSVP that does not exist is fine. */
export async function removeRsvp(ctx: MemberContext, input: { id: string }) {
  const viewer = await viewerOf(ctx);
  await visibleEvent(ctx.db, viewer, eq(events.id, input.id));
  await ctx.db.delete(eventRsvps).where(and(eq(eventRsvps.eventId, input.id), eq(eventRsvps.userId, ctx.user.id)));
  return rsvpState(ctx, input.id);
}

/** Handles for the event's organizers; 403 for others who can see the event, 404 for the rest. */
export async function listAttendees(ctx: MemberContext, input: { id: string; cursor?: string; limit: number }) {
  const viewer = await viewerOf(ctx);
  const row = await visibleEvent(ctx.db, viewer, eq(events.id, input.id));
  if (!row.organizes)
    throw new AppError('forbidden', "Only the event's organizers see attendee handles; everyone sees the counts.");
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
  const rows = await ctx.db
    .select({ id: eventRsvps.id, handle: users.handle, status: eventRsvps.status, respondedAt: eventRsvps.updatedAt })
    .from(eventRsvps)
    .innerJoin(users, eq(users.id, eventRsvps.userId))
    .where(and(eq(eventRsvps.eventId, input.id), after ? gt(eventRsvps.id, after) : undefined))
    .orderBy(asc(eventRsvps.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (r) => r.id);
  return {
    items: page.items.map((r) => ({
      _id: r.id,
      handle: r.handle,
      status: r.status,
      respondedAt: r.respondedAt.toISOString(),
    })),
    nextCursor: page.nextCursor,
  };
}
