// Pieces the events, groves and organizations pages share: the bare 404/403 pages, reading an
// API error's status, dates shown as <time> (localized in the browser by /assets/local-times.js)
// and the time zone rule for `datetime-local` inputs, which carry no zone of their own: every
// form that takes a date also takes an IANA time zone (the browser's, set by the script; UTC
// without JavaScript) and the web server converts to UTC before calling the API.
import type { Context } from 'hono';
import { isApiError, type RouterOutputs } from '../../client-sdk/src/index.js';
import { api } from '../server/api.js';
import { chosenFiles } from '../server/image-upload.js';
import type { WebEnv } from '../server/env.js';
import { renderPage } from '../server/layout.js';
import { fmt, t } from '../server/i18n.js';
import { EventTime } from './events-time.js';
import { pathParam } from './page.js';
import { urls } from '../urls.js';

/** The API's HTTP status for a failed call, or null when the failure was not an API answer. */
export function apiStatus(error: unknown): number | null {
  return isApiError(error) && error.data ? error.data.httpStatus : null;
}

/** Spec rule for pages: an API 404 says nothing more than "not found". */
export function notFoundPage(c: Context<WebEnv>): Promise<Response> {
  c.status(404);
  return renderPage(c, { title: t('events.page.notFoundTitle') }, <p>{t('events.page.notFound')}</p>);
}

export function forbiddenPage(c: Context<WebEnv>, message: string): Promise<Response> {
  c.status(403);
  return renderPage(c, { title: t('events.page.forbiddenTitle') }, <p>{message}</p>);
}

/** Only http(s) links are ever rendered from API data (the API checks too; a `javascript:` href never). */
export function safeHttpUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

/** Re-throws anything that is not the expected API status (a 401 then reaches app.onError). */
export function rethrowUnless(error: unknown, ...statuses: number[]): void {
  const status = apiStatus(error);
  if (status === null || !statuses.includes(status)) throw error;
}

// ---- events: names and paths ----------------------------------------------------------------

export type EventView = RouterOutputs['events']['get'];

// Label tables hold catalog keys (written out, so the catalog test finds them); the labels
// themselves are read per request, in the viewer's language.
const typeKeys: Record<EventView['type'], string> = {
  protest: 'events.types.protest',
  vigil: 'events.types.vigil',
  outreach: 'events.types.outreach',
  potluck: 'events.types.potluck',
  sanctuary_day: 'events.types.sanctuary_day',
  screening: 'events.types.screening',
  meeting: 'events.types.meeting',
  other: 'events.types.other',
};

const visibilityKeys: Record<EventView['visibility'], string> = {
  public: 'events.visibility.public',
  grove: 'events.visibility.grove',
  friends: 'events.visibility.friends',
};

const rsvpKeys: Record<NonNullable<EventView['myRsvp']>, string> = {
  going: 'events.rsvp.going',
  interested: 'events.rsvp.interested',
  waitlisted: 'capacity.rsvp.waitlisted',
};

const translated = <K extends string>(keys: Record<K, string>) =>
  Object.fromEntries(Object.entries(keys).map(([value, key]) => [value, t(key as string)])) as Record<K, string>;

export const eventTypeLabels = () => translated(typeKeys);
export const visibilityLabels = () => translated(visibilityKeys);
export const rsvpLabel = (status: NonNullable<EventView['myRsvp']>) => t(rsvpKeys[status]);

export function hostPath(host: EventView['host']): string {
  return host.kind === 'grove' ? urls.grove(host.slug) : urls.organization(host.slug);
}

export function eventPath(event: Pick<EventView, 'slug'>): string {
  return urls.event(event.slug);
}

/** The event behind a POST's slug, or null (the caller answers 404). */
export async function eventForPost(c: Context<WebEnv>): Promise<EventView | null> {
  try {
    return await api(c).events.get.query({ event: pathParam(c, 'slug') });
  } catch (caught) {
    rethrowUnless(caught, 404, 400);
    return null;
  }
}

/** The upcoming events of a grove or an organization, or one line saying there are none. */
export function UpcomingEvents({ events }: { events: EventView[] }) {
  if (events.length === 0) return <p>{t('events.card.noUpcoming')}</p>;
  return (
    <ul class="plain">
      {events.map((event) => (
        <EventCard event={event} />
      ))}
    </ul>
  );
}

