// Guest rows follow members' RSVPs (events/rsvp-sweep.ts): deleted 30 days after their event
// ended, with the guests' reveal log. Rows never confirmed go once their link has expired.
import { sql } from 'drizzle-orm';
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import { DAY_MS } from '../../lib/clock.js';
import { RSVP_RETENTION_DAYS } from '../events/rsvp-sweep.js';
import type { Job } from '../job.js';

const count = (result: unknown) =>
  Array.isArray(result) ? result.length : ((result as { rows?: unknown[] }).rows?.length ?? 0);

export const guestRsvpSweep: Job = {
  name: 'sweep-guest-rsvps',
  lockId: ADVISORY_LOCKS.guestRsvpsSweep,
  intervalMs: 15 * 60_000,
  async run(tx, now) {
    const cutoff = new Date(now.getTime() - RSVP_RETENTION_DAYS * DAY_MS).toISOString();
    const old = await tx.execute(sql`
      delete from event_guest_rsvps g using events e
      where g.event_id = e.id and e.ends_at < ${cutoff}::timestamptz
      returning g.id`);
    const reveals = await tx.execute(sql`
      delete from event_guest_reveals v using events e
      where v.event_id = e.id and e.ends_at < ${cutoff}::timestamptz
      returning v.id`);
    const unconfirmed = await tx.execute(sql`
      delete from event_guest_rsvps
      where confirmed_at is null and confirm_expires_at <= ${now.toISOString()}::timestamptz
      returning id`);
    return { guestRsvps: count(old), guestReveals: count(reveals), unconfirmed: count(unconfirmed) };
  },
};
