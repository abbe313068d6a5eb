// Event shifts (issue #26): organizers add time slots with a capacity; members who can see the
// event sign up and withdraw. Counts and `mine` for everyone who can see the event; the roster
// (handles) for the event's organizers only (spec privacy rule 4, as with RSVP attendees).
//
// Signing up is race-safe: one transaction locks the shift's row (FOR UPDATE) and the event's
// (FOR SHARE, so an uncommitted cancel makes it wait and then refuse), then counts the signups
// in a new statement (READ COMMITTED: a fresh snapshot, after the previous holder of the lock
// committed) and inserts only below capacity. Concurrent signups to one shift so queue on its
// row; tests/events/shifts-race.pg.test.ts checks 20 against a capacity of 5.
import { and, eq, sql } from 'drizzle-orm';
import { newId } from '../../../db/ids.js';
import { eventShiftSignups, eventShifts, events } from '../../../db/schema/index.js';
import type { DbOrTx } from '../../../db/client.js';
import { AppError } from '../../errors.js';
import type { Caller, MemberServiceContext, ServiceContext } from '../../service/context.js';
import { visibleEvent } from '../events/service.js';
import { viewerOf, visibleTo, type Viewer } from '../events/visibility.js';
import { MAX_SHIFTS_PER_EVENT, type ShiftOutput } from './schemas.js';

