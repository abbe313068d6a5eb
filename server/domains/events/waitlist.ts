// Event capacity and the waitlist (docs/events-and-groves.md, "Capacity and the waitlist").
//
// An event with a `capacity` has that many seats for `going` RSVPs, pending ones included (an RSVP
// waiting for approval holds its seat until an organizer declines it). A `going` RSVP that finds
// every seat taken is stored with a `waitlist_order` (event_rsvps_waitlist_seq) and shown as
// `waitlisted`. Every write that can free a seat (a withdrawal, a change to `interested`, a
// decline, a raised capacity) runs `promoteWaitlist` in its own transaction, which seats the
// first waiting RSVPs, in order, and queues a `waitlistPromoted` push to each. Lowering the
// capacity demotes nobody.
//
// Race safety: each of those transactions first locks the event row FOR NO KEY UPDATE
// (`lockEventForSeats`): writers of one event's seats take turns, and each one's statements
// (READ COMMITTED: a snapshot per statement) see every seat the one before it took. A PATCH of
// the event takes the same lock by updating the row.
import { sql } from 'drizzle-orm';
import type { Database, DbOrTx, Tx } from '../../../db/client.js';
import { type OutboxRow, type PushKind, rowValues } from '../../push/outbox.js';
import type { PushContent } from '../../push/push-texts.js';
import { rsvpMemberSeesEvent } from './event-reminders.js';
import { guestSeats } from './guest-seats.js';
import { type EventPushRecipient, WEEK_SECONDS } from './event-update-pushes.js';

/** Takes the event's seat lock for the rest of the transaction (nothing when the event is gone). */
export async function lockEventForSeats(database: Database, tx: DbOrTx, eventId: string) {
  await database.rows(sql`select 1 from events where id = ${eventId}::uuid for no key update`, tx);
}

/**
 * Seats the first waiting RSVPs while seats are free (a scheduled event not yet over) and queues
 * a push to each member promoted, but the `actorId` (a member seated by their own RSVP is not
 * told). Call it holding the event's seat lock. Returns their user ids.
 */
export async function promoteWaitlist(database: Database, tx: DbOrTx, eventId: string, now: Date, actorId?: string) {
  const promoted = await database.rows<{ user_id: string }>(
    sql`
      with e as (
        -- No capacity (removed by a PATCH): every waiting RSVP is seated.
        select id, coalesce(capacity, 2147483647) - (select count(*)::int from event_rsvps s
                               where s.event_id = events.id and s.status = 'going' and s.waitlist_order is null)
                             - ${guestSeats(sql`events.id`)} as free
        from events
        where id = ${eventId}::uuid and status <> 'cancelled' and ends_at > ${now.toISOString()}::timestamptz
      ),
      next as (
        select r.id from event_rsvps r join e on r.event_id = e.id
        where r.waitlist_order is not null
        order by r.waitlist_order
        limit coalesce((select greatest(e.free, 0) from e), 0)
      )
      update event_rsvps set waitlist_order = null, updated_at = ${now.toISOString()}::timestamptz
      from next where event_rsvps.id = next.id
      returning event_rsvps.user_id`,
    tx,
  );
  const told = promoted.filter((p) => p.user_id !== actorId);
  if (told.length > 0) {
    await database.rows(
      sql`
        insert into push_outbox (kind, subject_id, recipient_id, not_before, created_at)
        values ${sql.join(
          told.map(
            (p) =>
              sql`('waitlistPromoted', ${eventId}::uuid, ${p.user_id}::uuid, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)`,
          ),
          sql`, `,
        )}`,
      tx,
    );
  }
  return promoted.map((p) => p.user_id);
}

/** The push for a member who got a seat; texts are keys of server/locales/<locale>/push.json. */
export function waitlistPromotedPush(
  promoted: { eventId: string; title: string; startsAt: Date; details: boolean },
  now: Date,
): PushContent {
  const text: Pick<PushContent, 'payload' | 'title' | 'body'> = promoted.details
    ? {
        payload: { type: 'waitlist-promoted', eventId: promoted.eventId, startsAt: promoted.startsAt.toISOString() },
        title: { verbatim: promoted.title },
        body: { key: 'push.waitlistPromoted.body' },
      }
    : {
        payload: { type: 'waitlist-promoted', eventId: promoted.eventId },
        title: { key: 'push.waitlistPromoted.titleGeneric' },
        body: { key: 'push.waitlistPromoted.bodyGeneric' },
      };
  const untilStart = Math.floor((promoted.startsAt.getTime() - now.getTime()) / 1000);
  return {
    ...text,
    ttlSeconds: Math.min(WEEK_SECONDS, Math.max(600, untilStart)),
    topic: promoted.eventId.replace(/-/g, ''),
    urgency: 'high',
  };
}

/**
 * The `waitlistPromoted` kind of the push outbox: one row per promoted member. Sent only while
 * they still hold the seat, can see the event and have `push.eventUpdates` on (the preference a
 * promotion counts under).
 */
export function waitlistPromotedPushKind(deps: { database: Database }): PushKind {
  return {
    kind: 'waitlistPromoted',
    async resolve(tx: Tx, rows: OutboxRow[], now: Date) {
      const recipients = await deps.database.rows<EventPushRecipient>(
        sql`
          select q.row_id, r.user_id, e.id as event_id, e.title, e.starts_at, coalesce(p.push_shows_details, false) as details
          from (values ${rowValues(rows)}) as q(row_id, event_id, recipient_id)
          join event_rsvps r on r.event_id = q.event_id and r.user_id = q.recipient_id
          join events e on e.id = r.event_id
          left join notification_preferences p on p.user_id = r.user_id
          where r.status = 'going' and r.waitlist_order is null
            and e.status <> 'cancelled' and e.ends_at > ${now.toISOString()}::timestamptz
            and coalesce(p.push_event_updates, true)
            and exists (select 1 from push_subscriptions s where s.user_id = r.user_id and s.platform = 'web')
            and ${rsvpMemberSeesEvent}
          order by q.row_id`,
        tx,
      );
      return recipients.map((recipient) => ({
        rowId: Number(recipient.row_id),
        userId: recipient.user_id,
        message: waitlistPromotedPush(
          {
            eventId: recipient.event_id,
            title: recipient.title,
            startsAt: new Date(recipient.starts_at),
            details: Boolean(recipient.details),
          },
          now,
        ),
      }));
    },
  };
}
