// The month view: a server-rendered grid (weeks from Monday, days in the viewer's zone) with each
// day's events, links to the agenda of each day that has events and to the months around it. No JavaScript needed.
import type { Context } from 'hono';
import type { RouterInputs } from '../../client-sdk/src/index.js';
import { api } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { eventPath, type EventView, zonedLocalToIso } from './events-common.js';
import { fmt, t } from '../server/i18n.js';
import { addDays, dayIn } from './events-time.js';

type ListInput = RouterInputs['events']['list'];

/** Enough for any real month; a busier one shows the first 500 and says so. */
const MAX_PAGES = 5;
const PAGE_SIZE = 100;

/** "2026-12" when `value` is a month, else the month of `now` in `timeZone`. */
export function readMonth(value: string, now: Date, timeZone: string): string {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(value) ? value : dayIn(now, timeZone).slice(0, 7);
}

export function shiftMonth(month: string, by: number): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const date = new Date(Date.UTC(year, number - 1 + by, 1));
  return date.toISOString().slice(0, 7);
}

/** The month's events the viewer may see (filters as in the list), in start-time order. */
export async function monthEvents(
  c: Context<WebEnv>,
  filters: Omit<ListInput, 'from' | 'to' | 'cursor' | 'limit'>,
  month: string,
  timeZone: string,
): Promise<{ events: EventView[]; truncated: boolean }> {
  const from = zonedLocalToIso(`${month}-01T00:00`, timeZone)!;
  const to = new Date(Date.parse(zonedLocalToIso(`${shiftMonth(month, 1)}-01T00:00`, timeZone)!) - 1).toISOString();
  const events: EventView[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await api(c).events.list.query({ ...filters, from, to, limit: PAGE_SIZE, cursor });
    events.push(...result.items);
    if (!result.nextCursor) return { events, truncated: false };
    cursor = result.nextCursor;
  }
  return { events, truncated: true };
}

/** Monday-first weeks covering the month, each a list of "YYYY-MM-DD" days (null outside it). */
export function monthWeeks(month: string): (string | null)[][] {
  const first = `${month}-01`;
  const mondayOffset = (new Date(`${first}T12:00:00Z`).getUTCDay() + 6) % 7;
  const weeks: (string | null)[][] = [];
  let week: (string | null)[] = Array.from({ length: mondayOffset }, () => null);
  for (let day = first; day.startsWith(month); day = addDays(day, 1)) {
    week.push(day);
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length > 0) weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);
  return weeks;
}

/**
 * The months around as buttons of one GET form (the list's filters as hidden fields): works
 * without JavaScript, and an endless chain of month links is no trap for link-following crawlers.
 */
function MonthNavigation({ href, months }: { href: string; months: [month: string, label: string][] }) {
  const url = new URL(href, 'http://web.invalid');
  const kept = [...url.searchParams].filter(([name]) => name !== 'month');
  return (
    <form method="get" action={url.pathname} class="actions month-nav">
      {kept.map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      {months.map(([month, label]) => (
        <button type="submit" name="month" value={month} class="secondary">
          {label}
        </button>
      ))}
    </form>
  );
}

export function MonthGrid(props: {
  month: string;
  events: EventView[];
  truncated: boolean;
  now: Date;
  monthHref: (month: string) => string;
  dayHref: (day: string) => string;
}) {
  const { locale, viewer } = fmt();
  const zone = viewer.timeZone;
  const byDay = new Map<string, EventView[]>();
  for (const event of props.events) {
    // An event that began in the month before shows on the 1st.
    const start = dayIn(event.startsAt, zone);
    const day = start < `${props.month}-01` ? `${props.month}-01` : start;
    byDay.set(day, [...(byDay.get(day) ?? []), event]);
  }
  const today = dayIn(props.now, zone);
  const utcDay = (day: string) => new Date(`${day}T12:00:00Z`);
  const title = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(
    utcDay(`${props.month}-01`),
  );
  const weekday = (style: 'short' | 'long') => new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: style });
  const fullDate = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', dateStyle: 'full' });
  const time = new Intl.DateTimeFormat(locale, { timeZone: zone, timeStyle: 'short' });
  // 2024-01-01 was a Monday: the seven weekday names from there.
  const weekdays = Array.from({ length: 7 }, (_, i) => utcDay(addDays('2024-01-01', i)));
  return (
    <section aria-labelledby="month-title" class="month">
      <h2 id="month-title">{title}</h2>
      <MonthNavigation
        href={props.monthHref(props.month)}
        months={[
          [shiftMonth(props.month, -1), t('events.month.previous')],
          [readMonth('', props.now, zone), t('events.month.current')],
          [shiftMonth(props.month, 1), t('events.month.next')],
        ]}
      />
      {props.truncated ? <p class="hint">{t('events.month.truncated', { count: props.events.length })}</p> : null}
      <div class="month-scroll">
        <table class="month-grid">
          <caption class="visually-hidden">{t('events.month.caption', { month: title })}</caption>
          <thead>
            <tr>
              {weekdays.map((day) => (
                <th scope="col" abbr={weekday('long').format(day)}>
                  {weekday('short').format(day)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {monthWeeks(props.month).map((week) => (
              <tr>
                {week.map((day) => {
                  if (!day) return <td class="outside" />;
                  const dayEvents = byDay.get(day) ?? [];
                  return (
                    <td class={day === today ? 'today' : undefined}>
                      {/* Only days with events link to their agenda: an empty day has nothing to open. */}
                      {dayEvents.length > 0 ? (
                        <a class="day-number" href={props.dayHref(day)} aria-label={fullDate.format(utcDay(day))}>
                          {Number(day.slice(8))}
                        </a>
                      ) : (
                        <span class="day-number">{Number(day.slice(8))}</span>
                      )}
                      {dayEvents.length > 0 ? (
                        <ul class="plain">
                          {dayEvents.map((event) => (
                            <li>
                              <a href={eventPath(event)}>
                                <time datetime={event.startsAt}>{time.format(new Date(event.startsAt))}</time>{' '}
                                {event.title}
                              </a>
                            </li>
                          ))}
                        </ul>
                      ) : null}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
