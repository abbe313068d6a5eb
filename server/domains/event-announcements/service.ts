// Event announcements (issue #26): an organizer sends a short text to the members of an event
// going (and, if asked, waitlisted). The audience is fixed at send time and stored
// (event_announcement_recipients): approved `going` RSVPs (seated; waitlisted ones too with
// `includeWaitlisted`) of members who can still see the event, the author left out. Pending
// RSVPs are not sent anything (an organizer has not let them in yet).
//
// A member lists an announcement while they were sent it and are still going or waitlisted: one
// who withdrew (their RSVP row is gone) or was declined lists nothing any more, and the push
// kind (pushes.ts) checks the same before sending. Members see no author: the announcement is
// from the event (docs/safety.md: organizing duties win over a block, so a member who blocked the
// organizer still gets it, without the organizer's name).
import { eq, sql } from 'drizzle-orm';
import { newId } from '../../../db/ids.js';
import { events } from '../../../db/schema/index.js';
import { enforceRateLimit } from '../../auth/rate-limit.js';
import { AppError } from '../../errors.js';
import { decodeCursor, encodeCursor } from '../../lib/pagination.js';
import type { MemberServiceContext } from '../../service/context.js';
import { userRoom } from '../../shared/realtime-publisher.js';
import { rsvpMemberSeesEvent } from '../events/event-reminders.js';
import { visibleEvent } from '../events/service.js';
import { viewerOf } from '../events/visibility.js';
import {
  ANNOUNCEMENTS_PER_EVENT_PER_DAY,
  ANNOUNCEMENTS_PER_EVENT_PER_HOUR,
  ANNOUNCEMENTS_PER_ORGANIZER_PER_DAY,
  type AnnouncementOutput,
  type AnnouncementServerToClientEvents,
} from './schemas.js';

/** The socket.io event each recipient's `user:<id>` room gets (payload: `{ announcement }`, no organizer fields). */
export const ANNOUNCEMENT_REALTIME_EVENT = 'event.announcement' satisfies keyof AnnouncementServerToClientEvents;

interface AnnouncementRow {
  id: string;
  event_id: string;
  text: string;
  include_waitlisted: boolean;
  created_at: Date | string;
  author: string | null;
  recipients: number;
}

function toAnnouncement(row: AnnouncementRow, organizes: boolean): AnnouncementOutput {
  return {
    _id: row.id,
    eventId: row.event_id,
    text: row.text,
    audience: row.include_waitlisted ? 'goingAndWaitlisted' : 'going',
    createdAt: new Date(row.created_at).toISOString(),
    ...(organizes ? { author: row.author, recipientCount: Number(row.recipients) } : {}),
  };
}

const HOUR_SECONDS = 3600;

