// What organizers of an event see and do with its guests: the list (the address masked to its
// first letter and domain), approval (mails the RSVP-only meeting point and logs the reveal),
// declining, and the guests' reveal log. Organizers of the host only, like the attendee list:
// others who can see the event 403, the rest 404 (events/rsvp.ts assertOrganizesEvent).
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { eventGuestReveals, eventGuestRsvps } from '../../../db/schema/index.js';
import { newId } from '../../../db/ids.js';
import { AppError } from '../../errors.js';
import { afterCursor, toPage } from '../../lib/pagination.js';
import { renderMail } from '../../mail/localized-mail.js';
import type { MemberServiceContext } from '../../service/context.js';
import { sendInBackground } from '../auth/background-sends.js';
import { assertOrganizesEvent } from '../events/rsvp.js';
import { FALLBACK_TIME_ZONE } from '../events/time-zone.js';
import { lockEventForSeats, promoteWaitlist } from '../events/waitlist.js';
import { approvedMail } from './mails.js';
import { emailHint } from './service.js';

/** Confirmed guests only: an unconfirmed address is nobody's RSVP yet. */
export async function listGuests(ctx: MemberServiceContext, input: { id: string; cursor?: string; limit: number }) {
  await assertOrganizesEvent(ctx, input.id, 'the guests');
  const rows = await ctx.db
    .select()
    .from(eventGuestRsvps)
    .where(
      and(
        eq(eventGuestRsvps.eventId, input.id),
        isNotNull(eventGuestRsvps.confirmedAt),
        afterCursor(eventGuestRsvps.id, input.cursor),
      ),
    )
    .orderBy(asc(eventGuestRsvps.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (r) => r.id);
  return {
    items: page.items.map((r) => ({
      _id: r.id,
      kind: 'guest' as const,
      email: emailHint(r.email),
      status: r.status,
      pending: r.pending,
      confirmedAt: r.confirmedAt!.toISOString(),
    })),
    nextCursor: page.nextCursor,
  };
}

/**
 * Approves a pending guest: they count publicly, and the RSVP-only meeting point is mailed to
 * them and logged (event_guest_reveals, kept after they withdraw). Approving again mails nothing.
 */
export async function approveGuest(ctx: MemberServiceContext, input: { id: string; guestId: string }) {
  const { event } = await assertOrganizesEvent(ctx, input.id, 'and approve guests');
  const now = ctx.clock.now();
  const [guest] = await ctx.db
    .update(eventGuestRsvps)
    .set({ pending: false })
    .where(
      and(
        eq(eventGuestRsvps.id, input.guestId),
        eq(eventGuestRsvps.eventId, input.id),
        isNotNull(eventGuestRsvps.confirmedAt),
      ),
    )
    .returning();
  if (!guest) throw new AppError('not_found', 'No such guest.');
  if (event.meetingPointVisibility !== 'rsvp' || event.meetingPointText === null) return { ok: true as const };
  const revealed = await ctx.db
    .insert(eventGuestReveals)
    .values({
      id: newId(),
      eventId: input.id,
      guestRsvpId: guest.id,
      emailHint: emailHint(guest.email),
      firstRevealedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: eventGuestReveals.id });
  if (revealed.length > 0) {
    const mailEvent = { title: event.title, startsAt: event.startsAt, timeZone: event.timeZone ?? FALLBACK_TIME_ZONE };
    const point = event.meetingPointText;
    sendInBackground(
      ctx,
      Promise.resolve().then(() =>
        ctx.mailer.send(renderMail(approvedMail(guest.email, guest.locale, mailEvent, point))),
      ),
      'guest approval could not be mailed',
    );
  }
  return { ok: true as const };
}

/** Removes a guest's RSVP, pending or approved; a freed seat goes to the first member waiting. */
export async function declineGuest(ctx: MemberServiceContext, input: { id: string; guestId: string }) {
  await assertOrganizesEvent(ctx, input.id, 'and decline guests');
  const deleted = await ctx.db.transaction(async (tx) => {
    await lockEventForSeats(ctx.database, tx, input.id);
    const deleted = await tx
      .delete(eventGuestRsvps)
      .where(and(eq(eventGuestRsvps.id, input.guestId), eq(eventGuestRsvps.eventId, input.id)))
      .returning({ id: eventGuestRsvps.id });
    if (deleted.length > 0) await promoteWaitlist(ctx.database, tx, input.id, ctx.clock.now());
    return deleted;
  });
  if (deleted.length === 0) throw new AppError('not_found', 'No such guest.');
  return { ok: true as const };
}

/** Every guest the RSVP-only meeting point was mailed to, also after they withdrew (`rsvp: null`). */
export async function listGuestReveals(
  ctx: MemberServiceContext,
  input: { id: string; cursor?: string; limit: number },
) {
  await assertOrganizesEvent(ctx, input.id, 'who was shown the meeting point');
  const rows = await ctx.db
    .select({
      id: eventGuestReveals.id,
      emailHint: eventGuestReveals.emailHint,
      firstRevealedAt: eventGuestReveals.firstRevealedAt,
      rsvp: sql<
        'going' | 'interested' | null
      >`(select g.status from event_guest_rsvps g where g.id = ${eventGuestReveals.guestRsvpId})`,
    })
    .from(eventGuestReveals)
    .where(and(eq(eventGuestReveals.eventId, input.id), afterCursor(eventGuestReveals.id, input.cursor)))
    .orderBy(asc(eventGuestReveals.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (r) => r.id);
  return {
    items: page.items.map((r) => ({
      _id: r.id,
      email: r.emailHint,
      firstRevealedAt: r.firstRevealedAt.toISOString(),
      rsvp: r.rsvp ?? null,
    })),
    nextCursor: page.nextCursor,
  };
}
