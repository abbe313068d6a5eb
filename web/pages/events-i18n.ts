// Stand-in for the web's i18n runtime (web/server/i18n.ts) until it lands on main: the same
// `t` and `fmt()` shape, English only, in UTC. The events pages import `t`/`fmt` from here, so the
// switch to the real runtime is this one file.
import { readFileSync } from 'node:fs';
import { IntlMessageFormat } from 'intl-messageformat';

type Values = Record<string, unknown>;

function flatten(prefix: string, node: unknown, out: Map<string, string>) {
  if (typeof node === 'string') out.set(prefix, node);
  else for (const [key, value] of Object.entries(node as object)) flatten(`${prefix}.${key}`, value, out);
}
const messages = new Map<string, string>();
flatten('events', JSON.parse(readFileSync(new URL('../locales/en/events.json', import.meta.url), 'utf8')), messages);

export function t(key: string, values?: Values): string {
  const message = messages.get(key);
  if (message === undefined) throw new Error(`No message "${key}"`);
  return String(new IntlMessageFormat(message, 'en').format(values as never));
}

const viewer = { locale: 'en' as const, timeZone: 'UTC', timeZoneSource: 'utc' as 'account' | 'browser' | 'utc' };

export function fmt() {
  const dt = (options: Intl.DateTimeFormatOptions, zone?: string) =>
    new Intl.DateTimeFormat(viewer.locale, { ...options, timeZone: zone ?? viewer.timeZone });
  return {
    viewer,
    locale: viewer.locale,
    timeZone: viewer.timeZone,
    formatDateTime: (date: Date | string, o?: { timeZone?: string }) =>
      dt({ dateStyle: 'medium', timeStyle: 'short' }, o?.timeZone).format(new Date(date)),
    formatDate: (date: Date | string, o?: { timeZone?: string; style?: 'medium' | 'long' | 'full' }) =>
      dt({ dateStyle: o?.style ?? 'medium' }, o?.timeZone).format(new Date(date)),
    formatTime: (date: Date | string, o?: { timeZone?: string }) =>
      dt({ timeStyle: 'short' }, o?.timeZone).format(new Date(date)),
  };
}
