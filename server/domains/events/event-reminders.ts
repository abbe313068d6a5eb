// Event reminders: about 24 hours before an event, a Web Push to every member who RSVP'd `going`
// (confirmed, not pending), can still see the event, and has not turned event reminders off.
// Once per member and event: a delivery row claims the reminder in the job's transaction, so
// neither a restart nor a second process sends it again (the runner's advisory lock lets one
// process run the job at a time); the pushes go out after that commits, and a member none of
// whose browsers was reached loses the claim, to be tried on the next run. Delivery rows go once
// the event has ended.
//
// The payload carries no personal data unless the member allowed it (`pushShowsDetails`): by
// default a generic text and the event id, which the app resolves after sign-in.
import { and, eq, sql } from 'drizzle-orm';
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import type { Database, Tx } from '../../../db/client.js';
import { eventReminderDeliveries } from '../../../db/schema/index.js';
import type { Logger } from '../../log.js';
import type { PushMessage, WebPushSender } from '../../push/web-push.js';
import { deleteGoneSubscriptions, type MemberWebPushTarget, webPushTargetsOf } from '../../push/web-push-targets.js';
import type { JobWithFollowUp } from '../job.js';

export const REMINDER_LEAD_HOURS = 24;
const HOUR_MS = 3_600_000;
/** Members reminded per run; the rest follow on the next run (every few minutes). */
const BATCH = 200;
/** Members whose pushes are in flight at once. */
const PARALLEL = 16;

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

/** The message for one member; `details` is their `pushShowsDetails` preference. */
export function reminderMessage(
  reminder: { eventId: string; title: string; startsAt: Date; details: boolean },
  now: Date,
): PushMessage {
  const untilStart = reminder.startsAt.getTime() - now.getTime();
  const hours = Math.max(1, Math.round(untilStart / HOUR_MS));
  const when = `in about ${hours} hour${hours === 1 ? '' : 's'}`;
  const payload = reminder.details
    ? {
        type: 'event-reminder',
        title: reminder.title,
        body: `Starts ${when}.`,
        eventId: reminder.eventId,
        startsAt: reminder.startsAt.toISOString(),
      }
    : {
        type: 'event-reminder',
        title: 'Event reminder',
        body: `An event you're going to starts ${when}.`,
        eventId: reminder.eventId,
      };
  return {
    payload,
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
      where r.status = 'going' and not r.pending
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

/** Sends one member's reminder to each of their browsers; true when it reached at least one. */
async function remind(push: WebPushSender, reminder: DueReminder, targets: MemberWebPushTarget[], now: Date) {
  const message = reminderMessage(
    {
      eventId: reminder.event_id,
      title: reminder.title,
      startsAt: new Date(reminder.starts_at),
      details: Boolean(reminder.details),
    },
    now,
  );
  const outcomes = await Promise.all(
    targets.map(async (target) => ({ id: target.subscriptionId, outcome: await push.send(target, message) })),
  );
  return {
    delivered: outcomes.some((o) => o.outcome === 'delivered'),
    gone: outcomes.filter((o) => o.outcome === 'gone').map((o) => o.id),
    failed: outcomes.filter((o) => o.outcome === 'failed').length,
  };
}

export function createEventReminderJob(deps: {
  push: WebPushSender;
  log: Logger;
  database: Database;
}): JobWithFollowUp {
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
      if (!deps.push.enabled) return { summary: { cleaned }, afterCommit: async () => ({ sent: 0 }) };

      // Claimed in this transaction (a delivery row each), sent after it commits: a slow push
      // service then holds no connection (on PGlite, the only one). A member none of whose
      // browsers was reached gets their row back off, so the next run tries again.
      const due = await dueReminders(deps.database, tx, now);
      if (due.length === 0) return { summary: { cleaned }, afterCommit: async () => ({ sent: 0 }) };
      await tx
        .insert(eventReminderDeliveries)
        .values(due.map((r) => ({ eventId: r.event_id, userId: r.user_id, sentAt: now })))
        .onConflictDoNothing();
      const targets = await webPushTargetsOf(
        tx,
        due.map((r) => r.user_id),
      );
      return { summary: { cleaned }, afterCommit: () => deliver(due, targets, now) };
    },
  };

  async function deliver(due: DueReminder[], targets: MemberWebPushTarget[], now: Date) {
    let sent = 0;
    let failed = 0;
    const gone: string[] = [];
    const unreached: DueReminder[] = [];
    for (let i = 0; i < due.length; i += PARALLEL) {
      const batch = due.slice(i, i + PARALLEL);
      const results = await Promise.all(
        batch.map((r) =>
          remind(
            deps.push,
            r,
            targets.filter((target) => target.userId === r.user_id),
            now,
          ),
        ),
      );
      results.forEach((result, j) => {
        gone.push(...result.gone);
        failed += result.failed;
        if (result.delivered) sent += 1;
        else unreached.push(batch[j]!);
      });
    }
    const db = deps.database.db;
    // Not reached at all (push services failing): the claim goes, so the next run tries again.
    for (const r of unreached)
      await db
        .delete(eventReminderDeliveries)
        .where(and(eq(eventReminderDeliveries.eventId, r.event_id), eq(eventReminderDeliveries.userId, r.user_id)));
    await deleteGoneSubscriptions(db, gone);
    if (failed > 0) deps.log.warn({ failed }, 'event reminders: some pushes failed; they are retried next run');
    return { sent, goneSubscriptions: gone.length, failedPushes: failed };
  }
}
