// An event's own IANA time zone: given by the organizer, else derived offline (tz-lookup, no
// network call) from where the event publicly is. In order: the event's place, its meeting point
// when that is shown to everyone, the centre of the hosting grove's region box; else UTC.
//
// Privacy: an RSVP-only meeting point is never a source. A zone is coarse, but not always (some
// zones cover a county or a single valley: America/Indiana/Tell_City, Asia/Urumqi), and the
// zone is public like the start time; deriving it from the hidden point would hand everyone a
// clue to where it is. Organizers who want the venue's zone there set `timeZone` themselves.
import tzLookup from '@photostructure/tz-lookup';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { groves, places } from '../../../db/schema/index.js';

export const FALLBACK_TIME_ZONE = 'UTC';

/** Region ids and UTC only: no "+01:00" offsets (newer ICU accepts them, they are no zone). */
const ZONE_NAME = /^(?:UTC|[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+)$/;

/** True for an IANA zone id this runtime knows (canonical ids and their aliases). */
export function isIanaTimeZone(value: string): boolean {
  if (!ZONE_NAME.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The zone at a point, or null when the lookup cannot answer (invalid coordinates). */
export function zoneAt(lat: number, lng: number): string | null {
  try {
    const zone = tzLookup(lat, lng);
    // The lookup answers "Etc/GMT+5" and the like at sea: an offset without daylight rules, kept.
    return isIanaTimeZone(zone) ? zone : null;
  } catch {
    return null;
  }
}

export interface ZoneSources {
  placeId?: string | null;
  /** The meeting point's coordinates; used only when the point is shown to everyone. */
  meetingPoint?: { lng: number; lat: number } | null;
  meetingPointVisibility?: 'everyone' | 'rsvp';
  groveId?: string | null;
}

/** The zone an event gets when the organizer did not choose one. */
export async function deriveEventTimeZone(db: DbOrTx, sources: ZoneSources): Promise<string> {
  if (sources.placeId) {
    const [place] = await db
      .select({ lng: sql<number>`st_x(${places.location})`, lat: sql<number>`st_y(${places.location})` })
      .from(places)
      .where(eq(places.id, sources.placeId))
      .limit(1);
    const zone = place ? zoneAt(Number(place.lat), Number(place.lng)) : null;
    if (zone) return zone;
  }
  if (sources.meetingPoint && sources.meetingPointVisibility === 'everyone') {
    const zone = zoneAt(sources.meetingPoint.lat, sources.meetingPoint.lng);
    if (zone) return zone;
  }
  if (sources.groveId) {
    const [box] = await db
      .select({
        west: groves.regionWest,
        south: groves.regionSouth,
        east: groves.regionEast,
        north: groves.regionNorth,
      })
      .from(groves)
      .where(eq(groves.id, sources.groveId))
      .limit(1);
    if (box && box.west !== null && box.south !== null && box.east !== null && box.north !== null) {
      const centre = regionCentre({ west: box.west, south: box.south, east: box.east, north: box.north });
      const zone = zoneAt(centre.lat, centre.lng);
      if (zone) return zone;
    }
  }
  return FALLBACK_TIME_ZONE;
}

/** The middle of a region box, also when it crosses the antimeridian (west > east). */
export function regionCentre(box: { west: number; south: number; east: number; north: number }) {
  const east = box.east < box.west ? box.east + 360 : box.east;
  let lng = (Number(box.west) + Number(east)) / 2;
  if (lng > 180) lng -= 360;
  return { lng, lat: (Number(box.south) + Number(box.north)) / 2 };
}
