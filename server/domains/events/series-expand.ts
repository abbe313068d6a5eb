// Recurrence rules (RFC 5545 RRULE, parsed and expanded by `rrule`) on LOCAL WALL TIME.
//
// rrule's own TZID support computes in the runtime's zone and slips an hour across a DST change,
// so the rule is expanded on "UTC-as-wall" dates (a Date whose UTC fields are the local wall
// time, like calendar-zones.ts wallClock) and each wall time is then turned into an instant in
// the series' zone by `instantOf`. A weekly 18:00 thus stays 18:00 local in winter and summer.
// Wall times are strings `YYYY-MM-DDTHH:MM:SS` (no offset) everywhere in the series code.
import * as rruleModule from 'rrule';
import { AppError } from '../../errors.js';
import { wallClock } from './calendar-zones.js';

// Node ESM loads rrule's CommonJS build (everything under `default`, named exports undefined);
// vite (the tests) its ES module build (named exports, no default). Either way:
const { RRule } = ((rruleModule as { default?: typeof rruleModule }).default ?? rruleModule) as typeof rruleModule;

/** At most this many occurrences, and none later than MAX_SPAN_DAYS after the first. */
export const MAX_OCCURRENCES = 100;
export const MAX_SPAN_DAYS = 731;

/** The parts we support; sub-daily frequencies and BYHOUR and the like are refused. */
const ALLOWED_PARTS = new Set([
  'FREQ',
  'INTERVAL',
  'COUNT',
  'UNTIL',
  'BYDAY',
  'BYMONTHDAY',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
]);
const ALLOWED_FREQS = new Set(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);

const invalid = (message: string) => new AppError('validation_failed', `recurrence.rule: ${message}`);

/** `YYYY-MM-DDTHH:MM:SS` of a UTC-as-wall Date. */
export const wallString = (wall: Date) => wall.toISOString().slice(0, 19);
/** The UTC-as-wall Date of a wall string. */
export const wallDate = (wall: string) => new Date(`${wall}Z`);

/** The local wall time of an instant in a zone. */
export function wallOf(instant: Date, zone: string): string {
  return wallString(wallClock(instant, zone));
}

