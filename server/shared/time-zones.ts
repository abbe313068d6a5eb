// IANA time zones a member (or an event) may carry. One check for every place that accepts a zone:
// the account setting, the web's browser-zone cookie and settings form (through the i18n runtime,
// which re-exports `isTimeZone`), events.
import { z } from 'zod';

/** The longest zone name taken (the longest IANA name is 32 characters). */
const MAX_ZONE_LENGTH = 64;

let known: Set<string> | undefined;
/** The runtime's zones plus 'UTC' (Node's list leaves UTC out). Built once, on first use. */
function knownZones(): Set<string> {
  known ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
  return known;
}

/**
 * The zone's canonical name, or null when it is not a zone. Aliases a newer browser sends (Europe/Kyiv,
 * Asia/Kolkata, Etc/UTC) resolve to the name this runtime's ICU uses, so what we store always formats.
 */
export function canonicalTimeZone(value: string): string | null {
  if (knownZones().has(value)) return value;
  try {
    const resolved = new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone;
    return knownZones().has(resolved) ? resolved : null;
  } catch {
    return null;
  }
}

/** A zone this runtime can format in (aliases such as Europe/Kyiv included); any input, e.g. a cookie. */
export function isTimeZone(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= MAX_ZONE_LENGTH &&
    canonicalTimeZone(value) !== null
  );
}

/** A zod input: an IANA zone name, stored in its canonical form. */
export const timeZoneInput = () =>
  z
    .string()
    .max(MAX_ZONE_LENGTH)
    .transform((value, ctx) => {
      const zone = canonicalTimeZone(value);
      if (zone === null) {
        ctx.addIssue({ code: 'custom', message: 'Must be an IANA time zone such as Europe/Berlin or UTC.' });
        return z.NEVER;
      }
      return zone;
    })
    .meta({ description: 'An IANA time zone name, e.g. `Europe/Berlin`, or `UTC`.', example: 'Europe/Berlin' });
