// A deleted account's RSVPs go with the user row (ON DELETE CASCADE), but a `going` seat it held
// in an event with a capacity must pass to the first waiting member, as a withdrawal does. This
// cleaner runs inside the deletion's transaction: it takes the seat locks of the events still to
// come in id order (the order a grove ban takes them in, so the two cannot deadlock), deletes the
// RSVPs itself and promotes the waitlists.
import { and, eq, inArray } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { eventRsvps } from '../../../db/schema/index.js';
import type { AccountDataCleaner, AccountDeletionEnv } from '../manifest.js';
import { promoteWaitlist } from './waitlist.js';

export const freeSeatsOfDeletedMember: AccountDataCleaner = async (tx: Tx, userId: string, env: AccountDeletionEnv) => {
  const now = env.clock.now();
  const seated = await env.database.rows<{ id: string }>(
    sql`select e.id from events e
        where e.capacity is not null and e.ends_at > ${now.toISOString()}::timestamptz
          and exists (select 1 from event_rsvps r where r.event_id = e.id and r.user_id = ${userId}::uuid
                        and r.status = 'going' and r.waitlist_order is null)
        order by e.id for no key update of e`,
    tx,
  );
  if (seated.length === 0) return;
  const eventIds = seated.map((row) => row.id);
  await tx.delete(eventRsvps).where(and(eq(eventRsvps.userId, userId), inArray(eventRsvps.eventId, eventIds)));
  for (const eventId of eventIds) await promoteWaitlist(env.database, tx, eventId, now);
};
