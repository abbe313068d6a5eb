// A session's last-seen day (GET /api/me/sessions `lastSeenOn`), kept off the hot path: the
// session check runs on every request and already reads the row, so the day is compared in
// memory and written only when it changed — one conditional UPDATE per session per UTC day, on
// the first request of that day; every other request writes nothing. A day, not a moment: enough
// for a member to tell sessions apart, too coarse to trace anyone's hours.
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { sessions } from '../../db/schema/index.js';
import type { Database } from '../../db/client.js';
import type { Logger } from '../log.js';
import type { AuthenticatedSession } from './sessions.js';

/** The UTC calendar day of a moment, `YYYY-MM-DD` (a `date` column's value). */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Records that `auth`'s session was used on `now`'s day, unless the row already says so. A failed
 * write is logged and never fails the request (the day is a convenience, not a credential).
 */
export async function noteSessionSeen(
  deps: { database: Database; log: Logger },
  auth: AuthenticatedSession | null,
  now: Date,
): Promise<void> {
  if (!auth) return;
  const today = utcDay(now);
  const seen = auth.session.lastSeenOn;
  if (seen !== null && seen >= today) return;
  try {
    await deps.database.db
      .update(sessions)
      .set({ lastSeenOn: today })
      .where(and(eq(sessions.id, auth.session.id), or(isNull(sessions.lastSeenOn), lt(sessions.lastSeenOn, today))));
    auth.session.lastSeenOn = today;
  } catch (error) {
    deps.log.warn({ err: error }, 'session last-seen day not recorded');
  }
}
