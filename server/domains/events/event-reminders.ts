// Event reminders: about 24 hours before an event, a Web Push to every member who RSVP'd `going`
// (confirmed, not pending), can still see the event, and has not turned event reminders off.
// Reminders are due at a time, not written by a request, so a scan finds them (every 5 minutes,
// the runner's advisory lock: one process at a time) and feeds the push outbox
// (server/push/outbox.ts), which sends, retries and prunes as for every other push.
// Once per member and event: a delivery row claims the reminder in the scan's transaction, which
// also writes its outbox row, so neither a restart nor a second process queues it again; a member
// none of whose browsers was reached (every retry failed, or every browser gone) loses the claim,
// to be found by a later scan. Delivery rows go once the event has ended.
//
// The payload carries no personal data unless the member allowed it (`pushShowsDetails`): by
// default a generic text and the event id, which the app resolves after sign-in.
import { sql } from 'drizzle-orm';
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import type { Database, Tx } from '../../../db/client.js';
import { eventReminderDeliveries, pushOutbox } from '../../../db/schema/index.js';
import { type PushKind, rowValues } from '../../push/outbox.js';
import type { PushContent } from '../../push/push-texts.js';
import type { WebPushSender } from '../../push/web-push.js';
import type { Job } from '../job.js';

export const REMINDER_LEAD_HOURS = 24;
const HOUR_MS = 3_600_000;
/** Members reminded per run; the rest follow on the next run (every few minutes). */
const BATCH = 200;

interface DueReminder {
  user_id: string;
  event_id: string;
  title: string;
  starts_at: string | Date;
  details: boolean;
}

/**
 * The member of RSVP row `r` may still see event `e`: server/domains/events/visibility.ts with
 * the member as a column rather than a bound viewer (an event that became invisible to them
 * sends them nothing). Shared with server/domains/events/event-update-pushes.ts.
 */
export const rsvpMemberSeesEvent = sql.raw(`(
          e.visibility = 'public'
          or (e.visibility = 'grove' and exists (select 1 from grove_members gm where gm.grove_id = e.host_grove_id and gm.user_id = r.user_id))
          or (e.visibility = 'friends' and (e.creator_id = r.user_id or exists (select 1 from friendships f where f.user_id = r.user_id and f.friend_id = e.creator_id)))
          or exists (select 1 from grove_members gm where gm.grove_id = e.host_grove_id and gm.user_id = r.user_id and gm.role = 'organizer')
          or exists (select 1 from organization_admins oa where oa.organization_id = e.host_organization_id and oa.user_id = r.user_id)
          or exists (select 1 from users u where u.id = r.user_id and u.role = 'admin')
        )`);

/**
 * The message for one member; `details` is their `pushShowsDetails` preference. Texts are catalog
 * keys (server/locales/<locale>/push.json), rendered in the member's language and zone when sent.
 */
export function reminderMessage(
  reminder: { eventId: string; title: string; startsAt: Date; details: boolean },
  now: Date,
): PushContent {
  const untilStart = reminder.startsAt.getTime() - now.getTime();
  const hours = Math.max(1, Math.round(untilStart / HOUR_MS));
  const text: Pick<PushContent, 'payload' | 'title' | 'body'> = reminder.details
    ? {
        payload: { type: 'event-reminder', eventId: reminder.eventId, startsAt: reminder.startsAt.toISOString() },
        title: { verbatim: reminder.title },
        body: { key: 'push.eventReminder.body', values: { hours, startsAt: { dateTime: reminder.startsAt } } },
      }
    : {
        payload: { type: 'event-reminder', eventId: reminder.eventId },
        title: { key: 'push.eventReminder.titleGeneric' },
        body: { key: 'push.eventReminder.bodyGeneric', values: { hours } },
      };
  return {
    ...text,
    // Useless once the event has started: the push service drops it rather than deliver it late.
    ttlSeconds: Math.max(60, Math.floor(untilStart / 1000)),
    // One pending reminder per event on a device (32 base64url characters at most).
    topic: reminder.eventId.replace(/-/g, ''),
    urgency: 'normal',
  };
}

