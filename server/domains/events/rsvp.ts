// RSVPs: going | interested, one per member and event; counts for everyone, handles for the
// event's organizers only (spec privacy rule 4; site admins included in "everyone else"). A
// `going` RSVP to an event at its capacity waits on the waitlist (waitlist.ts).
//
// Setting, changing and withdrawing an RSVP are each ONE conditional statement: the event's
// state (visible to the caller, not cancelled, not over) is checked inside the INSERT/DELETE
// itself, so a concurrent cancel can never slip between a read and the write. Only when the
// statement touched nothing do we read again, to choose the error (404 or 409). The event row is
// read FOR SHARE: an uncommitted cancel makes the RSVP wait, and PostgreSQL then re-checks the
// condition on the cancelled row (409) instead of inserting under a stale snapshot. Before that
// statement each write takes the event's seat lock (FOR NO KEY UPDATE, waitlist.ts), so the seat
// count it reads is current; an uncommitted cancel makes it wait there just the same.
import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { eventRsvps, events, users } from '../../../db/schema/index.js';
import { AppError } from '../../errors.js';
import { afterCursor, toPage } from '../../lib/pagination.js';
import { newId } from '../../../db/ids.js';
import { userIdByHandle } from '../../shared/members.js';
import { guestCount, guestSeats } from './guest-seats.js';
import { visibleEvent } from './service.js';
import { lockEventForSeats, promoteWaitlist } from './waitlist.js';
import { organizesHost, viewerOf, visibleTo, type Viewer } from './visibility.js';
import type { MemberServiceContext } from '../../service/context.js';

type RsvpStatus = 'going' | 'interested';

async function rsvpState(ctx: MemberServiceContext, eventId: string) {
  const [row] = await ctx.database.rows<{
    going: number;
    interested: number;
    waitlisted: number;
    mine: RsvpStatus | null;
    minePending: boolean | null;
    mineWaiting: string | number | null;
    guestsGoing: number;
    guestsInterested: number;
  }>(sql`
    select count(*) filter (where status = 'going' and not pending and waitlist_order is null)::int as going,
           count(*) filter (where status = 'interested' and not pending)::int as interested,
           count(*) filter (where waitlist_order is not null and not pending)::int as waitlisted,
           max(case when user_id = ${ctx.user.id} then status end) as mine,
           bool_or(pending) filter (where user_id = ${ctx.user.id}) as "minePending",
           max(waitlist_order) filter (where user_id = ${ctx.user.id}) as "mineWaiting",
           ${guestCount(sql`${eventId}::uuid`, 'going')} as "guestsGoing",
           ${guestCount(sql`${eventId}::uuid`, 'interested')} as "guestsInterested"
    from event_rsvps where event_id = ${eventId}`);
  const waiting = row?.mineWaiting ?? null;
  const [position] =
    waiting === null
      ? [null]
      : await ctx.database.rows<{ n: number }>(
          sql`select count(*)::int as n from event_rsvps where event_id = ${eventId} and waitlist_order <= ${waiting}`,
        );
  const mine = row?.mine ?? null;
  return {
    eventId,
    myRsvp: mine === null ? null : waiting !== null ? ('waitlisted' as const) : mine,
    myWaitlistPosition: position ? Number(position.n) : null,
    myRsvpPending: Boolean(row?.minePending),
    rsvpCounts: {
      going: Number(row?.going ?? 0) + Number(row?.guestsGoing ?? 0),
      interested: Number(row?.interested ?? 0) + Number(row?.guestsInterested ?? 0),
      waitlisted: Number(row?.waitlisted ?? 0),
    },
  };
}

/**
 * The event row (the `events` table, unaliased) accepts RSVPs from this viewer right now. A
 * member the hosting grove banned cannot RSVP to its events, public ones included: the ban is
 * how organizers put an infiltrator out, and an RSVP is what reveals an RSVP-only meeting point.
 */
function acceptsRsvps(viewer: Viewer, memberId: string, now: Date) {
  return sql`${events.status} <> 'cancelled' and ${events.endsAt} > ${now.toISOString()}::timestamptz and ${visibleTo(viewer)}
    and not exists (select 1 from grove_bans b where b.grove_id = ${events.hostGroveId} and b.user_id = ${memberId}::uuid)`;
}

