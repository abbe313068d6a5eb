// "Event attended" suggestions: events the caller RSVP'd `going` to (an approved RSVP, not a
// pending one), that have ended, or that have started and an organizer checked the caller in at
// (`checkedIn`, server/domains/event-announcements/attendance.ts), were not cancelled, that the
// caller may still see, and that are not in their log yet. They come from RSVP rows, so they last until the RSVP sweep (30 days
// after the event); a confirmed entry keeps its own copy of the title and date and outlives both.
import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { actionEntries, eventRsvps, events } from '../../../db/schema/index.js';
import { AppError } from '../../errors.js';
import { beforeCursor, toPage } from '../../lib/pagination.js';
import { visibleTo, type Viewer } from '../events/visibility.js';
import type { ActionSuggestionOutput } from './schemas.js';
import type { MemberServiceContext } from '../../service/context.js';

const suggestionColumns = {
  id: events.id,
  slug: events.slug,
  title: events.title,
  startsAt: events.startsAt,
  endsAt: events.endsAt,
  checkedIn: sql<boolean>`${eventRsvps.checkedInAt} is not null`,
};

type SuggestionRow = { id: string; slug: string; title: string; startsAt: Date; endsAt: Date; checkedIn: boolean };

const utcDate = (at: Date) => at.toISOString().slice(0, 10);

function toSuggestion(row: SuggestionRow): ActionSuggestionOutput {
  return {
    eventId: row.id,
    slug: row.slug,
    title: row.title,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    occurredOn: utcDate(row.startsAt),
    checkedIn: Boolean(row.checkedIn),
  };
}

/** Ended (or started and checked in), held, seen by the caller and RSVP'd `going` (approved) by them: all in SQL. */
function attendedBy(ctx: MemberServiceContext): SQL {
  const viewer: Viewer = { id: ctx.user.id, isSiteAdmin: ctx.user.role === 'admin' };
  return and(
    eq(eventRsvps.userId, ctx.user.id),
    eq(eventRsvps.status, 'going'),
    eq(eventRsvps.pending, false),
    // Still waiting for a seat when the event happened: not attended.
    isNull(eventRsvps.waitlistOrder),
    eq(events.status, 'scheduled'),
    sql`(${events.endsAt} <= ${ctx.clock.now().toISOString()}::timestamptz
      or (${eventRsvps.checkedInAt} is not null and ${events.startsAt} <= ${ctx.clock.now().toISOString()}::timestamptz))`,
    visibleTo(viewer),
  )!;
}

const notInLog = (ctx: MemberServiceContext) =>
  sql`not exists (select 1 from action_entries a where a.user_id = ${ctx.user.id} and a.event_id = ${events.id})`;

/** Newest event first (cursor over the event's `_id`). */
export async function listSuggestions(ctx: MemberServiceContext, input: { cursor?: string; limit: number }) {
  const before = beforeCursor(events.id, input.cursor);
  const rows = await ctx.db
    .select(suggestionColumns)
    .from(eventRsvps)
    .innerJoin(events, eq(events.id, eventRsvps.eventId))
    .where(and(attendedBy(ctx), notInLog(ctx), before))
    .orderBy(desc(events.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (row) => row.id);
  return { items: page.items.map(toSuggestion), nextCursor: page.nextCursor };
}

/**
 * The event a confirmation names, if it is one of the caller's suggestions: 409 when it is
 * already in the log; otherwise anything else (unknown, hidden, not RSVP'd, not over, cancelled,
 * RSVP swept) is the same 404, so the route tells nothing about events the caller cannot see.
 */
export async function confirmableEvent(
  ctx: MemberServiceContext,
  eventId: string,
): Promise<{ id: string; title: string; occurredOn: string }> {
  const [logged] = await ctx.db
    .select({ id: actionEntries.id })
    .from(actionEntries)
    .where(and(eq(actionEntries.userId, ctx.user.id), eq(actionEntries.eventId, eventId)))
    .limit(1);
  if (logged) throw new AppError('conflict', 'That event is already in your log.');
  const [row] = await ctx.db
    .select(suggestionColumns)
    .from(eventRsvps)
    .innerJoin(events, eq(events.id, eventRsvps.eventId))
    .where(and(eq(events.id, eventId), attendedBy(ctx)))
    .limit(1);
  if (!row) throw new AppError('not_found', "No ended event you RSVP'd going to has that id.");
  return { id: row.id, title: row.title, occurredOn: utcDate(row.startsAt) };
}
