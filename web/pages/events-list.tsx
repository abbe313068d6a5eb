// /app/events: the events with the API's filters, in three views: the agenda (default: grouped
// by the viewer's days, cursor paging), the plain list in start-time order (cursor paging) and
// the month grid (events-month.tsx). The event page is events.tsx.
import type { Context } from 'hono';
import type { RouterInputs, RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { FormError, renderPage } from '../server/layout.js';
import {
  EventCard,
  eventTypeLabels,
  rethrowUnless,
  TimeZoneSelect,
  validTimeZone,
  zonedLocalToIso,
} from './events-common.js';
import { urls } from '../urls.js';
import { PagedList } from './search-list.js';
import { Agenda } from './events-agenda.js';
import { fmt, t } from '../server/i18n.js';
import { MonthGrid, monthEvents, readMonth } from './events-month.js';
import { EventSearch, PastLink, SEARCH_MAX } from './events-find.js';

type View = 'agenda' | 'list' | 'month';
const views: View[] = ['agenda', 'list', 'month'];
const viewKeys: Record<View, string> = {
  agenda: 'events.views.agenda',
  list: 'events.views.list',
  month: 'events.views.month',
};

type ListInput = RouterInputs['events']['list'];

const PAGE_SIZE = 20;

/** The list's query string: the visitor's own words, kept as typed, so the form shows them again. */
interface ListQuery {
  view: View;
  /** The month view's month, "2026-12" (empty: the current one). */
  month: string;
  when: 'upcoming' | 'past' | 'all';
  fromDate: string;
  toDate: string;
  area: string;
  grove: string;
  organization: string;
  type: string;
  timeZone: string | null;
  /** Words to find in the title or description. */
  q: string;
  /** The instant "upcoming"/"past" were measured from (kept across pages so paging stays stable). */
  now: string;
  cursor: string;
}

function readListQuery(c: Context<WebEnv>): ListQuery {
  const q = (name: string) => (c.req.query(name) ?? '').trim();
  const when = q('when');
  const now = q('now');
  const view = q('view');
  return {
    view: views.includes(view as View) ? (view as View) : 'agenda',
    month: q('month'),
    when: when === 'past' || when === 'all' ? when : 'upcoming',
    fromDate: q('from'),
    toDate: q('to'),
    area: q('area'),
    grove: q('grove'),
    organization: q('organization'),
    type: q('type'),
    timeZone: validTimeZone(q('timeZone')),
    q: q('q').slice(0, SEARCH_MAX),
    now: Number.isNaN(Date.parse(now)) ? new Date().toISOString() : new Date(now).toISOString(),
    cursor: q('cursor'),
  };
}

/** The API's input for the list, or an error sentence for the filter form. */
function listInput(query: ListQuery): { input: ListInput } | { error: string } {
  const zone = query.timeZone ?? fmt().viewer.timeZone;
  const input: ListInput = { limit: PAGE_SIZE };
  if (query.when === 'upcoming') input.from = query.now;
  // Past: ended ones, newest first (the API's order); `to` keeps paging to what had ended by `now`.
  if (query.when === 'past') {
    input.past = 'true';
    input.to = query.now;
  }
  if (query.fromDate) {
    const from = zonedLocalToIso(`${query.fromDate}T00:00`, zone);
    if (!from) return { error: t('events.filters.badFrom') };
    input.from = from;
  }
  if (query.toDate) {
    const to = zonedLocalToIso(`${query.toDate}T23:59:59`, zone);
    if (!to) return { error: t('events.filters.badTo') };
    input.to = to;
  }
  if (input.from && input.to && Date.parse(input.from) >= Date.parse(input.to))
    return { error: t('eventsFind.badRange') };
  if (query.q) input.q = query.q;
  if (query.area) input.area = query.area;
  if (query.grove) input.groveId = query.grove;
  if (query.organization) input.organizationId = query.organization;
  if (query.type) input.type = query.type as ListInput['type'];
  if (query.cursor) input.cursor = query.cursor;
  return { input };
}

function listHref(query: ListQuery, cursor: string, change: Partial<ListQuery> = {}): string {
  return `${urls.events()}?${listParams({ ...query, ...change }, cursor).toString()}`;
}

function listParams(query: ListQuery, cursor: string): URLSearchParams {
  const params = new URLSearchParams();
  if (query.view !== 'agenda') params.set('view', query.view);
  if (query.view === 'month') params.set('month', query.month);
  params.set('when', query.when);
  if (query.when !== 'all') params.set('now', query.now);
  for (const [name, value] of [
    ['from', query.fromDate],
    ['to', query.toDate],
    ['area', query.area],
    ['grove', query.grove],
    ['organization', query.organization],
    ['type', query.type],
    ['timeZone', query.timeZone ?? ''],
    ['q', query.q],
  ] as const) {
    if (value) params.set(name, value);
  }
  if (cursor) params.set('cursor', cursor);
  return params;
}

/** The list's settings but the search itself, for the search form's hidden fields. */
function searchKeeps(query: ListQuery): URLSearchParams {
  const params = listParams(query, '');
  params.delete('q');
  return params;
}

/** The three views, as links keeping the filters; the current one marked. */
function ViewSwitch({ query }: { query: ListQuery }) {
  return (
    <nav aria-label={t('events.views.label')} class="view-switch">
      {views.map((view) => (
        <a
          href={listHref(query, '', { view, cursor: '' })}
          aria-current={query.view === view ? 'page' : undefined}
          class={query.view === view ? 'current' : undefined}
        >
          {t(viewKeys[view])}
        </a>
      ))}
    </nav>
  );
}

/** The month grid with the list's filters (the dates and "when" do not apply to it). */
async function monthView(c: Context<WebEnv>, query: ListQuery, built: { input: ListInput }, now: Date) {
  const zone = fmt().viewer.timeZone;
  const month = readMonth(query.month, now, zone);
  const { from: _f, to: _t, past: _p, cursor: _c, limit: _l, ...filters } = built.input;
  const { events, truncated } = await monthEvents(c, filters, month, zone);
  return (
    <MonthGrid
      month={month}
      events={events}
      truncated={truncated}
      now={now}
      monthHref={(other) => listHref(query, '', { month: other, cursor: '' })}
      dayHref={(day) =>
        listHref(query, '', { view: 'agenda', when: 'all', fromDate: day, toDate: day, timeZone: zone, cursor: '' })
      }
    />
  );
}

/** One of the filters that picks from a list: "any" (empty) or one value. */
function FilterSelect(props: {
  name: string;
  label: string;
  any: string;
  options: readonly (readonly [value: string, label: string])[];
  selected: string;
}) {
  const id = `filter-${props.name}`;
  return (
    <div>
      <label for={id}>{props.label}</label>
      <select id={id} name={props.name}>
        <option value="">{props.any}</option>
        {props.options.map(([value, label]) => (
          <option value={value} selected={props.selected === value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

export async function eventListPage(c: Context<WebEnv>): Promise<Response> {
  const query = readListQuery(c);
  const client = api(c);
  const [groves, organizations] = await Promise.all([
    client.groves.list.query({ limit: 100 }),
    client.organizations.list.query({ limit: 100 }),
  ]);
  const built = listInput(query);
  let error: string | null = 'error' in built ? built.error : null;
  let page: RouterOutputs['events']['list'] = { items: [], nextCursor: null };
  const now = new Date(query.now);
  let month: Awaited<ReturnType<typeof monthView>> | null = null;
  if ('input' in built) {
    try {
      if (query.view === 'month') month = await monthView(c, query, built, now);
      else page = await client.events.list.query(built.input);
    } catch (caught) {
      rethrowUnless(caught, 400, 404);
      error = apiErrorMessage(caught);
    }
  }
  if (error) c.status(400);
  return renderPage(
    c,
    { title: t('events.list.title'), scripts: ['/assets/local-times.js'], styles: ['/assets/events.css'] },
    <>
      <p class="actions">
        <a class="button" href={urls.eventNew()}>
          {t('events.list.create')}
        </a>
        <a href={urls.calendar()}>{t('events.list.subscribe')}</a>
        <PastLink
          past={query.when === 'past'}
          href={listHref(query, '', {
            when: query.when === 'past' ? 'upcoming' : 'past',
            view: query.view === 'month' ? 'agenda' : query.view,
            now: new Date().toISOString(),
            cursor: '',
          })}
        />
      </p>
      <EventSearch action={urls.events()} q={query.q} keep={searchKeeps(query)} />
      <details class="filters" open={error !== null || query.area !== '' || query.grove !== '' || query.type !== ''}>
        <summary>{t('events.filters.summary')}</summary>
        <form method="get" action={urls.events()} class="stack" aria-label={t('events.filters.label')}>
          {query.view === 'agenda' ? null : <input type="hidden" name="view" value={query.view} />}
          {query.view === 'month' && query.month ? <input type="hidden" name="month" value={query.month} /> : null}
          {query.q ? <input type="hidden" name="q" value={query.q} /> : null}
          <div>
            <label for="filter-when">{t('events.filters.when')}</label>
            <select id="filter-when" name="when">
              <option value="upcoming" selected={query.when === 'upcoming'}>
                {t('events.filters.upcoming')}
              </option>
              <option value="past" selected={query.when === 'past'}>
                {t('events.filters.past')}
              </option>
              <option value="all" selected={query.when === 'all'}>
                {t('events.filters.all')}
              </option>
            </select>
          </div>
          <div>
            <label for="filter-from">{t('events.filters.from')}</label>
            <input id="filter-from" name="from" type="date" value={query.fromDate} />
          </div>
          <div>
            <label for="filter-to">{t('events.filters.to')}</label>
            <input id="filter-to" name="to" type="date" value={query.toDate} />
          </div>
          <TimeZoneSelect
            id="filter-zone"
            value={query.timeZone ?? fmt().viewer.timeZone}
            auto={query.timeZone === null && fmt().viewer.timeZoneSource === 'utc'}
          />
          <div>
            <label for="filter-area">
              {t('events.filters.area')} <span class="hint">({t('events.filters.areaHint')})</span>
            </label>
            <input id="filter-area" name="area" type="text" value={query.area} maxlength={120} />
          </div>
          <FilterSelect
            name="type"
            label={t('events.filters.type')}
            any={t('events.filters.anyType')}
            options={Object.entries(eventTypeLabels())}
            selected={query.type}
          />
          <FilterSelect
            name="grove"
            label={t('events.filters.grove')}
            any={t('events.filters.anyGrove')}
            options={groves.items.map((grove) => [grove._id, grove.name])}
            selected={query.grove}
          />
          <FilterSelect
            name="organization"
            label={t('events.filters.organization')}
            any={t('events.filters.anyOrganization')}
            options={organizations.items.map((organization) => [organization._id, organization.name])}
            selected={query.organization}
          />
          <p class="actions">
            <button type="submit">{t('events.filters.show')}</button>
            <a href={urls.events()}>{t('events.filters.clear')}</a>
          </p>
        </form>
      </details>
      <FormError message={error} />
      <ViewSwitch query={query} />
      {query.view === 'month' ? (
        month
      ) : query.view === 'agenda' ? (
        <>
          <Agenda events={page.items} now={now} empty={t('events.list.empty')} />
          {page.nextCursor ? (
            <p>
              <a href={listHref(query, page.nextCursor)} rel="next">
                {t('events.list.nextPage')}
              </a>
            </p>
          ) : null}
        </>
      ) : (
        <>
          <h2>{query.cursor ? t('events.list.more') : t('events.list.heading')}</h2>
          <PagedList
            items={page.items}
            empty={t('events.list.empty')}
            card={(event) => <EventCard event={event} />}
            nextHref={page.nextCursor ? listHref(query, page.nextCursor) : null}
          />
        </>
      )}
    </>,
  );
}
