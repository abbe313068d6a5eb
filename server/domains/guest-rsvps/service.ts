// RSVP without an account (docs/events-and-groves.md, "Guest RSVPs"): a visitor gives an email
// address and a status; a single-use link (15 minutes, like a magic link) confirms it; a withdraw
// link, mailed at confirmation, deletes it.
//
// The request always answers the same 202, before anything is looked up: the event (unknown,
// not public, cancelled, over), an address already confirmed, and the address's account (never
// looked up) change only what is mailed afterwards, in the background (auth/background-sends.ts),
// so neither the body nor the timing tells them apart. Limits as for magic links: per client
// address a 429 (it says nothing about the email or the event); per email and address, and per
// email across addresses, silently no mail.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { eventGuestRsvps, events } from '../../../db/schema/index.js';
import { newId } from '../../../db/ids.js';
import { hitRateLimit, rateLimitedError } from '../../auth/rate-limit.js';
import { generateSecretToken, hashSecretToken, looksLikeSecretToken } from '../../auth/tokens.js';
import { AppError } from '../../errors.js';
import { renderMail } from '../../mail/localized-mail.js';
import type { AddressedServiceContext, ServiceContext } from '../../service/context.js';
import { sendInBackground } from '../auth/background-sends.js';
import { MAGIC_LINK_TTL_MS, normaliseEmail } from '../auth/service.js';
import { guestSeats } from '../events/guest-seats.js';
import { FALLBACK_TIME_ZONE } from '../events/time-zone.js';
import { lockEventForSeats, promoteWaitlist } from '../events/waitlist.js';
import { confirmedMail, confirmMail, type GuestMailEvent } from './mails.js';

type RsvpStatus = 'going' | 'interested';

/**
 * A page of the web front end, next to its magic-link page: MAGIC_LINK_URL is `<web>/login/magic`
 * (server/config.ts), so `../<path>` resolves under the web's own base, a path prefix included.
 */
export function webLink(ctx: ServiceContext, page: 'confirm' | 'withdraw', token: string): string {
  const link = new URL(`../guest-rsvps/${page}`, ctx.config.MAGIC_LINK_URL);
  link.searchParams.set('token', token);
  return link.toString();
}

