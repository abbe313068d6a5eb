// Local time in the calendar feed: each event is written in its own zone (`DTSTART;TZID=Europe/
// Berlin:20260601T180000`) with the zone's VTIMEZONE block, so a calendar app shows "18:00 in
// Berlin" and keeps it right across a daylight-saving change, as the organizer meant it. The
// blocks come from timezones-ical-library (the IANA database compiled by vzic, offline).
// ical-generator writes a Date's UTC fields as the local time once a zone is set, so the
// instant is first turned into the zone's wall-clock time (`wallClock`).
// UTC events, and a zone the library does not know, stay in UTC (`DTSTART:…Z`).
import { tzlib_get_ical_block } from 'timezones-ical-library';

const UTC_ZONES = new Set(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT', 'Etc/Universal', 'Etc/Zulu']);

/** The VTIMEZONE block and the TZID it declares (an alias resolves to its canonical id), or null. */
function vtimezone(zone: string): { tzid: string; block: string } | null {
  try {
    const found = tzlib_get_ical_block(zone);
    if (!Array.isArray(found) || !found[0] || !found[1]) return null;
    const tzid = found[1].replace(/^TZID=/, '');
    return tzid ? { tzid, block: found[0] } : null;
  } catch {
    return null;
  }
}

/** The zone to write an event in: its TZID when there is a VTIMEZONE for it, else null (UTC). */
export function calendarZone(zone: string | null | undefined): string | null {
  if (!zone || UTC_ZONES.has(zone)) return null;
  const found = vtimezone(zone);
  return found && !UTC_ZONES.has(found.tzid) ? found.tzid : null;
}

/** For ical-generator's `timezone.generator`: the VTIMEZONE block of a TZID from calendarZone. */
export function vtimezoneBlock(tzid: string): string | null {
  return vtimezone(tzid)?.block ?? null;
}

/** A Date whose UTC fields are the wall-clock time of `instant` in `zone` (what ical-generator writes). */
export function wallClock(instant: Date, zone: string): Date {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return new Date(
    Date.UTC(
      Number(parts.year),
      Number(parts.month) - 1,
      Number(parts.day),
      Number(parts.hour),
      Number(parts.minute),
      Number(parts.second),
    ),
  );
}
