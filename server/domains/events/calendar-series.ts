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

/**
 * One event as a feed writes it. Each feed builds these from what it may show: the private feed
 * from the member's event outputs (meeting point included), the public feeds from their own
 * public columns (never a meeting point).
 */
export interface CalendarItem {
  id: string;
  title: string;
  description: string;
  startsAt: string | Date;
  endsAt: string | Date;
  timeZone: string | null;
  status: 'scheduled' | 'cancelled';
  location: string | null;
  url: string;
  series: EventOutput['series'];
  /** DTSTAMP (and LAST-MODIFIED) of this event; the options' stamp when absent. */
  updatedAt?: Date;
  createdAt?: Date;
  /** STATUS of a scheduled event (CONFIRMED unless given); cancelled ones are CANCELLED. */
  scheduledStatus?: ICalEventStatus;
}

export interface CalendarItemsOptions {
  /** PUBLIC_URL: the UID's domain and the series' link. */
  base: string;
  stamp: Date;
  groupSeries?: boolean;
}

/** `20261203T180000` of a wall string. */
const compact = (wall: string) => wall.replace(/[-:]/g, '');

export function addEventsToCalendar(calendar: ICalCalendar, items: CalendarItem[], options: CalendarItemsOptions) {
  const base = options.base.replace(/\/$/, '');
  const host = new URL(base).host;
  const single = (e: CalendarItem, extra: { id?: string; recurrenceId?: Date } = {}) => {
    const zone = calendarZone(e.timeZone);
    const at = (instant: string | Date) => (zone ? wallClock(new Date(instant), zone) : new Date(instant));
    return calendar.createEvent({
      id: extra.id ?? `${e.id}@${host}`,
      stamp: e.updatedAt ?? options.stamp,
      created: e.createdAt ?? null,
      lastModified: e.updatedAt ?? null,
      start: at(e.startsAt),
      end: at(e.endsAt),
      timezone: zone,
      recurrenceId: extra.recurrenceId ?? null,
      summary: e.title,
      description: e.description || null,
      location: e.location || null,
      url: e.url,
      status: e.status === 'cancelled' ? ICalEventStatus.CANCELLED : (e.scheduledStatus ?? ICalEventStatus.CONFIRMED),
    });
  };
  const bySeries = new Map<string, CalendarItem[]>();
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
    const live = (e: CalendarItem | undefined) => e !== undefined && e.status !== 'cancelled';
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
