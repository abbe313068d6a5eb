// A translator bound to one viewer (locale and time zone): `t(key, values)` for messages and the
// Intl helpers for dates, times, numbers and lists. One format per locale: every date a page
// shows goes through these, so a post, a message and an event read alike.
import type { Catalog, MessageValues } from './catalog.js';
import { direction, type Locale } from './locales.js';
import { daysBetween } from './time-zones.js';

export interface Viewer {
  locale: Locale;
  /** An IANA zone name, already validated (isTimeZone). */
  timeZone: string;
  /** Where the zone came from, so the page can say it ("Times in Europe/Berlin (your browser)"). */
  timeZoneSource: 'account' | 'browser' | 'utc';
}

export type DateInput = Date | string | number;

export interface Translator {
  readonly viewer: Viewer;
  readonly locale: Locale;
  readonly timeZone: string;
  readonly dir: 'ltr' | 'rtl';
  /** The message `key` (`namespace.path.to.key`) with its ICU placeholders filled. */
  t(key: string, values?: MessageValues): string;
  /**
   * A message with tags (`Read the <link>guide</link>`): tag values are functions that wrap their
   * chunks (e.g. in JSX); the result is an array of strings and whatever those functions return.
   */
  rich<T>(key: string, values: Record<string, unknown | ((chunks: Array<string | T>) => T)>): Array<string | T>;
  /** "27 Nov 2026, 18:00" in the viewer's locale and zone (or `timeZone` when given: a venue's). */
  formatDateTime(date: DateInput, options?: { timeZone?: string }): string;
  /** "27 Nov 2026". */
  formatDate(date: DateInput, options?: { timeZone?: string; style?: 'medium' | 'long' | 'full' }): string;
  /** "18:00" (or "6:00 PM" in English). */
  formatTime(date: DateInput, options?: { timeZone?: string }): string;
  /** "Today", "Tomorrow", "Yesterday", else the weekday within a week, else the date. */
  formatRelativeDay(date: DateInput, now?: Date): string;
  formatNumber(value: number, options?: Intl.NumberFormatOptions): string;
  /** "a, b and c" (`type: 'disjunction'`: "a, b or c"). */
  formatList(items: readonly string[], type?: 'conjunction' | 'disjunction'): string;
}

// Intl formatters are costly to build and safe to share: one per (locale, zone, style).
const formatters = new Map<string, Intl.DateTimeFormat>();
function dateTimeFormat(locale: Locale, timeZone: string, style: string, options: Intl.DateTimeFormatOptions) {
  const key = `${locale}|${timeZone}|${style}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formatters.set(key, formatter);
  }
  return formatter;
}

function toDate(input: DateInput): Date {
  return input instanceof Date ? input : new Date(input);
}

function capitalise(text: string, locale: Locale): string {
  return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
}

export function createTranslator(catalog: Catalog, viewer: Viewer): Translator {
  const { locale, timeZone } = viewer;
  const translator: Translator = {
    viewer,
    locale,
    timeZone,
    dir: direction(locale),
    t(key, values) {
      const result = catalog.message(locale, key).format(values as never);
      return Array.isArray(result) ? result.join('') : String(result);
    },
    rich<T>(key: string, values: Record<string, unknown>) {
      const result = catalog.message(locale, key).format<T>(values as never);
      return (Array.isArray(result) ? result : [result]) as Array<string | T>;
    },
    formatDateTime(date, options) {
      const zone = options?.timeZone ?? timeZone;
      return dateTimeFormat(locale, zone, 'datetime', { dateStyle: 'medium', timeStyle: 'short' }).format(toDate(date));
    },
    formatDate(date, options) {
      const zone = options?.timeZone ?? timeZone;
      const style = options?.style ?? 'medium';
      return dateTimeFormat(locale, zone, `date-${style}`, { dateStyle: style }).format(toDate(date));
    },
    formatTime(date, options) {
      const zone = options?.timeZone ?? timeZone;
      return dateTimeFormat(locale, zone, 'time', { timeStyle: 'short' }).format(toDate(date));
    },
    formatRelativeDay(date, now = new Date()) {
      const when = toDate(date);
      const days = daysBetween(now, when, timeZone);
      if (Math.abs(days) <= 1) {
        const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(days, 'day');
        return capitalise(relative, locale);
      }
      if (days > 1 && days < 7) {
        return capitalise(dateTimeFormat(locale, timeZone, 'weekday', { weekday: 'long' }).format(when), locale);
      }
      return translator.formatDate(when);
    },
    formatNumber(value, options) {
      return new Intl.NumberFormat(locale, options).format(value);
    },
    formatList(items, type = 'conjunction') {
      return new Intl.ListFormat(locale, { style: 'long', type }).format(items);
    },
  };
  return translator;
}
