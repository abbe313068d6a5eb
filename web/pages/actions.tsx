// /app/actions: the member's private action log. Log an action, confirm suggestions (ended
// events the member RSVP'd going to), browse and filter the log, download it as CSV, and opt in
// or out of contributing anonymous totals to groves and the service-wide figure.
import type { Context } from 'hono';
import type { RouterInputs, RouterOutputs } from '../../client-sdk/src/index.js';
import { api, rawApiHeaders } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { fmt, t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import { loginRedirect } from '../server/next-path.js';
import { clearSessionCookie } from '../server/session.js';
import { type ApiFailure, failureMessage, formFields, setFailureStatus, tryApi } from '../server/session-route.js';
import { KINDS, type Kind, kindLabel, LogForm } from './actions-form.js';
import { confirmFirst } from './confirm.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

type Entry = RouterOutputs['actions']['list']['items'][number];
type Suggestion = RouterOutputs['actions']['listSuggestions']['items'][number];
type CreateInput = RouterInputs['actions']['create'];

const PAGE_SIZE = 20;

interface Filters {
  kind?: Kind;
  from?: string;
  to?: string;
}

interface ActionsView {
  /** The log form failed: the API's message and what the member typed. */
  createError?: string;
  values?: Record<string, string>;
  /** Another form on the page failed. */
  error?: string;
}

function filtersOf(c: Context<WebEnv>): Filters {
  const kind = c.req.query('kind');
  const from = c.req.query('from');
  const to = c.req.query('to');
  return {
    ...(kind && (KINDS as string[]).includes(kind) ? { kind: kind as Kind } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}

function query(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A calendar day ("2026-03-14", no zone of its own) in the viewer's language, as that same day. */
function calendarDay(day: string): string {
  return fmt().formatDate(`${day}T12:00:00Z`, { timeZone: 'UTC' });
}

function hoursText(hours: number | null): string {
  if (hours === null) return '';
  return t('actions.log.hoursValue', { count: hours });
}

function EntryRow({ entry }: { entry: Entry }) {
  const details = [entry.eventTitle, entry.placeName, entry.note].filter(Boolean).join(' · ');
  return (
    <tr>
      <td>
        <time datetime={entry.occurredOn}>{calendarDay(entry.occurredOn)}</time>
      </td>
      <td>{kindLabel(entry.kind)}</td>
      <td>{hoursText(entry.hours)}</td>
      <td>{details}</td>
      <td>
        <form method="post" action={urls.actionDelete(entry._id)} class="inline">
          <button
            type="submit"
            class="secondary"
            aria-label={t('actions.log.deleteLabel', {
              kind: kindLabel(entry.kind),
              date: calendarDay(entry.occurredOn),
            })}
          >
            {t('actions.log.delete')}
          </button>
        </form>
      </td>
    </tr>
  );
}

function SuggestionItem({ suggestion }: { suggestion: Suggestion }) {
  return (
    <li class="card">
      <p>
        <strong>{suggestion.title}</strong>,{' '}
        <time datetime={suggestion.startsAt}>{calendarDay(suggestion.occurredOn)}</time>
      </p>
      <form method="post" action={urls.actionSuggestionConfirm(suggestion.eventId)} class="inline">
        <button type="submit" aria-label={t('actions.suggestions.addLabel', { title: suggestion.title })}>
          {t('actions.suggestions.add')}
        </button>
      </form>
    </li>
  );
}

async function renderActions(c: Context<WebEnv>, view: ActionsView = {}): Promise<Response> {
  const client = api(c);
  const filters = filtersOf(c);
  const cursor = c.req.query('cursor') || undefined;
  const [log, suggestions, optIn] = await Promise.all([
    tryApi(() => client.actions.list.query({ ...filters, cursor, limit: PAGE_SIZE })),
    client.actions.listSuggestions.query({ limit: PAGE_SIZE }),
    client.me.getActionAggregateOptIn.query({}),
  ]);
  // A bad filter or cursor in the address: the page still shows, with the API's message.
  if (!log.ok) setFailureStatus(c, log.failure);
  const exportHref = `${urls.actionsExport()}${query({ ...filters })}`;
  return renderPage(
    c,
    { title: t('actions.title') },
    <>
      <p>{t('actions.intro')}</p>
      <FormError message={view.error} />

      <section aria-labelledby="log-form-heading">
        <h2 id="log-form-heading">{t('actions.form.heading')}</h2>
        <LogForm values={view.values ?? {}} error={view.createError} />
      </section>

      <section aria-labelledby="suggestions-heading">
        <h2 id="suggestions-heading">{t('actions.suggestions.heading')}</h2>
        {suggestions.items.length === 0 ? (
          <p class="muted">{t('actions.suggestions.none')}</p>
        ) : (
          <ul class="plain">
            {suggestions.items.map((suggestion) => (
              <SuggestionItem suggestion={suggestion} />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="log-heading">
        <h2 id="log-heading">{t('actions.log.heading')}</h2>
        <form method="get" action={urls.actions()} class="filters" aria-label={t('actions.log.filterLabel')}>
          <div>
            <label for="filter-kind">{t('actions.log.show')}</label>
            <select id="filter-kind" name="kind">
              <option value="">{t('actions.log.allKinds')}</option>
              {KINDS.map((kind) => (
                <option value={kind} selected={filters.kind === kind}>
                  {kindLabel(kind)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label for="filter-from">{t('actions.log.from')}</label>
            <input id="filter-from" name="from" type="date" value={filters.from} />
          </div>
          <div>
            <label for="filter-to">{t('actions.log.to')}</label>
            <input id="filter-to" name="to" type="date" value={filters.to} />
          </div>
          <button type="submit" class="secondary">
            {t('actions.log.filter')}
          </button>
        </form>
        <p>
          <a href={exportHref} download>
            {t('actions.log.download')}
          </a>{' '}
          <span class="hint">{t('actions.log.downloadHint')}</span>
        </p>
        {!log.ok ? (
          <FormError message={failureMessage(log.failure)} />
        ) : log.value.items.length === 0 ? (
          <p class="muted">{cursor ? t('actions.log.nothingFurther') : t('actions.log.nothingYet')}</p>
        ) : (
          <div class="table-scroll">
            <table>
              <caption class="visually-hidden">{t('actions.log.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('actions.log.date')}</th>
                  <th scope="col">{t('actions.log.kind')}</th>
                  <th scope="col">{t('actions.log.hours')}</th>
                  <th scope="col">{t('actions.log.details')}</th>
                  <th scope="col">
                    <span class="visually-hidden">{t('actions.log.delete')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {log.value.items.map((entry) => (
                  <EntryRow entry={entry} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {log.ok && log.value.nextCursor ? (
          <p>
            <a href={`${urls.actions()}${query({ ...filters, cursor: log.value.nextCursor })}`}>
              {t('actions.log.older')}
            </a>
          </p>
        ) : null}
      </section>

      <section aria-labelledby="aggregate-heading">
        <h2 id="aggregate-heading">{t('actions.aggregate.heading')}</h2>
        <p>{t('actions.aggregate.explain')}</p>
        <form method="post" action={urls.actionsOptIn()} class="actions">
          <p>
            <strong>{optIn.optIn ? t('actions.aggregate.on') : t('actions.aggregate.off')}</strong>
          </p>
          <input type="hidden" name="optIn" value={optIn.optIn ? 'false' : 'true'} />
          <button type="submit" class="secondary">
            {optIn.optIn ? t('actions.aggregate.stop') : t('actions.aggregate.start')}
          </button>
        </form>
      </section>
    </>,
  );
}

/** The form's strings as the API's input: empty fields are left out, hours are a number. */
function createInputOf(fields: Record<string, string>): CreateInput {
  const text = (name: string) => fields[name]?.trim() || undefined;
  const hours = text('hours');
  return {
    kind: fields.kind as Kind,
    occurredOn: text('occurredOn'),
    hours: hours === undefined ? undefined : Number(hours),
    note: text('note'),
    placeName: text('placeName'),
  };
}

function failedOnPage(c: Context<WebEnv>, failure: ApiFailure, view: ActionsView) {
  setFailureStatus(c, failure);
  return renderActions(c, view);
}

export const actionLogPage: Page = (c) => renderActions(c);

export const logAction: Page = async (c) => {
  const fields = await formFields(c);
  const result = await tryApi(() => api(c).actions.create.mutate(createInputOf(fields)));
  if (!result.ok)
    return failedOnPage(c, result.failure, { createError: failureMessage(result.failure), values: fields });
  return redirectWithNotice(c, urls.actions(), t('actions.form.logged', { kind: kindLabel(result.value.kind) }));
};

export const confirmActionSuggestion: Page = async (c) => {
  const eventId = pathParam(c, 'eventId');
  const result = await tryApi(() => api(c).actions.create.mutate({ kind: 'event_attended', eventId }));
  if (!result.ok) return failedOnPage(c, result.failure, { error: failureMessage(result.failure) });
  const title = result.value.eventTitle ?? t('actions.suggestions.theEvent');
  return redirectWithNotice(c, urls.actions(), t('actions.suggestions.added', { title }));
};

export const deleteAction: Page = async (c) => {
  const id = pathParam(c, 'id');
  const request = {
    question: t('actions.confirmDelete.question'),
    details: <p>{t('actions.confirmDelete.details')}</p>,
    action: urls.actionDelete(id),
    fields: await formFields(c),
    confirmLabel: t('actions.confirmDelete.confirm'),
    cancelHref: urls.actions(),
  };
  return confirmFirst(c, request, async () => {
    const result = await tryApi(() => api(c).actions.delete.mutate({ id }));
    if (!result.ok) return failedOnPage(c, result.failure, { error: failureMessage(result.failure) });
    return redirectWithNotice(c, urls.actions(), t('actions.log.deleted'));
  });
};

export const setAggregateOptIn: Page = async (c) => {
  const { optIn } = await formFields(c);
  const result = await tryApi(() => api(c).me.setActionAggregateOptIn.mutate({ optIn: optIn === 'true' }));
  if (!result.ok) return failedOnPage(c, result.failure, { error: failureMessage(result.failure) });
  return redirectWithNotice(
    c,
    urls.actions(),
    result.value.optIn ? t('actions.aggregate.nowOn') : t('actions.aggregate.nowOff'),
  );
};

// The CSV download. The API serves it as a raw route (GET /api/actions/export, text/csv): the
// typed client speaks tRPC JSON only, so the web server fetches it itself with the cookie's
// token as the Bearer header and streams the body through (the browser never sees the token,
// and a long log is never held in memory). Same filters as the page.
export const exportActionsCsv: Page = async (c) => {
  const { config, fetch } = c.get('web');
  const url = new URL(`${config.API_URL}/api/actions/export`);
  for (const [key, value] of Object.entries(filtersOf(c))) url.searchParams.set(key, value);
  const response = await fetch(url, { headers: rawApiHeaders(c) });
  if (response.status === 401) {
    // Spec rule 4, as for every page: the session is gone.
    await response.body?.cancel();
    clearSessionCookie(c, config);
    return c.redirect(loginRedirect(`${urls.actions()}${query({ ...filtersOf(c) })}`), 303);
  }
  if (!response.ok) {
    const envelope = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    c.status(response.status === 400 ? 400 : 502);
    return renderActions(c, {
      error:
        response.status === 400 && envelope?.error?.message ? envelope.error.message : t('actions.log.downloadFailed'),
    });
  }
  return c.body(response.body ?? '', 200, {
    'Content-Type': response.headers.get('content-type') ?? 'text/csv; charset=utf-8',
    'Content-Disposition': response.headers.get('content-disposition') ?? 'attachment; filename="action-log.csv"',
  });
};