/** The event's organizers only (403 for others who can see it, 404 for the rest); not after the event ended. */
export async function createAnnouncement(
  ctx: MemberServiceContext,
  input: { id: string; text: string; includeWaitlisted?: boolean },
) {
  const row = await visibleEvent(ctx.db, viewerOf(ctx), eq(events.id, input.id));
  if (!row.organizes) throw new AppError('forbidden', "Only the event's organizers send announcements.");
  const now = ctx.clock.now();
  // A cancelled event still takes them ("cancelled because of the storm"); one that is over does not.
  if (new Date(row.event.endsAt) <= now) throw new AppError('conflict', 'The event is over.');
  // Counted only for organizers, so nobody else can use up an event's announcements.
  await enforceRateLimit(
    ctx,
    { scope: 'announcements:event-hour', limit: ANNOUNCEMENTS_PER_EVENT_PER_HOUR, windowSeconds: HOUR_SECONDS },
    [input.id],
    now,
  );
  await enforceRateLimit(
    ctx,
    { scope: 'announcements:event-day', limit: ANNOUNCEMENTS_PER_EVENT_PER_DAY, windowSeconds: 24 * HOUR_SECONDS },
    [input.id],
    now,
  );
  await enforceRateLimit(
    ctx,
    {
      scope: 'announcements:organizer-day',
      limit: ANNOUNCEMENTS_PER_ORGANIZER_PER_DAY,
      windowSeconds: 24 * HOUR_SECONDS,
    },
    [ctx.user.id],
    now,
  );
  const id = newId();
  const includeWaitlisted = input.includeWaitlisted ?? false;
  const at = now.toISOString();
  const recipients = await ctx.withTransaction(async ({ tx }) => {
    await ctx.database.rows(
      sql`insert into event_announcements (id, event_id, author_id, text, include_waitlisted, created_at)
          values (${id}::uuid, ${input.id}::uuid, ${ctx.user.id}::uuid, ${input.text}, ${includeWaitlisted}, ${at}::timestamptz)`,
      tx,
    );
    const sent = await ctx.database.rows<{ user_id: string }>(
      sql`insert into event_announcement_recipients (announcement_id, user_id)
          select ${id}::uuid, r.user_id
          from event_rsvps r join events e on e.id = r.event_id
          where r.event_id = ${input.id}::uuid and r.status = 'going' and not r.pending
            and (r.waitlist_order is null or ${includeWaitlisted})
            and r.user_id <> ${ctx.user.id}::uuid
            and ${rsvpMemberSeesEvent}
          returning user_id`,
      tx,
    );
    // One fan-out row: the push kind resolves the recipients who still hold their RSVP at send time.
    if (sent.length > 0)
      await ctx.database.rows(
        sql`insert into push_outbox (kind, subject_id, actor_id, not_before, created_at)
            values ('eventAnnouncement', ${id}::uuid, ${ctx.user.id}::uuid, ${at}::timestamptz, ${at}::timestamptz)`,
        tx,
      );
    return sent.map((r) => r.user_id);
  });
  const stored: AnnouncementRow = {
    id,
    event_id: input.id,
    text: input.text,
    include_waitlisted: includeWaitlisted,
    created_at: now,
    author: ctx.user.handle,
    recipients: recipients.length,
  };
  // Recipients get what they would list: no author, no count.
  const forMembers = toAnnouncement(stored, false);
  ctx.afterCommit(() => {
    try {
      for (const userId of recipients)
        ctx.realtime.publisher.emit(userRoom(userId), ANNOUNCEMENT_REALTIME_EVENT, { announcement: forMembers });
    } catch (error) {
      ctx.log.warn({ err: error, event: ANNOUNCEMENT_REALTIME_EVENT }, 'realtime publish failed');
    }
  });
  return toAnnouncement(stored, true);
}

/**
 * Newest first. Organizers: every announcement of the event, with author and recipient count.
 * Members whose approved RSVP is `going` (seated or waitlisted): those they were sent. Others who
 * can see the event 403, the rest 404.
 */
export async function listAnnouncements(
  ctx: MemberServiceContext,
  input: { id: string; cursor?: string; limit: number },
) {
  const row = await visibleEvent(ctx.db, viewerOf(ctx), eq(events.id, input.id));
  const organizes = Boolean(row.organizes);
  if (!organizes) {
    const [rsvp] = await ctx.database.rows<{ id: string }>(
      sql`select id from event_rsvps where event_id = ${input.id}::uuid and user_id = ${ctx.user.id}::uuid
            and status = 'going' and not pending`,
    );
    if (!rsvp) throw new AppError('forbidden', "Only the event's organizers and members going see its announcements.");
  }
  const before = input.cursor === undefined ? sql`` : sql`and a.id < ${decodeCursor(input.cursor)}::uuid`;
  const mine = organizes
    ? sql``
    : sql`and exists (select 1 from event_announcement_recipients x where x.announcement_id = a.id and x.user_id = ${ctx.user.id}::uuid)`;
  const rows = await ctx.database.rows<AnnouncementRow>(
    sql`select a.id, a.event_id, a.text, a.include_waitlisted, a.created_at, u.handle as author,
               (select count(*)::int from event_announcement_recipients x where x.announcement_id = a.id) as recipients
        from event_announcements a left join users u on u.id = a.author_id
        where a.event_id = ${input.id}::uuid ${mine} ${before}
        order by a.id desc
        limit ${input.limit + 1}`,
  );
  const more = rows.length > input.limit;
  const items = rows.slice(0, input.limit);
  return {
    items: items.map((r) => toAnnouncement(r, organizes)),
    nextCursor: more ? encodeCursor(items[items.length - 1]!.id) : null,
  };
}
