// Events created before the time_zone column (migration 0044_event_time_zone) have none: this
// job gives them the zone a new event would get (time-zone.ts: place, public meeting point,
// grove region, else UTC), in batches, shortly after start. The lookup is JavaScript
// (tz-lookup), so SQL in the migration could not do it. Once every row has a zone each run is
// one lookup in an empty partial index (events_time_zone_missing_idx): new events always get one.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import { events } from '../../../db/schema/index.js';
import type { Job } from '../job.js';
import { deriveEventTimeZone } from './time-zone.js';

const BATCH = 500;

export const eventTimeZoneBackfill: Job = {
  name: 'backfill-event-time-zones',
  lockId: ADVISORY_LOCKS.eventTimeZoneBackfill,
  intervalMs: 60 * 60_000,
  async run(tx) {
    const rows = await tx
      .select({
        id: events.id,
        placeId: events.placeId,
        groveId: events.hostGroveId,
        visibility: events.meetingPointVisibility,
        lng: sql<number | null>`st_x(${events.meetingPointLocation})`,
        lat: sql<number | null>`st_y(${events.meetingPointLocation})`,
      })
      .from(events)
      .where(isNull(events.timeZone))
      .limit(BATCH);
    for (const row of rows) {
      const timeZone = await deriveEventTimeZone(tx, {
        placeId: row.placeId,
        meetingPoint: row.lng === null || row.lat === null ? null : { lng: Number(row.lng), lat: Number(row.lat) },
        meetingPointVisibility: row.visibility,
        groveId: row.groveId,
      });
      await tx
        .update(events)
        .set({ timeZone })
        .where(and(eq(events.id, row.id), isNull(events.timeZone)));
    }
    return { filled: rows.length };
  },
};
