// The `eventAnnouncement` kind of the push outbox (server/push/outbox.ts): one fan-out row per
// announcement, resolved at send time to its recipients who still hold their RSVP (approved,
// `going`, seated or waitlisted: a member who withdrew or was declined in the meantime gets
// nothing), can still see the event, have `push.eventUpdates` on (an announcement is news about
// an event they are going to) and a browser.
//
// The announcement's text is never in the payload: it is the organizer's words, read in the app
// after sign-in. With `pushShowsDetails` the title is the event's; otherwise a generic text and
// the ids only (as every event push). Texts: server/locales/<locale>/announcements.json.
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../../db/client.js';
import { type OutboxRow, type PushKind, rowValues } from '../../push/outbox.js';
import type { PushContent } from '../../push/push-texts.js';
import { rsvpMemberSeesEvent } from '../events/event-reminders.js';
import { WEEK_SECONDS } from '../events/event-update-pushes.js';

interface AnnouncementRecipient {
  row_id: number | string;
  user_id: string;
  announcement_id: string;
  event_id: string;
  title: string;
  ends_at: string | Date;
  details: boolean;
}

export function announcementPush(
  announcement: { id: string; eventId: string; title: string; endsAt: Date; details: boolean },
  now: Date,
): PushContent {
  const ids = { type: 'event-announcement', eventId: announcement.eventId, announcementId: announcement.id };
  const text: Pick<PushContent, 'title' | 'body'> = announcement.details
    ? { title: { verbatim: announcement.title }, body: { key: 'announcements.push.body' } }
    : { title: { key: 'announcements.push.titleGeneric' }, body: { key: 'announcements.push.bodyGeneric' } };
  const untilEnd = Math.floor((announcement.endsAt.getTime() - now.getTime()) / 1000);
  return {
    ...text,
    payload: ids,
    // Kept for an offline device while the event lasts (at least 10 minutes, at most a week).
    ttlSeconds: Math.min(WEEK_SECONDS, Math.max(600, untilEnd)),
    // Its own topic: an announcement does not replace the event's reminder, nor another announcement.
    topic: announcement.id.replace(/-/g, ''),
    urgency: 'high',
  };
}

export function eventAnnouncementPushKind(deps: { database: Database }): PushKind {
  return {
    kind: 'eventAnnouncement',
    async resolve(tx: Tx, rows: OutboxRow[], now: Date) {
      const recipients = await deps.database.rows<AnnouncementRecipient>(
        sql`
          select q.row_id, x.user_id, a.id as announcement_id, e.id as event_id, e.title, e.ends_at,
                 coalesce(p.push_shows_details, false) as details
          from (values ${rowValues(rows)}) as q(row_id, announcement_id, recipient_id)
          join event_announcements a on a.id = q.announcement_id
          join event_announcement_recipients x on x.announcement_id = a.id
            and (q.recipient_id is null or x.user_id = q.recipient_id)
          join event_rsvps r on r.event_id = a.event_id and r.user_id = x.user_id
          join events e on e.id = a.event_id
          left join notification_preferences p on p.user_id = r.user_id
          where r.status = 'going' and not r.pending
            and coalesce(p.push_event_updates, true)
            and exists (select 1 from push_subscriptions s where s.user_id = r.user_id and s.platform = 'web')
            and ${rsvpMemberSeesEvent}
          order by q.row_id, x.user_id`,
        tx,
      );
      return recipients.map((recipient) => ({
        rowId: Number(recipient.row_id),
        userId: recipient.user_id,
        message: announcementPush(
          {
            id: recipient.announcement_id,
            eventId: recipient.event_id,
            title: recipient.title,
            endsAt: new Date(recipient.ends_at),
            details: Boolean(recipient.details),
          },
          now,
        ),
      }));
    },
  };
}