/** One event in a list: what, when, who hosts, where roughly. */
export function EventCard({ event }: { event: EventView }) {
  return (
    <li class="card">
      <h3>
        <a href={eventPath(event)}>{event.title}</a>
        {event.status === 'cancelled' ? <span class="badge danger">{t('events.card.cancelled')}</span> : null}
      </h3>
      <p>
        <EventTime startsAt={event.startsAt} timeZone={event.timeZone} /> · {t(typeKeys[event.type])} · {event.area}
      </p>
      <p class="muted">
        {fmt().rich('events.card.hostedBy', {
          name: event.host.name,
          host: (chunks: unknown[]) => <a href={hostPath(event.host)}>{chunks}</a>,
        })}{' '}
        · {t('events.card.counts', { going: event.rsvpCounts.going, interested: event.rsvpCounts.interested })}
        {event.myRsvp
          ? ` · ${t(event.myRsvpPending ? 'events.card.yoursPending' : 'events.card.yours', { rsvp: rsvpLabel(event.myRsvp) })}`
          : ''}
      </p>
    </li>
  );
}

/**
 * A date in the viewer's locale and zone. While the server knows no zone (source "utc") it is
 * marked for /assets/local-times.js, which rewrites it in the browser's.
 */
export function When({ iso }: { iso: string }) {
  const { viewer, formatDateTime } = fmt();
  return (
    <time datetime={iso} data-local={viewer.timeZoneSource === 'utc' ? '' : undefined}>
      {formatDateTime(iso)}
    </time>
  );
}

// ---- time zones ------------------------------------------------------------------------------

export const timeZones: string[] = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];
const knownZones = new Set(timeZones);

/** A zone Intl knows: listed ones, and aliases an event may carry from the API (Asia/Calcutta). */
export function validTimeZone(value: string | undefined): string | null {
  if (!value) return null;
  if (knownZones.has(value)) return value;
  if (!/^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+$/.test(value)) return null;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return value;
  } catch {
    return null;
  }
}

/** Milliseconds the zone is ahead of UTC at that instant. */
function zoneOffset(utcMs: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(utcMs));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - Math.floor(utcMs / 1000) * 1000;
}

/** "2026-12-05T14:00" in `timeZone` → ISO in UTC; null when it is not a datetime-local value. */
export function zonedLocalToIso(local: string, timeZone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  const wall = Date.UTC(y!, mo! - 1, d!, h!, mi!, s || 0);
  if (Number.isNaN(wall)) return null;
  // Two passes settle the offset on either side of a daylight-saving change.
  let utc = wall - zoneOffset(wall, timeZone);
  utc = wall - zoneOffset(utc, timeZone);
  return new Date(utc).toISOString();
}

/** ISO → "2026-12-05T14:00" as a wall clock in `timeZone` (for a datetime-local value). */
export function isoToZonedLocal(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  return new Date(ms + zoneOffset(ms, timeZone)).toISOString().slice(0, 16);
}

/**
 * The zone picker. `auto`: the visitor has not chosen yet, so the script may switch it (and the
 * form's dates, from their data-utc values) to the browser's zone.
 */
export function TimeZoneSelect(props: { id: string; value: string; auto: boolean; label?: string; hint?: string }) {
  const { id, value, auto } = props;
  // An alias the list does not name (an event's zone from the API) is offered too, selected.
  const zones = knownZones.has(value) ? timeZones : [value, ...timeZones];
  return (
    <div>
      <label for={id}>
        {props.label ?? t('events.zone.label')} <span class="hint">({props.hint ?? t('events.zone.hint')})</span>
      </label>
      <select id={id} name="timeZone" data-time-zone="" data-auto-zone={auto ? '' : undefined}>
        {zones.map((zone) => (
          <option value={zone} selected={zone === value}>
            {zone}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A multipart form's string fields, and the files chosen in `fileField` (the event form's cover). */
export async function formFieldsAndFiles(
  c: Context<WebEnv>,
  fileField: string,
): Promise<{ values: Record<string, string>; files: File[] }> {
  const body = await c.req.parseBody({ all: true });
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') values[key] = value;
  return { values, files: chosenFiles(body, fileField) };
}

/** Reads a form body's string fields (files and repeated names are not used by these forms). */
export async function formFields(c: Context<WebEnv>): Promise<Record<string, string>> {
  const body = await c.req.parseBody();
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') fields[key] = value;
  return fields;
}
