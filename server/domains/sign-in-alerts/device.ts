// A client's browser family, from its User-Agent: what a session and a sign-in alert keep of it
// (docs/accounts.md, "Sign-in alerts"). Only the family: "Firefox" and "Linux", never a version,
// a device model or the raw string, which is read, parsed with bowser and dropped.
import Bowser from 'bowser';

/** The family as stored (`sessions.device`, `known_devices.family`): `Browser|OS`, parts may be empty. */
export type DeviceKey = string;

export interface DeviceFamily {
  /** "Firefox", "Safari"…; null when the client named no browser (an app, a script). */
  browser: string | null;
  /** "Linux", "iOS"…; null when unknown. */
  os: string | null;
}

/** Longer User-Agents are cut before parsing (bowser runs regular expressions over it). */
const MAX_USER_AGENT = 512;

/** Only plain names are kept: a hostile User-Agent cannot put markup or a link into a mail. */
function cleanName(name: string | undefined): string | null {
  const cleaned = (name ?? '')
    .replace(/[^A-Za-z0-9 .+_-]/g, '')
    .trim()
    .slice(0, 40);
  return cleaned === '' ? null : cleaned;
}

export function deviceFamilyOf(userAgent: string | null | undefined): DeviceFamily {
  const ua = (userAgent ?? '').slice(0, MAX_USER_AGENT).trim();
  if (ua === '') return { browser: null, os: null };
  try {
    const parsed = Bowser.parse(ua);
    return { browser: cleanName(parsed.browser.name), os: cleanName(parsed.os.name) };
  } catch {
    return { browser: null, os: null };
  }
}

export function deviceKey(family: DeviceFamily): DeviceKey {
  return `${family.browser ?? ''}|${family.os ?? ''}`;
}

export function familyOfKey(key: DeviceKey): DeviceFamily {
  const [browser = '', os = ''] = key.split('|');
  return { browser: browser || null, os: os || null };
}

/** The family in English, as GET /api/me/sessions shows it ("Firefox on Linux", "the API client"). */
export function familyLabel(family: DeviceFamily): string {
  if (family.browser && family.os) return `${family.browser} on ${family.os}`;
  if (family.browser) return family.browser;
  if (family.os) return `an app on ${family.os}`;
  return 'the API client';
}
