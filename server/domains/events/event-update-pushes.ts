// Push notifications for event changes: a cancellation, or a new time or place (venue, address,
// place, meeting point), queued in event_push_queue by the transaction that changes the event
// (server/domains/events/service.ts). Every few seconds the job takes the queue and each member
// who RSVP'd `going` (confirmed), can still see the event and has `push.eventUpdates` on gets one
// Web Push per browser; whoever made the change is not told. Several changes to one event in
// one run make one push, a cancellation winning over a change. As for message pushes, the queue
// is taken in the runner's transaction and the pushes go out after it commits; a change queued
// too long is dropped (push-queue.ts), and a deleted event takes its queue rows with it.
//
// The payload carries no personal data unless the member allowed it (`pushShowsDetails`): by
// default a generic text and the event id. It never carries the meeting point.
import { sql } from 'drizzle-orm';
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import type { Database, Tx } from '../../../db/client.js';
import type { Logger } from '../../log.js';
import type { PushMessage, WebPushSender } from '../../push/web-push.js';
import { type MemberWebPushTarget, sendPushes, webPushTargetsOf } from '../../push/web-push-targets.js';
import { rsvpMemberSeesEvent } from './event-reminders.js';
import { takeFromPushQueue } from '../../push/push-queue.js';
import type { JobWithFollowUp } from '../job.js';

const WEEK_SECONDS = 7 * 24 * 3600;

type Change = 'cancelled' | 'changed';

interface Queued {
  event_id: string;
  change: Change;
  actor_id: string | null;
  queued_at: string | Date;
}

interface Recipient {
  user_id: string;
  event_id: string;
  title: string;
  starts_at: string | Date;
  details: boolean;
}

/** The push for one member; `details` is their `pushShowsDetails` preference. */
export function eventUpdatePush(
  update: { eventId: string; title: string; startsAt: Date; change: Change; details: boolean },
  now: Date,
): PushMessage {
  const cancelled = update.change === 'cancelled';
  const payload = update.details
    ? {
        type: 'event-update',
        title: update.title,
        body: cancelled ? 'Cancelled.' : 'New time or place: open the event.',
        eventId: update.eventId,
        startsAt: update.startsAt.toISOString(),
      }
    : {
        type: 'event-update',
        title: 'Event update',
        body: cancelled
          ? "An event you're going to was cancelled."
          : "An event you're going to has a new time or place.",
        eventId: update.eventId,
      };
  const untilStart = Math.floor((update.startsAt.getTime() - now.getTime()) / 1000);
  return {
    payload,
    // Kept for an offline device until the event starts (at least 10 minutes, at most a week).
    ttlSeconds: Math.min(WEEK_SECONDS, Math.max(600, untilStart)),
    // The event's topic, as its reminder's: the newest news about an event replaces older ones.
    topic: update.eventId.replace(/-/g, ''),
    urgency: 'high',
  };
}

/** Takes a batch of queued changes; per event the change to announce (cancelled wins) and who made them. */
async function takeQueued(database: Database, tx: Tx, now: Date) {
  const { fresh, stale } = await takeFromPushQueue<Queued>(database, tx, 'event_push_queue', now);
  const byEvent = new Map<string, { change: Change; actors: Set<string> }>();
  for (const row of fresh) {
    const entry = byEvent.get(row.event_id) ?? { change: row.change, actors: new Set<string>() };
    if (row.change === 'cancelled') entry.change = 'cancelled';
    if (row.actor_id) entry.actors.add(row.actor_id);
    byEvent.set(row.event_id, entry);
  }
  return { byEvent, stale };
}

async function recipientsOf(database: Database, tx: Tx, eventIds: string[]): Promise<Recipient[]> {
  const ids = sql.join(
    eventIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  return database.rows<Recipient>(
    sql`
      select r.user_id, e.id as event_id, e.title, e.starts_at, coalesce(p.push_shows_details, false) as details
      from event_rsvps r
      join events e on e.id = r.event_id
      left join notification_preferences p on p.user_id = r.user_id
      where r.event_id in (${ids}) and r.status = 'going' and not r.pending
        and coalesce(p.push_event_updates, true)
        and exists (select 1 from push_subscriptions s where s.user_id = r.user_id and s.platform = 'web')
        and ${rsvpMemberSeesEvent}
      order by e.id, r.user_id`,
    tx,
  );
}

export function createEventUpdatePushJob(deps: {
  push: WebPushSender;
  log: Logger;
  database: Database;
}): JobWithFollowUp {
  return {
    name: 'event-update-pushes',
    lockId: ADVISORY_LOCKS.eventUpdatePushes,
    intervalMs: 3_000,
    async run(tx, now) {
      const { byEvent, stale } = await takeQueued(deps.database, tx, now);
      // Without Web Push configured nothing can be sent: the queue is still drained.
      if (!deps.push.enabled || byEvent.size === 0) return { summary: { stale }, afterCommit: () => deliver([]) };
      const recipients = (await recipientsOf(deps.database, tx, [...byEvent.keys()])).filter(
        (r) => !byEvent.get(r.event_id)!.actors.has(r.user_id),
      );
      const targets = await webPushTargetsOf(
        tx,
        recipients.map((r) => r.user_id),
      );
      const sends = recipients.flatMap((recipient) => {
        const message = eventUpdatePush(
          {
            eventId: recipient.event_id,
            title: recipient.title,
            startsAt: new Date(recipient.starts_at),
            change: byEvent.get(recipient.event_id)!.change,
            details: Boolean(recipient.details),
          },
          now,
        );
        return targets.filter((target) => target.userId === recipient.user_id).map((target) => ({ target, message }));
      });
      return { summary: { stale }, afterCommit: () => deliver(sends) };
    },
  };

  function deliver(sends: { target: MemberWebPushTarget; message: PushMessage }[]) {
    return sendPushes(deps, sends, 'event update pushes');
  }
}
