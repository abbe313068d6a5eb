// Check-in (issue #26): an organizer marks a member who RSVP'd `going` (approved, seated) as
// attended, from CHECK_IN_OPENS_MINUTES before the start on, until the RSVP is swept (30 days
// after the event). The flag is the RSVP row's `checked_in_at`, so it goes with the RSVP.
//
// A checked-in member's "event attended" suggestion counts as soon as they are checked in
// (server/domains/actions/suggestions.ts reads the flag). A member who opted in
// (`autoLogAttendance`, off by default: the log is private and an automatic entry is their
// choice) gets the entry itself, in the check-in's transaction: once (the log's unique index
// per member and event), marked `from_check_in`, and removed again when the organizer undoes the
// check-in. An entry the member logged themselves is never touched.
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { newId } from '../../../db/ids.js';
import { attendanceSettings, events } from '../../../db/schema/index.js';
import { AppError } from '../../errors.js';
import type { MemberServiceContext } from '../../service/context.js';
import { countEntry, uncountEntry } from '../actions/aggregates.js';
import { rsvpMemberSeesEvent } from '../events/event-reminders.js';
import { visibleEvent } from '../events/service.js';
import { viewerOf } from '../events/visibility.js';
import { CHECK_IN_OPENS_MINUTES } from './schemas.js';

const MINUTE_MS = 60_000;

/**
 * The event's organizers (403 for others who can see it, 404 for the rest). 404 for a handle
 * without an approved, seated `going` RSVP, unknown handles included, with the same message: the
 * route tells nothing about who exists. 409 for a cancelled event or before check-in opens.
 */
export async function setAttendance(
  ctx: MemberServiceContext,
  input: { id: string; handle: string; attended: boolean },
) {
  const row = await visibleEvent(ctx.db, viewerOf(ctx), eq(events.id, input.id));
  if (!row.organizes) throw new AppError('forbidden', "Only the event's organizers check members in.");
  if (row.event.status === 'cancelled') throw new AppError('conflict', 'The event is cancelled.');
  const now = ctx.clock.now();
  if (now.getTime() < new Date(row.event.startsAt).getTime() - CHECK_IN_OPENS_MINUTES * MINUTE_MS)
    throw new AppError('conflict', `Check-in opens ${CHECK_IN_OPENS_MINUTES} minutes before the event starts.`);
  const at = now.toISOString();
  return ctx.withTransaction(async ({ tx }) => {
    const [marked] = await ctx.database.rows<{ user_id: string; handle: string; checked_in_at: Date | string | null }>(
      sql`update event_rsvps r
          set checked_in_at = ${input.attended ? sql`coalesce(r.checked_in_at, ${at}::timestamptz)` : sql`null`}
          from users u
          where u.id = r.user_id and u.handle = ${input.handle.toLowerCase()}
            and r.event_id = ${input.id}::uuid and r.status = 'going' and not r.pending and r.waitlist_order is null
          returning r.user_id, u.handle, r.checked_in_at`,
      tx,
    );
    if (!marked) throw new AppError('not_found', 'No member going to this event has that handle.');
    if (input.attended) await autoLog(ctx, tx, input.id, marked.user_id, now);
    else await unlog(ctx, tx, input.id, marked.user_id, now);
    return {
      handle: marked.handle,
      attended: marked.checked_in_at !== null,
      checkedInAt: marked.checked_in_at === null ? null : new Date(marked.checked_in_at).toISOString(),
    };
  });
}

/** The entry for a member who opted in and can still see the event; nothing when one is there already. */
async function autoLog(ctx: MemberServiceContext, tx: Tx, eventId: string, userId: string, now: Date) {
  const inserted = await ctx.database.rows<{ id: string }>(
    sql`insert into action_entries (id, user_id, kind, occurred_on, event_id, event_title, from_check_in, created_at)
        select ${newId()}::uuid, r.user_id, 'event_attended', (e.starts_at at time zone 'UTC')::date, e.id, e.title, true,
               ${now.toISOString()}::timestamptz
        from event_rsvps r join events e on e.id = r.event_id
        join attendance_settings s on s.user_id = r.user_id and s.auto_log_attendance
        where r.event_id = ${eventId}::uuid and r.user_id = ${userId}::uuid and ${rsvpMemberSeesEvent}
        on conflict (user_id, event_id) where event_id is not null do nothing
        returning id`,
    tx,
  );
  if (inserted.length > 0) await countEntry(tx, userId, 0, now);
}

/** Undoing a check-in removes only the entry the check-in made. */
async function unlog(ctx: MemberServiceContext, tx: Tx, eventId: string, userId: string, now: Date) {
  const removed = await ctx.database.rows<{ id: string }>(
    sql`delete from action_entries
        where user_id = ${userId}::uuid and event_id = ${eventId}::uuid and from_check_in
        returning id`,
    tx,
  );
  if (removed.length > 0) await uncountEntry(tx, userId, 0, now);
}

export async function getAttendanceSettings(ctx: MemberServiceContext) {
  const [row] = await ctx.db
    .select({ autoLogAttendance: attendanceSettings.autoLogAttendance })
    .from(attendanceSettings)
    .where(eq(attendanceSettings.userId, ctx.user.id));
  return { autoLogAttendance: row?.autoLogAttendance ?? false };
}

/** Applies to later check-ins only: entries already made stay, none is made for past check-ins. */
export async function updateAttendanceSettings(ctx: MemberServiceContext, input: { autoLogAttendance: boolean }) {
  const now = ctx.clock.now();
  await ctx.db
    .insert(attendanceSettings)
    .values({ userId: ctx.user.id, autoLogAttendance: input.autoLogAttendance, updatedAt: now })
    .onConflictDoUpdate({
      target: attendanceSettings.userId,
      set: { autoLogAttendance: input.autoLogAttendance, updatedAt: now },
    });
  return { autoLogAttendance: input.autoLogAttendance };
}
