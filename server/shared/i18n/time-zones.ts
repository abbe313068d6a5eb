// Time zones for formatting: the zone list for a settings <select> and calendar-day arithmetic.
// Whether a name is a zone (a cookie or an account field is user input; an unknown zone would make
// every Intl call throw) is decided in one place, server/shared/time-zones.ts (`isTimeZone`).

/** Every zone Intl lists, for a settings <select>. */
export function timeZoneNames(): string[] {
  return ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];
}

/** The calendar day (YYYY-MM-DD) of `date` in `timeZone`. */
export function calendarDay(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

/** Whole calendar days from `from` to `to`, each read in `timeZone` (tomorrow: 1). */
export function daysBetween(from: Date, to: Date, timeZone: string): number {
  const a = Date.parse(`${calendarDay(from, timeZone)}T00:00:00Z`);
  const b = Date.parse(`${calendarDay(to, timeZone)}T00:00:00Z`);
  return Math.round((b - a) / 86_400_000);
}
