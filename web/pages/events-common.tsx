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
  return renderPage(c, { title: 'Not found' }, <p>Not found.</p>);
}

export function forbiddenPage(c: Context<WebEnv>, message: string): Promise<Response> {
  c.status(403);
  return renderPage(c, { title: 'Not allowed' }, <p>{message}</p>);
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

export const eventTypeLabels: Record<EventView['type'], string> = {
  protest: 'Protest',
  vigil: 'Vigil',
  outreach: 'Outreach',
  potluck: 'Potluck',
  sanctuary_day: 'Sanctuary day',
  screening: 'Screening',
  meeting: 'Meeting',
  other: 'Other',
};

export const visibilityLabels: Record<EventView['visibility'], string> = {
  public: 'Public: every member',
  grove: 'Grove: members of the hosting grove',
  friends: "Friends: the organizer's friends",
};

export const rsvpLabels: Record<NonNullable<EventView['myRsvp']>, string> = {
  going: 'Going',
  interested: 'Interested',
};

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
  if (events.length === 0) return <p>No upcoming events you can see.</p>;
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
        {event.status === 'cancelled' ? <span class="badge danger">Cancelled</span> : null}
      </h3>
      <p>
        <EventTime startsAt={event.startsAt} timeZone={event.timeZone} /> · {eventTypeLabels[event.type]} · {event.area}
      </p>
      <p class="muted">
        Hosted by <a href={hostPath(event.host)}>{event.host.name}</a> · {event.rsvpCounts.going} going,{' '}
        {event.rsvpCounts.interested} interested
        {event.myRsvp ? ` · you: ${rsvpLabels[event.myRsvp]}${event.myRsvpPending ? ' (awaiting approval)' : ''}` : ''}
      </p>
    </li>
  );
}

const utcFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** A date in UTC, marked for the browser script to show in the visitor's own zone. */
export function When({ iso }: { iso: string }) {
  return (
    <time datetime={iso} data-local="">
      {`${utcFormat.format(new Date(iso))} UTC`}
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
        {props.label ?? 'Time zone'} <span class="hint">({props.hint ?? 'of the dates on this form'})</span>
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
