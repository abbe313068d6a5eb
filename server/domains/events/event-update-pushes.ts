// Push notifications for event changes (kind `eventUpdate` of the push outbox, server/push/outbox.ts):
// a cancellation, or a new time or place (venue, address, place, meeting point), written to the
// outbox by the transaction that changes the event (server/domains/events/service.ts). Each member
// who RSVP'd `going` (confirmed), can still see the event and has `push.eventUpdates` on gets one
// Web Push per browser; whoever made the change is not told. Several changes to one event claimed
// together make one push, a cancellation winning over a change. A deleted event sends nothing (its
// rows find no RSVPs); staleness and retries are the outbox's.
//
// The payload carries no personal data unless the member allowed it (`pushShowsDetails`): by
// default a generic text and the event id. It never carries the meeting point.
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../../db/client.js';
import { type OutboxRow, type PushKind, rowValues } from '../../push/outbox.js';
import type { PushContent } from '../../push/push-texts.js';
import { rsvpMemberSeesEvent } from './event-reminders.js';

/** The longest a push about an event waits for an offline device. */
export const WEEK_SECONDS = 7 * 24 * 3600;

type Change = 'cancelled' | 'changed';

/** A member an event push goes to, as the outbox kinds about events read them. */
export interface EventPushRecipient {
  row_id: number | string;
  user_id: string;
  event_id: string;
  title: string;
  starts_at: string | Date;
  details: boolean;
}

/**
 * The push for one member; `details` is their `pushShowsDetails` preference. Texts are catalog keys
 * (server/locales/<locale>/push.json), rendered in the member's language when sent.
 */
export function eventUpdatePush(
  update: { eventId: string; title: string; startsAt: Date; change: Change; details: boolean },
  now: Date,
): PushContent {
  const cancelled = update.change === 'cancelled';
  const text: Pick<PushContent, 'payload' | 'title' | 'body'> = update.details
    ? {
        payload: { type: 'event-update', eventId: update.eventId, startsAt: update.startsAt.toISOString() },
        title: { verbatim: update.title },
        body: { key: cancelled ? 'push.eventUpdate.cancelled' : 'push.eventUpdate.changed' },
      }
    : {
        payload: { type: 'event-update', eventId: update.eventId },
        title: { key: 'push.eventUpdate.titleGeneric' },
        body: { key: cancelled ? 'push.eventUpdate.cancelledGeneric' : 'push.eventUpdate.changedGeneric' },
      };
  const untilStart = Math.floor((update.startsAt.getTime() - now.getTime()) / 1000);
  return {
    ...text,
    // Kept for an offline device until the event starts (at least 10 minutes, at most a week).
    ttlSeconds: Math.min(WEEK_SECONDS, Math.max(600, untilStart)),
    // The event's topic, as its reminder's: the newest news about an event replaces older ones.
    topic: update.eventId.replace(/-/g, ''),
    urgency: 'high',
  };
}

/**
 * The rows to announce: per event, one of its fan-out rows stands for all of them (a cancellation
 * wins over a change) with everyone who made them; a retry (a row with a recipient) stands alone.
 */
function collapse(rows: OutboxRow[]) {
  const announced = new Map<number, { row: OutboxRow; change: Change; actors: Set<string> }>();
  const byEvent = new Map<string, { row: OutboxRow; change: Change; actors: Set<string> }>();
  for (const row of rows) {
    const change: Change = row.change ?? 'changed';
    if (row.recipient_id) {
      announced.set(row.id, { row, change, actors: new Set() });
      continue;
    }
    const entry = byEvent.get(row.subject_id) ?? { row, change, actors: new Set<string>() };
    if (change === 'cancelled' && entry.change !== 'cancelled') Object.assign(entry, { row, change });
    if (row.actor_id) entry.actors.add(row.actor_id);
    byEvent.set(row.subject_id, entry);
  }
  for (const entry of byEvent.values()) announced.set(entry.row.id, entry);
  return announced;
}

async function recipientsOf(database: Database, tx: Tx, rows: OutboxRow[]): Promise<EventPushRecipient[]> {
  const values = rowValues(rows);
  return database.rows<EventPushRecipient>(
    sql`
      select q.row_id, r.user_id, e.id as event_id, e.title, e.starts_at, coalesce(p.push_shows_details, false) as details
      from (values ${values}) as q(row_id, event_id, recipient_id)
      join event_rsvps r on r.event_id = q.event_id and (q.recipient_id is null or r.user_id = q.recipient_id)
      join events e on e.id = r.event_id
      left join notification_preferences p on p.user_id = r.user_id
      where r.status = 'going' and not r.pending
        and coalesce(p.push_event_updates, true)
        and exists (select 1 from push_subscriptions s where s.user_id = r.user_id and s.platform = 'web')
        and ${rsvpMemberSeesEvent}
      order by q.row_id, r.user_id`,
    tx,
  );
}

/** The `eventUpdate` kind of the push outbox. */
export function eventUpdatePushKind(deps: { database: Database }): PushKind {
  return {
    kind: 'eventUpdate',
    async resolve(tx, rows, now) {
      const announced = collapse(rows);
      const recipients = await recipientsOf(
        deps.database,
        tx,
        [...announced.values()].map((entry) => entry.row),
      );
      return recipients.flatMap((recipient) => {
        const entry = announced.get(Number(recipient.row_id))!;
        // Whoever made a change is not told of it.
        if (entry.actors.has(recipient.user_id)) return [];
        const message = eventUpdatePush(
          {
            eventId: recipient.event_id,
            title: recipient.title,
            startsAt: new Date(recipient.starts_at),
            change: entry.change,
            details: Boolean(recipient.details),
          },
          now,
        );
        return [{ rowId: entry.row.id, userId: recipient.user_id, message }];
      });
    },
  };
}
