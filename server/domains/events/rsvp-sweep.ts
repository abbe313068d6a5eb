// Deletes RSVP rows 30 days after their event ended (spec: "RSVP rows are deleted 30 days after
// the event"), and the event's meeting-point reveal log and shift signups with them (same
// cutoff, same run; the shifts themselves stay with the event, empty), and its announcements with
// their audience (nobody but organizers could list them once the RSVPs are gone).
// Runs periodically under the job runner's advisory lock: one runner at a time.
import { sql } from 'drizzle-orm';
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import type { Job } from '../job.js';
import { DAY_MS } from '../../lib/clock.js';

export const RSVP_RETENTION_DAYS = 30;

export const rsvpSweep: Job = {
  name: 'sweep-old-rsvps',
  lockId: ADVISORY_LOCKS.oldRsvpsSweep,
  intervalMs: 60 * 60_000,
  async run(tx, now) {
    const cutoff = new Date(now.getTime() - RSVP_RETENTION_DAYS * DAY_MS);
    const deleted = await tx.execute(sql`
      delete from event_rsvps r using events e
      where r.event_id = e.id and e.ends_at < ${cutoff.toISOString()}::timestamptz
      returning r.id`);
    const reveals = await tx.execute(sql`
      delete from event_reveals v using events e
      where v.event_id = e.id and e.ends_at < ${cutoff.toISOString()}::timestamptz
      returning v.id`);
    const signups = await tx.execute(sql`
      delete from event_shift_signups u using event_shifts s, events e
      where u.shift_id = s.id and s.event_id = e.id and e.ends_at < ${cutoff.toISOString()}::timestamptz
      returning u.id`);
    const announcements = await tx.execute(sql`
      delete from event_announcements a using events e
      where a.event_id = e.id and e.ends_at < ${cutoff.toISOString()}::timestamptz
      returning a.id`);
    const count = (result: unknown) =>
      Array.isArray(result) ? result.length : ((result as { rows?: unknown[] }).rows?.length ?? 0);
    return {
      rsvps: count(deleted),
      reveals: count(reveals),
      shiftSignups: count(signups),
      announcements: count(announcements),
    };
  },
};