/**
 * Sets or changes the caller's RSVP in one INSERT … ON CONFLICT DO UPDATE whose SELECT and
 * WHERE both require the event to be visible, scheduled and not over. A new RSVP to an event
 * with `rsvpApproval` (and an RSVP-only meeting point) starts pending unless the caller organizes
 * it; changing going/interested keeps the approval state. 404 / 409 as before.
 */
export async function setRsvp(ctx: MemberServiceContext, input: { id: string; status: RsvpStatus }) {
  const viewer = viewerOf(ctx);
  const now = ctx.clock.now();
  const accepts = acceptsRsvps(viewer, ctx.user.id, now);
  const written = await ctx.db.transaction(async (tx) => {
    // The hosting grove's row FOR SHARE first: a ban holds it FOR UPDATE while it removes the
    // member's RSVPs (groves/membership.ts), so either the ban waits and then removes this RSVP,
    // or this waits and the INSERT (a new snapshot under READ COMMITTED) sees the ban.
    await ctx.database.rows(
      sql`select 1 from groves g join events e on e.host_grove_id = g.id where e.id = ${input.id}::uuid for share of g`,
      tx,
    );
    // Then the event's seat lock (waitlist.ts): RSVPs to one event take turns, so the seat count
    // the INSERT reads (a new snapshot) includes every seat taken before it.
    await lockEventForSeats(ctx.database, tx, input.id);
    const written = await ctx.database.rows<{ id: string }>(
      sql`
      insert into event_rsvps (id, event_id, user_id, status, pending, waitlist_order, created_at, updated_at)
      select ${newId()}::uuid, ${events.id}, ${ctx.user.id}::uuid, ${input.status},
             (${events.rsvpApproval} and ${events.meetingPointVisibility} = 'rsvp' and not ${organizesHost(ctx.user.id)}),
             case when ${input.status}::text = 'going' and ${events.capacity} is not null
                   and ((select count(*) from event_rsvps s
                         where s.event_id = ${events.id} and s.status = 'going' and s.waitlist_order is null
                           and s.user_id <> ${ctx.user.id}::uuid) + ${guestSeats(sql`${events.id}`)} >= ${events.capacity}
                        -- Members already waiting come first, also for a seat freed without a
                        -- promotion (a deleted account): the newcomer queues, promotion sorts it out.
                        or exists (select 1 from event_rsvps w where w.event_id = ${events.id}
                                   and w.waitlist_order is not null and w.user_id <> ${ctx.user.id}::uuid))
                  then nextval('event_rsvps_waitlist_seq') end,
             ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      from events
      where ${events.id} = ${input.id}::uuid and ${accepts}
      for share of events
      on conflict (event_id, user_id) do update
        set status = excluded.status, updated_at = excluded.updated_at,
            -- Going again keeps a seat or a place in the queue; interested leaves both.
            waitlist_order = case when excluded.status <> 'going' then null
                                  when event_rsvps.status = 'going' then event_rsvps.waitlist_order
                                  else excluded.waitlist_order end
        where exists (select 1 from events where ${events.id} = event_rsvps.event_id and ${accepts} for share of events)
      returning id`,
      tx,
    );
    // A change from going to interested may have freed a seat.
    if (written.length > 0) await promoteWaitlist(ctx.database, tx, input.id, now, ctx.user.id);
    return written;
  });
  if (written.length === 0) {
    const { event } = await visibleEvent(ctx.db, viewer, eq(events.id, input.id));
    if (event.status === 'cancelled') throw new AppError('conflict', 'The event is cancelled.');
    // Only a ban of the hosting grove gets here: a refusal that does not say so (docs/events-and-groves.md).
    if (new Date(event.endsAt) > now) throw new AppError('forbidden', 'You cannot RSVP to this event.');
    throw new AppError('conflict', 'The event is over.');
  }
  return rsvpState(ctx, input.id);
}

/**
 * Idempotent: removing an RSVP that does not exist is fine. One DELETE conditioned on visibility;
 * a freed seat goes to the first member waiting, in the same transaction.
 */
export async function removeRsvp(ctx: MemberServiceContext, input: { id: string }) {
  const viewer = viewerOf(ctx);
  const deleted = await ctx.db.transaction(async (tx) => {
    await lockEventForSeats(ctx.database, tx, input.id);
    const deleted = await ctx.database.rows<{ id: string }>(
      sql`
      delete from event_rsvps
      where event_id = ${input.id}::uuid and user_id = ${ctx.user.id}::uuid
        and exists (select 1 from events where ${events.id} = ${input.id}::uuid and ${visibleTo(viewer)})
      returning id`,
      tx,
    );
    if (deleted.length > 0) await promoteWaitlist(ctx.database, tx, input.id, ctx.clock.now());
    return deleted;
  });
  // Nothing deleted: either there was no RSVP (fine) or the event is not visible (404).
  if (deleted.length === 0) await visibleEvent(ctx.db, viewer, eq(events.id, input.id));
  return rsvpState(ctx, input.id);
}