/** The zone's offset from UTC at an instant, in ms (wall − instant). */
function offsetAt(ms: number, zone: string): number {
  return wallClock(new Date(ms), zone).getTime() - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant a local wall time happens in a zone. A wall time in a spring-forward gap (02:30
 * on the day clocks jump 02:00→03:00) moves forward by the gap (03:30); one that happens twice
 * in the autumn takes the later (standard time) instant.
 */
export function instantOf(wall: string, zone: string): Date {
  const asUtc = wallDate(wall).getTime();
  // The offsets a day before and after (zones change at most once in two days): each is right
  // when the instant it gives has that offset; both are in an overlap (the later instant wins).
  const before = offsetAt(asUtc - 86_400_000, zone);
  const after = offsetAt(asUtc + 86_400_000, zone);
  const valid = [before, after].map((o) => asUtc - o).filter((ms) => offsetAt(ms, zone) === asUtc - ms);
  // None in a spring-forward gap: the offset before the change puts it the gap's length later.
  return new Date(valid.length > 0 ? Math.max(...valid) : asUtc - before);
}

/**
 * Checks and normalizes an RRULE (an optional `RRULE:` prefix, no DTSTART): the supported parts
 * only, COUNT or UNTIL required. A date-only UNTIL includes that whole day.
 */
export function normalizeRule(input: string): string {
  const text = input.trim().replace(/^RRULE:/i, '');
  if (!text || /[\r\n]/.test(text)) throw invalid('Send one RRULE line, like FREQ=WEEKLY;BYDAY=TH;COUNT=10.');
  const parts = text.split(';').map((part) => part.split('='));
  for (const [key, value] of parts) {
    if (!key || value === undefined || !ALLOWED_PARTS.has(key.toUpperCase()))
      throw invalid(`Unsupported part ${key ?? ''}; use ${[...ALLOWED_PARTS].join(', ')}.`);
  }
  const freq = parts.find(([key]) => key!.toUpperCase() === 'FREQ')?.[1]?.toUpperCase();
  if (!freq || !ALLOWED_FREQS.has(freq)) throw invalid('FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY.');
  let options: ReturnType<typeof RRule.parseString>;
  try {
    options = RRule.parseString(text.toUpperCase());
  } catch {
    throw invalid('Not a valid RRULE.');
  }
  const lists = [options.byweekday, options.bymonthday, options.bymonth, options.bysetpos];
  if (lists.some((list) => Array.isArray(list) && list.some((x) => x === undefined || Number.isNaN(x))))
    throw invalid('Not a valid RRULE.');
  if (options.count == null && !options.until) throw invalid('Needs COUNT or UNTIL (a series has an end).');
  if (options.count != null && (!Number.isInteger(options.count) || options.count < 1))
    throw invalid('COUNT must be a positive number.');
  const dateOnlyUntil = /(^|;)UNTIL=\d{8}(;|$)/i.test(text);
  if (options.until && dateOnlyUntil) options.until = new Date(options.until.getTime() + 86_399_000);
  return RRule.optionsToString(options).replace(/^RRULE:/, '');
}

/**
 * The local wall start times of a rule from DTSTART `startWall`: every one, within the caps
 * (400 beyond them, or when the rule yields none). UNTIL is compared with local wall time.
 */
export function expandWalls(rule: string, startWall: string): string[] {
  const start = wallDate(startWall);
  const options = RRule.parseString(rule);
  const dates = new RRule({ ...options, dtstart: start, tzid: null }).all((_d, i) => i <= MAX_OCCURRENCES);
  if (dates.length > MAX_OCCURRENCES) throw invalid(`At most ${MAX_OCCURRENCES} occurrences; lower COUNT or UNTIL.`);
  if (dates.length === 0) throw invalid('The rule yields no occurrence from startsAt on.');
  const last = dates[dates.length - 1]!;
  if (last.getTime() - start.getTime() > MAX_SPAN_DAYS * 86_400_000)
    throw invalid('A series spans at most two years; lower COUNT or UNTIL.');
  return dates.map(wallString);
}

/** The rule cut to its first `count` occurrences (the series before a "this and following" split). */
export function ruleWithCount(rule: string, count: number): string {
  const options = RRule.parseString(rule);
  delete options.until;
  return RRule.optionsToString({ ...options, count }).replace(/^RRULE:/, '');
}

/** A wall time moved by `seconds` (a series-wide time change). */
export function shiftWall(wall: string, seconds: number): string {
  return wallString(new Date(wallDate(wall).getTime() + seconds * 1000));
}

/** The rule after its DTSTART moved by `seconds`: UNTIL moves along, so no occurrence drops off. */
export function shiftRule(rule: string, seconds: number): string {
  const options = RRule.parseString(rule);
  if (!options.until || seconds === 0) return rule;
  return RRule.optionsToString({ ...options, until: new Date(options.until.getTime() + seconds * 1000) }).replace(
    /^RRULE:/,
    '',
  );
}

/** The rule of the later part of a split at occurrence `index` (0-based) of `total`. */
export function ruleFrom(rule: string, index: number): string {
  const options = RRule.parseString(rule);
  if (options.count == null) return rule;
  return RRule.optionsToString({ ...options, count: options.count - index }).replace(/^RRULE:/, '');
}

/** The rule for a calendar feed: UNTIL, kept as local wall time here, as the UTC instant RFC 5545 wants. */
export function ruleForFeed(rule: string, zone: string | null): string {
  const options = RRule.parseString(rule);
  if (!options.until || !zone) return rule;
  const until = instantOf(wallString(options.until), zone);
  return RRule.optionsToString({ ...options, until }).replace(/^RRULE:/, '');
}