interface ShiftRow {
  id: string;
  eventId: string;
  startsAt: Date | string;
  endsAt: Date | string;
  capacity: number;
  role: string | null;
  signedUp: number;
  mine: boolean;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** The event's shifts (or one of them), with counts, `mine` and, for organizers, the roster. */
async function readShifts(
  ctx: ServiceContext,
  db: DbOrTx,
  input: { eventId: string; shiftId?: string; userId: string | null; organizes: boolean },
): Promise<ShiftOutput[]> {
  const only = input.shiftId ? sql`and s.id = ${input.shiftId}::uuid` : sql``;
  const me = input.userId ? sql`${input.userId}::uuid` : sql`null::uuid`;
  const rows = await ctx.database.rows<ShiftRow>(
    sql`
    select s.id, s.event_id as "eventId", s.starts_at as "startsAt", s.ends_at as "endsAt", s.capacity, s.role,
           (select count(*)::int from event_shift_signups u where u.shift_id = s.id) as "signedUp",
           exists (select 1 from event_shift_signups u where u.shift_id = s.id and u.user_id = ${me}) as mine
    from event_shifts s
    where s.event_id = ${input.eventId}::uuid ${only}
    order by s.starts_at, s.id
    limit ${MAX_SHIFTS_PER_EVENT}`,
    db,
  );
  const rosters = new Map<string, { handle: string; signedUpAt: string }[]>();
  if (input.organizes && rows.length > 0) {
    const signups = await ctx.database.rows<{ shiftId: string; handle: string; signedUpAt: Date | string }>(
      sql`
      select u.shift_id as "shiftId", a.handle, u.created_at as "signedUpAt"
      from event_shift_signups u join event_shifts s on s.id = u.shift_id join users a on a.id = u.user_id
      where s.event_id = ${input.eventId}::uuid ${only}
      order by u.created_at, u.id`,
      db,
    );
    for (const s of signups)
      rosters.set(s.shiftId, [...(rosters.get(s.shiftId) ?? []), { handle: s.handle, signedUpAt: iso(s.signedUpAt) }]);
  }
  return rows.map((r) => ({
    _id: r.id,
    eventId: r.eventId,
    startsAt: iso(r.startsAt),
    endsAt: iso(r.endsAt),
    capacity: Number(r.capacity),
    role: r.role,
    counts: { signedUp: Number(r.signedUp), capacity: Number(r.capacity) },
    mine: Boolean(r.mine),
    ...(input.organizes ? { roster: rosters.get(r.id) ?? [] } : {}),
  }));
}

async function oneShift(
  ctx: ServiceContext,
  db: DbOrTx,
  eventId: string,
  shiftId: string,
  viewer: Viewer,
  organizes: boolean,
) {
  const [shift] = await readShifts(ctx, db, { eventId, shiftId, userId: viewer.id, organizes });
  if (!shift) throw new AppError('not_found', 'No such shift.');
  return shift;
}

/** Everyone who can see the event (anonymous callers of public events too); 404 for the rest. */
export async function listShifts(ctx: ServiceContext, caller: Caller, input: { id: string }) {
  const viewer = viewerOf(caller);
  const row = await visibleEvent(ctx.db, viewer, eq(events.id, input.id));
  const items = await readShifts(ctx, ctx.db, {
    eventId: input.id,
    userId: viewer.id,
    organizes: Boolean(row.organizes),
  });
  return { items, nextCursor: null };
}

/** The event's organizers (not site admins, like the attendee list): 403 for others who see it, 404 for the rest. */
async function assertOrganizes(ctx: MemberServiceContext, eventId: string, what: string) {
  const row = await visibleEvent(ctx.db, viewerOf(ctx), eq(events.id, eventId));
  if (!row.organizes) throw new AppError('forbidden', `Only the event's organizers ${what}.`);
  return row;
}

export async function createShift(
  ctx: MemberServiceContext,
  input: { id: string; startsAt: string; endsAt: string; capacity: number; role?: string },
) {
  const row = await assertOrganizes(ctx, input.id, 'add shifts');
  if (row.event.status === 'cancelled') throw new AppError('conflict', 'The event is cancelled.');
  // Nobody can sign up for a shift of an event that is over, so none is added to one.
  if (new Date(row.event.endsAt) <= ctx.clock.now()) throw new AppError('conflict', 'The event is over.');
  const shiftId = newId();
  await ctx.db.transaction(async (tx) => {
    // The event row FOR UPDATE: two concurrent adds cannot both pass the per-event limit.
    await ctx.database.rows(sql`select 1 from events where id = ${input.id}::uuid for update`, tx);
    const [count] = await ctx.database.rows<{ n: number }>(
      sql`select count(*)::int as n from event_shifts where event_id = ${input.id}::uuid`,
      tx,
    );
    if (Number(count?.n ?? 0) >= MAX_SHIFTS_PER_EVENT)
      throw new AppError('conflict', `An event has at most ${MAX_SHIFTS_PER_EVENT} shifts.`);
    await tx.insert(eventShifts).values({
      id: shiftId,
      eventId: input.id,
      startsAt: new Date(input.startsAt),
      endsAt: new Date(input.endsAt),
      capacity: input.capacity,
      role: input.role ?? null,
    });
  });
  return oneShift(ctx, ctx.db, input.id, shiftId, viewerOf(ctx), true);
}

export async function deleteShift(ctx: MemberServiceContext, input: { id: string; shiftId: string }) {
  await assertOrganizes(ctx, input.id, 'delete shifts');
  const deleted = await ctx.db
    .delete(eventShifts)
    .where(and(eq(eventShifts.id, input.shiftId), eq(eventShifts.eventId, input.id)))
    .returning({ id: eventShifts.id });
  if (deleted.length === 0) throw new AppError('not_found', 'No such shift.');
  return { ok: true as const };
}

/** Same rule as RSVPs: visible, not cancelled, not over, and the hosting grove has not banned the member. */
function acceptsSignups(viewer: Viewer, memberId: string, now: Date) {
  return sql`${events.status} <> 'cancelled' and ${events.endsAt} > ${now.toISOString()}::timestamptz and ${visibleTo(viewer)}
    and not exists (select 1 from grove_bans b where b.grove_id = ${events.hostGroveId} and b.user_id = ${memberId}::uuid)`;
}

/** Idempotent; 409 `shift_full` at capacity, 409 `conflict` for a cancelled or ended event. */
export async function signUp(ctx: MemberServiceContext, input: { id: string; shiftId: string }) {
  const viewer = viewerOf(ctx);
  const now = ctx.clock.now();
  const outcome = await ctx.db.transaction(async (tx) => {
    const [open] = await ctx.database.rows<{ capacity: number }>(
      sql`
      select s.capacity
      from event_shifts s join events on ${events.id} = s.event_id
      where s.id = ${input.shiftId}::uuid and s.event_id = ${input.id}::uuid and ${acceptsSignups(viewer, ctx.user.id, now)}
      for update of s for share of events`,
      tx,
    );
    if (!open) return 'refused' as const;
    const [state] = await ctx.database.rows<{ n: number; mine: boolean }>(
      sql`
      select count(*)::int as n, coalesce(bool_or(user_id = ${ctx.user.id}::uuid), false) as mine
      from event_shift_signups where shift_id = ${input.shiftId}::uuid`,
      tx,
    );
    if (state?.mine) return 'ok' as const;
    if (Number(state?.n ?? 0) >= Number(open.capacity)) throw new AppError('shift_full', 'This shift is full.');
    await tx
      .insert(eventShiftSignups)
      .values({ id: newId(), shiftId: input.shiftId, userId: ctx.user.id, createdAt: now })
      .onConflictDoNothing();
    return 'ok' as const;
  });
  const row = await visibleEvent(ctx.db, viewer, eq(events.id, input.id));
  if (outcome === 'refused') {
    await oneShift(ctx, ctx.db, input.id, input.shiftId, viewer, false); // 404 for a shift of another event
    if (row.event.status === 'cancelled') throw new AppError('conflict', 'The event is cancelled.');
    // Only a ban of the hosting grove gets here: a refusal that does not say so (as for RSVPs).
    if (new Date(row.event.endsAt) > now) throw new AppError('forbidden', 'You cannot sign up for this shift.');
    throw new AppError('conflict', 'The event is over.');
  }
  return oneShift(ctx, ctx.db, input.id, input.shiftId, viewer, Boolean(row.organizes));
}

/** Idempotent: withdrawing without a signup is fine. 404 for an event the caller cannot see or a shift not of it. */
export async function withdraw(ctx: MemberServiceContext, input: { id: string; shiftId: string }) {
  const viewer = viewerOf(ctx);
  const row = await visibleEvent(ctx.db, viewer, eq(events.id, input.id));
  // The shift must be the event's (404 otherwise) before anything is deleted; the delete itself
  // needs no read of the signup first (none is fine: idempotent).
  await oneShift(ctx, ctx.db, input.id, input.shiftId, viewer, false);
  await ctx.db
    .delete(eventShiftSignups)
    .where(and(eq(eventShiftSignups.shiftId, input.shiftId), eq(eventShiftSignups.userId, ctx.user.id)));
  return oneShift(ctx, ctx.db, input.id, input.shiftId, viewer, Boolean(row.organizes));
}