/** `j…@example.org`: what organizers see of a guest's address. */
export function emailHint(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}…${email.slice(at)}`;
}

export async function requestGuestRsvp(
  ctx: AddressedServiceContext,
  input: { id: string; email: string; status: RsvpStatus; locale?: string },
): Promise<{ accepted: true }> {
  const now = ctx.clock.now();
  const { config } = ctx;
  const perIp = await hitRateLimit(
    ctx,
    {
      scope: 'guest-rsvp:ip',
      limit: config.RATE_LIMIT_MAGIC_LINK_PER_IP,
      windowSeconds: config.RATE_LIMIT_MAGIC_LINK_WINDOW_SECONDS,
    },
    [ctx.clientIp],
    now,
  );
  if (!perIp.allowed) throw rateLimitedError(perIp.retryAfterSeconds);
  const request = { ...input, email: normaliseEmail(input.email), locale: input.locale ?? null };
  sendInBackground(ctx, sendConfirmLink(ctx, request, ctx.clientIp, now), 'guest RSVP link could not be sent');
  return { accepted: true };
}

async function withinMailLimits(ctx: ServiceContext, email: string, clientIp: string, now: Date): Promise<boolean> {
  const { config } = ctx;
  const perEmailAndIp = await hitRateLimit(
    ctx,
    {
      scope: 'guest-rsvp:email-ip',
      limit: config.RATE_LIMIT_MAGIC_LINK_PER_ACCOUNT,
      windowSeconds: config.RATE_LIMIT_MAGIC_LINK_WINDOW_SECONDS,
    },
    [email, clientIp],
    now,
  );
  if (!perEmailAndIp.allowed) return false;
  const perEmail = await hitRateLimit(
    ctx,
    {
      scope: 'guest-rsvp:email',
      limit: config.RATE_LIMIT_MAGIC_LINK_ACCOUNT_CEILING,
      windowSeconds: config.RATE_LIMIT_ACCOUNT_CEILING_WINDOW_SECONDS,
      backoffMaxSeconds: config.RATE_LIMIT_ACCOUNT_BACKOFF_MAX_SECONDS,
    },
    [email],
    now,
  );
  return perEmail.allowed;
}

/** After the 202: mails a confirm link when the event takes guests and the address is not confirmed yet. */
async function sendConfirmLink(
  ctx: ServiceContext,
  input: { id: string; email: string; status: RsvpStatus; locale: string | null },
  clientIp: string,
  now: Date,
): Promise<void> {
  if (!(await withinMailLimits(ctx, input.email, clientIp, now))) return;
  const token = generateSecretToken();
  const expiresAt = new Date(now.getTime() + MAGIC_LINK_TTL_MS);
  // Only public events take guests: grove-only and friends-only ones are refused like an unknown
  // event (nothing stored, nothing mailed). A confirmed address is left as it is (no mail: its
  // withdraw link is in the mail it already has).
  const [row] = await ctx.database.rows<{ title: string; starts_at: Date | string; time_zone: string | null }>(sql`
    insert into event_guest_rsvps (id, event_id, email, status, locale, confirm_token_hash, confirm_expires_at, created_at)
    select ${newId()}::uuid, e.id, ${input.email}, ${input.status}, ${input.locale},
           ${hashSecretToken(token)}, ${expiresAt.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    from events e
    where e.id = ${input.id}::uuid and e.visibility = 'public' and e.status <> 'cancelled'
      and e.ends_at > ${now.toISOString()}::timestamptz
    on conflict (event_id, email) do update
      set status = excluded.status, locale = excluded.locale,
          confirm_token_hash = excluded.confirm_token_hash, confirm_expires_at = excluded.confirm_expires_at
      where event_guest_rsvps.confirmed_at is null
    returning (select title from events where id = ${input.id}::uuid),
              (select starts_at from events where id = ${input.id}::uuid),
              (select time_zone from events where id = ${input.id}::uuid)`);
  if (!row) return;
  const event: GuestMailEvent = {
    title: row.title,
    startsAt: new Date(row.starts_at),
    timeZone: row.time_zone ?? FALLBACK_TIME_ZONE,
  };
  await ctx.mailer.send(renderMail(confirmMail(input.email, input.locale, event, webLink(ctx, 'confirm', token))));
}

const invalidLink = () => new AppError('not_found', 'The link is invalid, already used or expired.');

type ConfirmOutcome =
  | { kind: 'confirmed'; row: typeof eventGuestRsvps.$inferSelect; event: typeof events.$inferSelect }
  | { kind: 'refused'; error: AppError };

/**
 * Confirms in one transaction under the event's seat lock (events/waitlist.ts), so a guest's seat
 * and a member's are counted in turn. The token is spent by the UPDATE that confirms (single use:
 * a second confirm finds nothing, 404 like an unknown link). A `going` guest who finds every seat
 * taken, or members waiting, is refused (409) and the row deleted: guests do not wait on the
 * waitlist. An event that stopped taking guests meanwhile also deletes the row (404 / 409).
 */
export async function confirmGuestRsvp(ctx: ServiceContext, input: { token: string }) {
  if (!looksLikeSecretToken(input.token)) throw invalidLink();
  const now = ctx.clock.now();
  const hash = hashSecretToken(input.token);
  const [found] = await ctx.db
    .select({ eventId: eventGuestRsvps.eventId })
    .from(eventGuestRsvps)
    .where(eq(eventGuestRsvps.confirmTokenHash, hash))
    .limit(1);
  if (!found) throw invalidLink();
  const withdrawToken = generateSecretToken();
  const outcome = await ctx.db.transaction(async (tx): Promise<ConfirmOutcome | null> => {
    await lockEventForSeats(ctx.database, tx, found.eventId);
    const [event] = await tx.select().from(events).where(eq(events.id, found.eventId)).limit(1);
    const [row] = await tx
      .update(eventGuestRsvps)
      .set({
        confirmTokenHash: null,
        confirmExpiresAt: null,
        confirmedAt: now,
        withdrawTokenHash: hashSecretToken(withdrawToken),
        // The RSVP-only meeting point goes to a guest only once an organizer approved them.
        pending: event?.meetingPointVisibility === 'rsvp',
      })
      .where(
        and(
          eq(eventGuestRsvps.confirmTokenHash, hash),
          isNull(eventGuestRsvps.confirmedAt),
          sql`${eventGuestRsvps.confirmExpiresAt} > ${now.toISOString()}::timestamptz`,
        ),
      )
      .returning();
    if (!row || !event) return null;
    const refusal = await refusalOf(ctx, tx, event, row.status, now);
    if (!refusal) return { kind: 'confirmed', row, event };
    await tx.delete(eventGuestRsvps).where(eq(eventGuestRsvps.id, row.id));
    return { kind: 'refused', error: refusal };
  });
  if (!outcome) throw invalidLink();
  if (outcome.kind === 'refused') throw outcome.error;
  const { row, event } = outcome;
  const mailEvent = { title: event.title, startsAt: event.startsAt, timeZone: event.timeZone ?? FALLBACK_TIME_ZONE };
  sendInBackground(
    ctx,
    Promise.resolve().then(() =>
      ctx.mailer.send(
        renderMail(
          confirmedMail(row.email, row.locale, mailEvent, row.pending, webLink(ctx, 'withdraw', withdrawToken)),
        ),
      ),
    ),
    'guest RSVP withdraw link could not be sent',
  );
  return {
    event: {
      _id: event.id,
      slug: event.slug,
      title: event.title,
      startsAt: event.startsAt.toISOString(),
      endsAt: event.endsAt.toISOString(),
      timeZone: mailEvent.timeZone,
      area: event.area,
    },
    status: row.status,
    pending: row.pending,
    withdrawToken,
  };
}

/** Why the event no longer takes this guest (checked holding its seat lock), or null. */
async function refusalOf(
  ctx: ServiceContext,
  tx: Parameters<typeof lockEventForSeats>[1],
  event: typeof events.$inferSelect,
  status: RsvpStatus,
  now: Date,
): Promise<AppError | null> {
  if (event.visibility !== 'public') return invalidLink();
  if (event.status === 'cancelled') return new AppError('conflict', 'The event is cancelled.');
  if (event.endsAt <= now) return new AppError('conflict', 'The event is over.');
  if (status !== 'going' || event.capacity === null) return null;
  const [seats] = await ctx.database.rows<{ seated: number; waiting: boolean }>(
    sql`select (select count(*)::int from event_rsvps s where s.event_id = ${event.id}::uuid and s.status = 'going'
                and s.waitlist_order is null) + ${guestSeats(sql`${event.id}::uuid`)} - 1 as seated,
               exists (select 1 from event_rsvps w where w.event_id = ${event.id}::uuid and w.waitlist_order is not null) as waiting`,
    tx,
  );
  // `- 1`: the guest's own row, confirmed by this transaction, is already counted.
  if (Number(seats!.seated) >= event.capacity || seats!.waiting)
    return new AppError('conflict', 'The event is full; RSVP as interested instead.');
  return null;
}

/**
 * Deletes the guest's RSVP; a freed seat goes to the first member waiting, in the same
 * transaction. 404 for a token that is unknown or already used (withdrawn, declined, swept).
 */
export async function withdrawGuestRsvp(ctx: ServiceContext, input: { token: string }) {
  if (!looksLikeSecretToken(input.token)) throw invalidLink();
  const hash = hashSecretToken(input.token);
  const [found] = await ctx.db
    .select({ eventId: eventGuestRsvps.eventId })
    .from(eventGuestRsvps)
    .where(eq(eventGuestRsvps.withdrawTokenHash, hash))
    .limit(1);
  if (!found) throw invalidLink();
  const deleted = await ctx.db.transaction(async (tx) => {
    await lockEventForSeats(ctx.database, tx, found.eventId);
    const deleted = await tx
      .delete(eventGuestRsvps)
      .where(eq(eventGuestRsvps.withdrawTokenHash, hash))
      .returning({ id: eventGuestRsvps.id });
    if (deleted.length > 0) await promoteWaitlist(ctx.database, tx, found.eventId, ctx.clock.now());
    return deleted;
  });
  if (deleted.length === 0) throw invalidLink();
  return { ok: true as const };
}
