// Time zones: a name is accepted only when this runtime's Intl knows it (a cookie or an account
// field is user input; an unknown zone would make every Intl call throw).

let known: Set<string> | undefined;

export function isTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) return false;
  if (value === 'UTC') return true;
  known ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (known.has(value)) return true;
  // Aliases Intl accepts but does not list (e.g. "Asia/Calcutta").
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(value);
  } catch {
    return false;
  }
}

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