/** The event's organizers (not site admins): 403 for others who can see it, 404 for the rest. */
export async function assertOrganizesEvent(ctx: MemberServiceContext, eventId: string, what: string) {
  const viewer = viewerOf(ctx);
  const row = await visibleEvent(ctx.db, viewer, eq(events.id, eventId));
  if (!row.organizes) throw new AppError('forbidden', `Only the event's organizers see ${what}.`);
  return row;
}

/** Handles for the event's organizers; 403 for others who can see the event, 404 for the rest. */
export async function listAttendees(
  ctx: MemberServiceContext,
  input: { id: string; waitlisted?: boolean; cursor?: string; limit: number },
) {
  await assertOrganizesEvent(ctx, input.id, 'attendee handles; everyone sees the counts');
  const after = afterCursor(eventRsvps.id, input.cursor);
  const rows = await ctx.db
    .select({
      id: eventRsvps.id,
      handle: users.handle,
      status: eventRsvps.status,
      pending: eventRsvps.pending,
      // 1-based place in the event's queue; null for everyone seated or interested.
      waitlistPosition: sql<number | null>`case when ${eventRsvps.waitlistOrder} is null then null else
        (select count(*)::int from event_rsvps w where w.event_id = ${eventRsvps.eventId} and w.waitlist_order <= ${eventRsvps.waitlistOrder}) end`,
      respondedAt: eventRsvps.updatedAt,
      checkedInAt: eventRsvps.checkedInAt,
    })
    .from(eventRsvps)
    .innerJoin(users, eq(users.id, eventRsvps.userId))
    .where(
      and(
        eq(eventRsvps.eventId, input.id),
        after,
        input.waitlisted === undefined
          ? undefined
          : input.waitlisted
            ? isNotNull(eventRsvps.waitlistOrder)
            : isNull(eventRsvps.waitlistOrder),
      ),
    )
    .orderBy(asc(eventRsvps.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (r) => r.id);
  return {
    items: page.items.map((r) => ({
      _id: r.id,
      handle: r.handle,
      status: r.status,
      pending: r.pending,
      waitlistPosition: r.waitlistPosition === null ? null : Number(r.waitlistPosition),
      respondedAt: r.respondedAt.toISOString(),
      checkedInAt: r.checkedInAt?.toISOString() ?? null,
    })),
    nextCursor: page.nextCursor,
  };
}

/** Approves a pending RSVP (the member then sees the meeting point). 404 when that member has no RSVP. */
export async function approveRsvp(ctx: MemberServiceContext, input: { id: string; handle: string }) {
  await assertOrganizesEvent(ctx, input.id, 'and approve RSVPs');
  const userId = await userIdByHandle(ctx.db, input.handle);
  const updated = await ctx.db
    .update(eventRsvps)
    .set({ pending: false })
    .where(and(eq(eventRsvps.eventId, input.id), eq(eventRsvps.userId, userId)))
    .returning({ id: eventRsvps.id });
  if (updated.length === 0) throw new AppError('not_found', 'No RSVP from that member.');
  return { ok: true as const };
}

/** Declines (removes) a member's RSVP, pending or approved. 404 when that member has no RSVP. */
export async function declineRsvp(ctx: MemberServiceContext, input: { id: string; handle: string }) {
  await assertOrganizesEvent(ctx, input.id, 'and decline RSVPs');
  const userId = await userIdByHandle(ctx.db, input.handle);
  // A declined RSVP frees its seat (pending ones hold one): the first member waiting gets it.
  const deleted = await ctx.db.transaction(async (tx) => {
    await lockEventForSeats(ctx.database, tx, input.id);
    const deleted = await tx
      .delete(eventRsvps)
      .where(and(eq(eventRsvps.eventId, input.id), eq(eventRsvps.userId, userId)))
      .returning({ id: eventRsvps.id });
    if (deleted.length > 0) await promoteWaitlist(ctx.database, tx, input.id, ctx.clock.now());
    return deleted;
  });
  if (deleted.length === 0) throw new AppError('not_found', 'No RSVP from that member.');
  return { ok: true as const };
}
