// Recurring events on the web (issue #26): the repeat fields of the create form (they build the
// RRULE: weekly, or monthly on the start's weekday, with a count or a last date), the scope of
// the edit form, the "part of a series" line of the event page and the series page listing the
// occurrences. Plain forms and links: all of it works without JavaScript. Texts: `series`.
import type { Context } from 'hono';
import { api } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { renderPage } from '../server/layout.js';
import { t } from '../server/i18n.js';
import { urls } from '../urls.js';
import { type EventView, eventPath, notFoundPage, rethrowUnless } from './events-common.js';
import { EventTime } from './events-time.js';
import { pathParam } from './page.js';

type Values = Record<string, string>;
const DAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/** The create form's repeat fields. */
export function RepeatFields({ v }: { v: (name: string) => string }) {
  return (
    <fieldset>
      <legend>{t('series.form.legend')}</legend>
      <p>
        <label for="event-repeat">{t('series.form.repeat')}</label>
        <select id="event-repeat" name="repeat">
          <option value="" selected={!v('repeat')}>
            {t('series.form.never')}
          </option>
          <option value="weekly" selected={v('repeat') === 'weekly'}>
            {t('series.form.weekly')}
          </option>
          <option value="monthly" selected={v('repeat') === 'monthly'}>
            {t('series.form.monthly')}
          </option>
        </select>
      </p>
      <p>
        <label for="event-repeat-count">{t('series.form.count')}</label>
        <input id="event-repeat-count" name="repeatCount" type="number" min={2} max={100} value={v('repeatCount')} />
      </p>
      <p>
        <label for="event-repeat-until">{t('series.form.until')}</label>
        <input id="event-repeat-until" name="repeatUntil" type="date" value={v('repeatUntil')} />
      </p>
    </fieldset>
  );
}

/**
 * The `recurrence` the repeat fields ask for (none when "does not repeat"), or a sentence for
 * the form. The weekday comes from `startsAt` as typed (`YYYY-MM-DDTHH:MM`, the event's zone).
 */
export function recurrenceOf(values: Values): { recurrence?: { rule: string } } | { error: string } {
  const repeat = values.repeat ?? '';
  if (repeat !== 'weekly' && repeat !== 'monthly') return {};
  const count = (values.repeatCount ?? '').trim();
  const until = (values.repeatUntil ?? '').trim();
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(values.startsAt ?? '');
  if (!day || (count === '') === (until === '')) return { error: t('series.form.errors.countOrUntil') };
  if (count !== '' && !/^\d{1,3}$/.test(count)) return { error: t('series.form.errors.countOrUntil') };
  if (until !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(until)) return { error: t('series.form.errors.countOrUntil') };
  const end = count !== '' ? `COUNT=${Number(count)}` : `UNTIL=${until.replace(/-/g, '')}`;
  if (repeat === 'weekly') return { recurrence: { rule: `FREQ=WEEKLY;${end}` } };
  // Monthly on the start's weekday: its 1st–4th occurrence in the month, or the last (a 5th).
  const date = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
  const nth = Math.ceil(date.getUTCDate() / 7);
  return { recurrence: { rule: `FREQ=MONTHLY;BYDAY=${nth === 5 ? -1 : nth}${DAYS[date.getUTCDay()]};${end}` } };
}

/** The edit form's scope, for an occurrence of a series. */
export function ScopeFields({ v }: { v: (name: string) => string }) {
  const scope = v('scope') || 'this';
  return (
    <fieldset>
      <legend>{t('series.scope.legend')}</legend>
      {(['this', 'following', 'all'] as const).map((value) => (
        <div>
          <input id={`event-scope-${value}`} type="radio" name="scope" value={value} checked={scope === value} />{' '}
          <label for={`event-scope-${value}`} class="inline-label">
            {t(`series.scope.${value}`)}
          </label>
        </div>
      ))}
    </fieldset>
  );
}

/** The edit form's scope as the API takes it. */
export function scopeOf(values: Values): { scope?: 'this' | 'following' | 'all' } {
  const scope = values.scope;
  return scope === 'following' || scope === 'all' || scope === 'this' ? { scope } : {};
}

/** "Part of a series" on the event page (nothing for a single event). */
export function SeriesNote({ event }: { event: EventView }) {
  if (!event.series) return null;
  return (
    <>
      <dt>{t('series.page.label')}</dt>
      <dd>
        {t('series.page.partOf')} <a href={urls.eventSeries(event.slug)}>{t('series.page.all')}</a>
        {event.series.overridden ? ` (${t('series.page.overridden')})` : null}
      </dd>
    </>
  );
}

/** /app/events/:slug/series: every occurrence of the event's series the viewer may see. */
export async function seriesPage(c: Context<WebEnv>): Promise<Response> {
  let event: EventView;
  try {
    event = await api(c).events.get.query({ event: pathParam(c, 'slug') });
  } catch (caught) {
    rethrowUnless(caught, 404, 400);
    return notFoundPage(c);
  }
  if (!event.series) return notFoundPage(c);
  // At most 100 occurrences in a series: one page.
  const list = await api(c).events.list.query({ series: event.series._id, limit: 100 });
  return renderPage(
    c,
    { title: t('series.page.title', { title: event.title }), scripts: ['/assets/local-times.js'] },
    <>
      <p>
        <a href={eventPath(event)}>{t('series.page.back')}</a>
      </p>
      <ol aria-label={t('series.page.listLabel')}>
        {list.items.map((e) => (
          <li>
            <a href={eventPath(e)} aria-current={e._id === event._id ? 'page' : undefined}>
              {e.title}
            </a>{' '}
            · <EventTime startsAt={e.startsAt} endsAt={e.endsAt} timeZone={e.timeZone} />
            {e.status === 'cancelled' ? ` · ${t('series.page.cancelled')}` : null}
          </li>
        ))}
      </ol>
    </>,
  );
}
