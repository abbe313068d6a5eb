// Push notifications for one member (kinds `friendInviteAccepted` and `reportOutcome` of the push
// outbox, server/push/outbox.ts), written where they happen: someone accepted their friend invite
// (server/domains/friends/service.ts), or a report they filed was decided
// (server/domains/reports/admin.ts). The outbox job sends each member who has that kind on one
// Web Push per browser. A friendship ended or a report deleted before the job ran sends nothing;
// staleness and retries are the outbox's.
//
// The payload names nobody unless the member allowed details (`pushShowsDetails`), and never
// carries the moderators' notes.
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../../db/client.js';
import type { OutboxRow, PushKind } from '../../push/outbox.js';
import type { PushContent } from '../../push/push-texts.js';

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

/**
 * The push for one queued entry; `details` is the member's `pushShowsDetails` preference. Texts are
 * catalog keys (server/locales/<locale>/push.json), rendered in the member's language when sent.
 */
export function memberPush(due: Omit<Due, 'user_id'>): PushContent {
  if (due.kind === 'friendInvitesAccepted')
    return {
      payload: { type: 'friend-invite-accepted', userId: due.subject_id },
      title: { key: 'push.friendInviteAccepted.title' },
      body: due.details
        ? { key: 'push.friendInviteAccepted.body', values: { handle: due.friend_handle ?? '' } }
        : { key: 'push.friendInviteAccepted.bodyGeneric' },
      ttlSeconds: TTL_SECONDS,
      urgency: 'normal',
    };
  return {
    payload: { type: 'report-outcome', reportId: due.subject_id },
    title: { key: 'push.reportOutcome.title' },
    body: due.details
      ? { key: 'push.reportOutcome.body', values: { status: due.report_status ?? 'other' } }
      : { key: 'push.reportOutcome.bodyGeneric' },
    ttlSeconds: TTL_SECONDS,
    // The newest decision on a report replaces an undelivered older one.
    topic: due.subject_id.replace(/-/g, ''),
    urgency: 'normal',
  };
}

/** The claimed rows that are still true and wanted, with what their payloads need. */
async function dueOf(database: Database, tx: Tx, rows: OutboxRow[]): Promise<(Due & { row_id: number | string })[]> {
  const values = sql.join(
    rows.map(
      (row) =>
        sql`(${row.id}::bigint, ${row.recipient_id}::uuid, ${PREFERENCE_OF[row.kind as MemberKind]}, ${row.subject_id}::uuid)`,
    ),
    sql`, `,
  );
  return database.rows(
    sql`
      select q.row_id, q.user_id, q.kind, q.subject_id, coalesce(p.push_shows_details, false) as details,
             friend.handle as friend_handle, r.status as report_status
      from (values ${values}) as q(row_id, user_id, kind, subject_id)
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
}

type MemberKind = 'friendInviteAccepted' | 'reportOutcome';
/** Each kind's preference (notification_preferences), which is also its name in the query above. */
const PREFERENCE_OF = {
  friendInviteAccepted: 'friendInvitesAccepted',
  reportOutcome: 'reportOutcomes',
} as const satisfies Record<MemberKind, Due['kind']>;

function memberPushKind(kind: MemberKind, deps: { database: Database }): PushKind {
  return {
    kind,
    async resolve(tx, rows) {
      const due = await dueOf(deps.database, tx, rows);
      return due.map(({ row_id, ...entry }) => ({
        rowId: Number(row_id),
        userId: entry.user_id,
        message: memberPush({ ...entry, details: Boolean(entry.details) }),
      }));
    },
  };
}

/** The `friendInviteAccepted` kind of the push outbox. */
export const friendInviteAcceptedPushKind = (deps: { database: Database }) =>
  memberPushKind('friendInviteAccepted', deps);
/** The `reportOutcome` kind of the push outbox. */
export const reportOutcomePushKind = (deps: { database: Database }) => memberPushKind('reportOutcome', deps);
