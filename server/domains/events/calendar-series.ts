// Events into an iCalendar (ical-generator), for every feed: the private RSVP feed (calendar.ts)
// and the public grove/organization feeds. A series becomes ONE VEVENT with RRULE and EXDATE
// (cancelled occurrences, and rule dates with no occurrence: exceptions, split-off parts), in the
// TZID of the series' zone, plus one VEVENT with RECURRENCE-ID per occurrence edited on its own.
// Pass every occurrence of a series the feed should show: a missing one is written as an EXDATE.
// With `groupSeries: false` (the private RSVP feed) every event is a VEVENT of its own.
import { type ICalCalendar, ICalEventStatus } from 'ical-generator';
import { calendarZone, wallClock } from './calendar-zones.js';
import type { EventOutput } from './schemas.js';
import { expandWalls, ruleForFeed, wallDate } from './series-expand.js';

export interface CalendarItemsOptions {
  /** PUBLIC_URL: event links and the UID's domain. */
  base: string;
  stamp: Date;
  groupSeries?: boolean;
  /** STATUS of a scheduled event (CONFIRMED unless given); cancelled ones are CANCELLED. */
  status?: (event: EventOutput) => ICalEventStatus;
}

/** `20261203T180000` of a wall string. */
const compact = (wall: string) => wall.replace(/[-:]/g, '');

export function addEventsToCalendar(calendar: ICalCalendar, items: EventOutput[], options: CalendarItemsOptions) {
  const base = options.base.replace(/\/$/, '');
  const host = new URL(base).host;
  const single = (e: EventOutput, extra: { id?: string; recurrenceId?: Date } = {}) => {
    const zone = calendarZone(e.timeZone);
    const at = (iso: string) => (zone ? wallClock(new Date(iso), zone) : new Date(iso));
    const where = [e.meetingPoint?.text, e.venueName, e.address, e.area]
      .filter((x): x is string => Boolean(x))
      .join(', ');
    return calendar.createEvent({
      id: extra.id ?? `${e._id}@${host}`,
      stamp: options.stamp,
      start: at(e.startsAt),
      end: at(e.endsAt),
      timezone: zone,
      recurrenceId: extra.recurrenceId ?? null,
      summary: e.title,
      description: e.description,
      location: where || null,
      url: `${base}/api/events/${e.slug}`,
      status: e.status === 'cancelled' ? ICalEventStatus.CANCELLED : (options.status?.(e) ?? ICalEventStatus.CONFIRMED),
    });
  };
  const bySeries = new Map<string, EventOutput[]>();
  for (const e of items) {
    if (options.groupSeries === false || !e.series) single(e);
    else bySeries.set(e.series._id, [...(bySeries.get(e.series._id) ?? []), e]);
  }
  for (const [seriesId, occurrences] of bySeries) {
    const s = occurrences[0]!.series!;
    const zone = calendarZone(s.timeZone);
    // A wall time as ical-generator wants it: UTC fields = local time (or the UTC instant without a zone).
    const wall = (w: string) => wallDate(w);
    let walls: string[];
    try {
      walls = expandWalls(s.rule, s.start);
    } catch {
      for (const e of occurrences) single(e);
      continue;
    }
    const byWall = new Map(occurrences.map((e) => [e.series!.occurrence, e]));
    const live = (e: EventOutput | undefined) => e !== undefined && e.status !== 'cancelled';
    const exdates = walls.filter((w) => !live(byWall.get(w)));
    // The series' own fields: those of its latest occurrence that follows the rule.
    const plain = occurrences.filter((e) => live(e) && !e.series!.overridden);
    const master = plain[plain.length - 1] ?? occurrences[occurrences.length - 1]!;
    const uid = `series-${seriesId}@${host}`;
    const exdateLines = exdates.map((w) => (zone ? `EXDATE;TZID=${zone}:${compact(w)}` : `EXDATE:${compact(w)}Z`));
    const event = single(master, { id: uid });
    event.start(wall(s.start));
    event.end(new Date(wall(s.start).getTime() + s.durationSeconds * 1000));
    event.status(ICalEventStatus.CONFIRMED);
    event.url(`${base}/api/events?series=${seriesId}`);
    event.repeating([`RRULE:${ruleForFeed(s.rule, zone)}`, ...exdateLines].join('\r\n'));
    for (const e of occurrences) {
      if (live(e) && e.series!.overridden && walls.includes(e.series!.occurrence))
        single(e, { id: uid, recurrenceId: wall(e.series!.occurrence) });
    }
  }
}
