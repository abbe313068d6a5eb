// Push notifications for one member, queued where they happen (member_push_queue): someone
// accepted their friend invite (server/domains/friends/service.ts), or a report they filed was
// decided (server/domains/reports/admin.ts). Every few seconds the job takes the queue and sends
// each member who has that kind on one Web Push per browser. As for message pushes, the queue is
// taken in the runner's transaction and the pushes go out after it commits; an entry queued
// too long is dropped (push-queue.ts). A friendship ended or a report deleted before the job ran
// sends nothing.
//
// The payload names nobody unless the member allowed details (`pushShowsDetails`), and never
// carries the moderators' notes.
import { sql } from 'drizzle-orm';
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import type { Database, Tx } from '../../../db/client.js';
import type { Logger } from '../../log.js';
import type { PushMessage, WebPushSender } from '../../push/web-push.js';
import { type MemberWebPushTarget, sendPushes, webPushTargetsOf } from '../../push/web-push-targets.js';
import { takeFromPushQueue } from '../../push/push-queue.js';
import type { JobWithFollowUp } from '../job.js';

const TTL_SECONDS = 7 * 24 * 3600;

/** A queued push that is still true and wanted, with what its payload needs. */
interface Due {
  user_id: string;
  kind: 'friendInvitesAccepted' | 'reportOutcomes';
  subject_id: string;
  details: boolean;
  /** The new friend's handle (friendInvitesAccepted). */
  friend_handle: string | null;
  /** The decision (reportOutcomes). */
  report_status: 'resolved' | 'dismissed' | null;
}

/** The push for one queued entry; `details` is the member's `pushShowsDetails` preference. */
export function memberPush(due: Omit<Due, 'user_id'>): PushMessage {
  if (due.kind === 'friendInvitesAccepted')
    return {
      payload: {
        type: 'friend-invite-accepted',
        title: 'New friend',
        body: due.details
          ? `@${due.friend_handle} accepted your friend invite.`
          : 'Someone accepted your friend invite.',
        userId: due.subject_id,
      },
      ttlSeconds: TTL_SECONDS,
      urgency: 'normal',
    };
  return {
    payload: {
      type: 'report-outcome',
      title: 'Report update',
      body: due.details ? `Your report was ${due.report_status}.` : 'A report you filed was decided.',
      reportId: due.subject_id,
    },
    ttlSeconds: TTL_SECONDS,
    // The newest decision on a report replaces an undelivered older one.
    topic: due.subject_id.replace(/-/g, ''),
    urgency: 'normal',
  };
}

/** Takes a batch of entries off the queue; the fresh ones that are still true and wanted. */
async function takeDue(database: Database, tx: Tx, now: Date): Promise<{ due: Due[]; stale: number }> {
  const { fresh, stale } = await takeFromPushQueue<{
    user_id: string;
    kind: Due['kind'];
    subject_id: string;
    queued_at: Date;
  }>(database, tx, 'member_push_queue', now);
  if (fresh.length === 0) return { due: [], stale };
  const values = sql.join(
    fresh.map((f) => sql`(${f.user_id}::uuid, ${f.kind}, ${f.subject_id}::uuid)`),
    sql`, `,
  );
  const due = await database.rows<Due>(
    sql`
      select q.user_id, q.kind, q.subject_id, coalesce(p.push_shows_details, false) as details,
             friend.handle as friend_handle, r.status as report_status
      from (values ${values}) as q(user_id, kind, subject_id)
      left join notification_preferences p on p.user_id = q.user_id
      left join users friend on q.kind = 'friendInvitesAccepted' and friend.id = q.subject_id
      left join reports r on q.kind = 'reportOutcomes' and r.id = q.subject_id and r.reporter_id = q.user_id
      where case q.kind
          when 'friendInvitesAccepted' then coalesce(p.push_friend_invites_accepted, true)
            and exists (select 1 from friendships f where f.user_id = q.user_id and f.friend_id = q.subject_id)
          when 'reportOutcomes' then coalesce(p.push_report_outcomes, true) and r.status in ('resolved', 'dismissed')
          else false
        end
        and exists (select 1 from push_subscriptions s where s.user_id = q.user_id and s.platform = 'web')`,
    tx,
  );
  return { due, stale };
}

export function createMemberPushJob(deps: { push: WebPushSender; log: Logger; database: Database }): JobWithFollowUp {
  return {
    name: 'member-pushes',
    lockId: ADVISORY_LOCKS.memberPushes,
    intervalMs: 3_000,
    async run(tx, now) {
      const { due, stale } = await takeDue(deps.database, tx, now);
      // Without Web Push configured nothing can be sent: the queue is still drained.
      if (!deps.push.enabled || due.length === 0) return { summary: { stale }, afterCommit: () => deliver([]) };
      const targets = await webPushTargetsOf(
        tx,
        due.map((d) => d.user_id),
      );
      const sends = due.flatMap((entry) => {
        const message = memberPush({ ...entry, details: Boolean(entry.details) });
        return targets.filter((target) => target.userId === entry.user_id).map((target) => ({ target, message }));
      });
      return { summary: { stale }, afterCommit: () => deliver(sends) };
    },
  };

  function deliver(sends: { target: MemberWebPushTarget; message: PushMessage }[]) {
    return sendPushes(deps, sends, 'member pushes');
  }
}