async function dueReminders(database: Database, tx: Tx, now: Date): Promise<DueReminder[]> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + REMINDER_LEAD_HOURS * HOUR_MS).toISOString();
  return database.rows<DueReminder>(
    sql`
      select r.user_id, e.id as event_id, e.title, e.starts_at, coalesce(p.push_shows_details, false) as details
      from event_rsvps r
      join events e on e.id = r.event_id
      left join notification_preferences p on p.user_id = r.user_id
      where r.status = 'going' and not r.pending and r.waitlist_order is null
        and e.status <> 'cancelled'
        -- ends_at (indexed; an event ends after it starts) narrows the scan to events not yet over.
        and e.ends_at > ${at}::timestamptz
        and e.starts_at > ${at}::timestamptz and e.starts_at <= ${until}::timestamptz
        and coalesce(p.push_event_reminders, true)
        and not exists (select 1 from event_reminder_deliveries d where d.event_id = e.id and d.user_id = r.user_id)
        and exists (select 1 from push_subscriptions s where s.user_id = r.user_id and s.platform = 'web')
        and ${rsvpMemberSeesEvent}
      order by e.starts_at, r.id
      limit ${BATCH}`,
    tx,
  );
}

/**
 * The `eventReminder` kind of the push outbox: the rows the scan below wrote, each checked again
 * when it is sent (the event cancelled, started, or no longer visible since; the member no longer
 * going or wanting reminders: nothing), with the hours left worked out then.
 */
export function eventReminderPushKind(deps: { database: Database }): PushKind {
  return {
    kind: 'eventReminder',
    // A reminder makes sense until its event starts, which resolve checks (and its TTL ends then).
    goesStale: false,
    async resolve(tx, rows, now) {
      const values = rowValues(rows);
      const due = await deps.database.rows<DueReminder & { row_id: number | string }>(
        sql`
          select q.row_id, r.user_id, e.id as event_id, e.title, e.starts_at, coalesce(p.push_shows_details, false) as details
          from (values ${values}) as q(row_id, event_id, user_id)
          join event_rsvps r on r.event_id = q.event_id and r.user_id = q.user_id
          join events e on e.id = r.event_id
          left join notification_preferences p on p.user_id = r.user_id
          where r.status = 'going' and not r.pending and r.waitlist_order is null
            and e.status <> 'cancelled'
            and e.starts_at > ${now.toISOString()}::timestamptz
            and coalesce(p.push_event_reminders, true)
            and ${rsvpMemberSeesEvent}`,
        tx,
      );
      return due.map((reminder) => ({
        rowId: Number(reminder.row_id),
        userId: reminder.user_id,
        message: reminderMessage(
          {
            eventId: reminder.event_id,
            title: reminder.title,
            startsAt: new Date(reminder.starts_at),
            details: Boolean(reminder.details),
          },
          now,
        ),
      }));
    },
    // Reached on no browser (all gone, or every retry failed): the claim goes, so the next scan
    // tries again if the member still has a browser and the event is still ahead.
    async missed(database, misses) {
      const pairs = sql.join(
        misses.map((miss) => sql`(${miss.row.subject_id}::uuid, ${miss.userId}::uuid)`),
        sql`, `,
      );
      await database.rows(sql`delete from event_reminder_deliveries where (event_id, user_id) in (values ${pairs})`);
    },
  };
}

/**
 * The scan: claims the reminders now due (a delivery row each) and writes them to the push outbox,
 * in one transaction; the outbox job sends them.
 */
export function createEventReminderJob(deps: { push: WebPushSender; database: Database }): Job {
  return {
    name: 'event-reminders',
    lockId: ADVISORY_LOCKS.eventReminders,
    intervalMs: 5 * 60_000,
    async run(tx, now) {
      // Reminders of events that have ended are done with.
      const cleaned = (
        await deps.database.rows(
          sql`
          delete from event_reminder_deliveries d using events e
          where d.event_id = e.id and e.ends_at < ${now.toISOString()}::timestamptz
          returning d.event_id`,
          tx,
        )
      ).length;
      // Without Web Push configured nothing is claimed: reminders wait for a sender.
      if (!deps.push.enabled) return { cleaned, queued: 0 };
      const due = await dueReminders(deps.database, tx, now);
      if (due.length === 0) return { cleaned, queued: 0 };
      const claimed = await tx
        .insert(eventReminderDeliveries)
        .values(due.map((r) => ({ eventId: r.event_id, userId: r.user_id, sentAt: now })))
        .onConflictDoNothing()
        .returning({ eventId: eventReminderDeliveries.eventId, userId: eventReminderDeliveries.userId });
      if (claimed.length > 0)
        await tx.insert(pushOutbox).values(
          claimed.map((c) => ({
            kind: 'eventReminder' as const,
            subjectId: c.eventId,
            recipientId: c.userId,
            notBefore: now,
            createdAt: now,
          })),
        );
      return { cleaned, queued: claimed.length };
    },
  };
}
