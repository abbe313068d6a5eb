// Event times as people read them: in the viewer's zone (the i18n runtime's viewer: account,
// else browser, else UTC), and in the venue's own zone too when its clock differs there:
// "Sat 5 Dec 2026, 18:00 in Berlin · 12:00 your time". Calendar-day helpers for the agenda and
// month views read days in the viewer's zone as well.
import { fmt, t } from '../server/i18n.js';

// Intl formatters are costly to build: one per (locale, zone, style).
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string, timeZone: string, style: string, options: Intl.DateTimeFormatOptions) {
  const key = `${locale}|${timeZone}|${style}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formatters.set(key, made);
  }
  return made;
}

/** The calendar day "2026-12-05" of an instant in `timeZone`. */
export function dayIn(date: Date | string, timeZone: string): string {
  return formatter('en-CA', timeZone, 'day', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(date),
  );
}

/** "2026-12-05" plus `days` (calendar arithmetic, no zone involved). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The zone's offset from UTC at that instant, as Intl spells it ("GMT+01:00"). */
function offsetAt(date: Date, timeZone: string): string {
  const parts = formatter('en-US', timeZone, 'offset', { timeZoneName: 'longOffset' }).formatToParts(date);
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
}

/** "Berlin" from Europe/Berlin, "Buenos Aires" from America/Argentina/Buenos_Aires; UTC stays UTC. */
export function zoneCity(timeZone: string): string {
  if (timeZone === 'UTC' || timeZone.startsWith('Etc/')) return timeZone.replace(/^Etc\//, '');
  return (timeZone.split('/').pop() ?? timeZone).replaceAll('_', ' ');
}

/** Start (and end) in one zone: "5 Dec 2026, 18:00 – 21:00"; `withDate: false` drops the date. */
function rangeIn(start: Date, end: Date | null, timeZone: string, withDate: boolean): string {
  const { locale } = fmt();
  const options: Intl.DateTimeFormatOptions = withDate
    ? { dateStyle: 'medium', timeStyle: 'short' }
    : { timeStyle: 'short' };
  const format = formatter(locale, timeZone, withDate ? 'range-date' : 'range-time', options);
  return end ? format.formatRange(start, end) : format.format(start);
}

/**
 * When an event happens. One reading when the venue's clock and the viewer's agree at the start;
 * else both, the venue's first: "5 Dec 2026, 18:00 in Berlin · 12:00 your time" (the viewer's
 * part keeps its date only when the day differs).
 */
export function EventTime({ startsAt, endsAt, timeZone }: { startsAt: string; endsAt?: string; timeZone: string }) {
  const { viewer } = fmt();
  const start = new Date(startsAt);
  const end = endsAt ? new Date(endsAt) : null;
  const mine = viewer.timeZone;
  if (offsetAt(start, timeZone) === offsetAt(start, mine)) {
    return (
      <time datetime={startsAt} class="event-time">
        {rangeIn(start, end, mine, true)}
      </time>
    );
  }
  const sameDay = dayIn(start, timeZone) === dayIn(start, mine);
  const yours = rangeIn(start, end, mine, !sameDay);
  return (
    <span class="event-time">
      <time datetime={startsAt}>
        {t('events.time.atVenue', { time: rangeIn(start, end, timeZone, true), city: zoneCity(timeZone) })}
      </time>
      {' · '}
      <span>
        {viewer.timeZoneSource === 'utc'
          ? t('events.time.inUtc', { time: yours })
          : t('events.time.yours', { time: yours })}
      </span>
    </span>
  );
}
