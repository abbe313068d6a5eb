// /app/actions: the member's private action log. Log an action, confirm suggestions (ended
// events the member RSVP'd going to), browse and filter the log, download it as CSV, and opt in
// or out of contributing anonymous totals to groves and the service-wide figure.
import type { Context } from 'hono';
import type { RouterInputs, RouterOutputs } from '../../client-sdk/src/index.js';
import { api, rawApiHeaders } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { FormError, renderPage } from '../server/layout.js';
import { loginRedirect } from '../server/next-path.js';
import { clearSessionCookie } from '../server/session.js';
import { type ApiFailure, failureMessage, formFields, setFailureStatus, tryApi } from '../server/session-route.js';
import { confirmFirst } from './confirm.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

type Entry = RouterOutputs['actions']['list']['items'][number];
type Kind = Entry['kind'];
type Suggestion = RouterOutputs['actions']['listSuggestions']['items'][number];
type CreateInput = RouterInputs['actions']['create'];

const KIND_LABELS: Record<Kind, string> = {
  outreach: 'Outreach',
  volunteer_shift: 'Volunteer shift',
  event_attended: 'Event attended',
  other: 'Other',
};
const KINDS = Object.keys(KIND_LABELS) as Kind[];
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

function hoursText(hours: number | null): string {
  if (hours === null) return '';
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

function EntryRow({ entry }: { entry: Entry }) {
  const details = [entry.eventTitle, entry.placeName, entry.note].filter(Boolean).join(' · ');
  return (
    <tr>
      <td>
        <time datetime={entry.occurredOn}>{entry.occurredOn}</time>
      </td>
      <td>{KIND_LABELS[entry.kind]}</td>
      <td>{hoursText(entry.hours)}</td>
      <td>{details}</td>
      <td>
        <form method="post" action={urls.actionDelete(entry._id)} class="inline">
          <button
            type="submit"
            class="secondary"
            aria-label={`Delete ${KIND_LABELS[entry.kind]} on ${entry.occurredOn}`}
          >
            Delete
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
        <strong>{suggestion.title}</strong>, <time datetime={suggestion.startsAt}>{suggestion.occurredOn}</time>
      </p>
      <form method="post" action={urls.actionSuggestionConfirm(suggestion.eventId)} class="inline">
        <button type="submit" aria-label={`Add to my log: ${suggestion.title}`}>
          Add to my log
        </button>
      </form>
    </li>
  );
}

function LogForm({ values, error }: { values: Record<string, string>; error?: string }) {
  const today = new Date().toISOString().slice(0, 10);
  return (
    <>
      <FormError message={error} />
      <form method="post" action={urls.actions()} class="stack">
        <div>
          <label for="action-kind">Kind</label>
          <select id="action-kind" name="kind" required>
            {KINDS.map((kind) => (
              <option value={kind} selected={(values.kind ?? 'outreach') === kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="action-date">Date</label>
          <input id="action-date" name="occurredOn" type="date" required value={values.occurredOn ?? today} />
        </div>
        <div>
          <label for="action-hours">Hours</label>
          <input
            id="action-hours"
            name="hours"
            type="number"
            min="0.25"
            max="24"
            step="0.25"
            inputmode="decimal"
            value={values.hours}
            aria-describedby="action-hours-hint"
          />
          <span id="action-hours-hint" class="hint">
            In quarter hours; needed for outreach and volunteer shifts.
          </span>
        </div>
        <div>
          <label for="action-place">Where</label>
          <input
            id="action-place"
            name="placeName"
            type="text"
            maxlength={200}
            value={values.placeName}
            aria-describedby="action-place-hint"
          />
          <span id="action-place-hint" class="hint">
            Volunteer shifts only, e.g. the sanctuary's name.
          </span>
        </div>
        <div>
          <label for="action-note">Note</label>
          <textarea id="action-note" name="note" maxlength={1000} aria-describedby="action-note-hint">
            {values.note ?? ''}
          </textarea>
          <span id="action-note-hint" class="hint">
            Only you can see your log.
          </span>
        </div>
        <p class="actions">
          <button type="submit">Log action</button>
        </p>
      </form>
    </>
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
    { title: 'Actions' },
    <>
      <p>Your private log of what you do for animals. Nobody else can see it.</p>
      <FormError message={view.error} />

      <section aria-labelledby="log-form-heading">
        <h2 id="log-form-heading">Log an action</h2>
        <LogForm values={view.values ?? {}} error={view.createError} />
      </section>

      <section aria-labelledby="suggestions-heading">
        <h2 id="suggestions-heading">Suggestions</h2>
        {suggestions.items.length === 0 ? (
          <p class="muted">Events you said you were going to show up here once they are over.</p>
        ) : (
          <ul class="plain">
            {suggestions.items.map((suggestion) => (
              <SuggestionItem suggestion={suggestion} />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="log-heading">
        <h2 id="log-heading">Your log</h2>
        <form method="get" action={urls.actions()} class="filters" aria-label="Filter the log">
          <div>
            <label for="filter-kind">Show</label>
            <select id="filter-kind" name="kind">
              <option value="">All kinds</option>
              {KINDS.map((kind) => (
                <option value={kind} selected={filters.kind === kind}>
                  {KIND_LABELS[kind]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label for="filter-from">From</label>
            <input id="filter-from" name="from" type="date" value={filters.from} />
          </div>
          <div>
            <label for="filter-to">To</label>
            <input id="filter-to" name="to" type="date" value={filters.to} />
          </div>
          <button type="submit" class="secondary">
            Filter
          </button>
        </form>
        <p>
          <a href={exportHref} download>
            Download as CSV
          </a>{' '}
          <span class="hint">(every entry the filter shows, for a spreadsheet)</span>
        </p>
        {!log.ok ? (
          <FormError message={failureMessage(log.failure)} />
        ) : log.value.items.length === 0 ? (
          <p class="muted">Nothing logged{cursor ? ' further back' : ' yet'}.</p>
        ) : (
          <div class="table-scroll">
            <table>
              <caption class="visually-hidden">Your logged actions, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Hours</th>
                  <th scope="col">Details</th>
                  <th scope="col">
                    <span class="visually-hidden">Delete</span>
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
            <a href={`${urls.actions()}${query({ ...filters, cursor: log.value.nextCursor })}`}>Older entries</a>
          </p>
        ) : null}
      </section>

      <section aria-labelledby="aggregate-heading">
        <h2 id="aggregate-heading">Totals for your groves</h2>
        <p>
          If you opt in, your number of actions and hours (never the entries) count towards the anonymous totals of your
          groves and of the whole service. Totals from fewer than 5 members are never shown.
        </p>
        <form method="post" action={urls.actionsOptIn()} class="actions">
          <p>
            <strong>{optIn.optIn ? 'You contribute your totals.' : 'You do not contribute your totals.'}</strong>
          </p>
          <input type="hidden" name="optIn" value={optIn.optIn ? 'false' : 'true'} />
          <button type="submit" class="secondary">
            {optIn.optIn ? 'Stop contributing my totals' : 'Contribute my totals'}
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
  return redirectWithNotice(c, urls.actions(), `${KIND_LABELS[result.value.kind]} logged.`);
};

export const confirmActionSuggestion: Page = async (c) => {
  const eventId = pathParam(c, 'eventId');
  const result = await tryApi(() => api(c).actions.create.mutate({ kind: 'event_attended', eventId }));
  if (!result.ok) return failedOnPage(c, result.failure, { error: failureMessage(result.failure) });
  return redirectWithNotice(c, urls.actions(), `“${result.value.eventTitle ?? 'The event'}” is in your log.`);
};

export const deleteAction: Page = async (c) => {
  const id = pathParam(c, 'id');
  const request = {
    question: 'Delete this entry from your action log?',
    details: <p>It leaves your log and your exports. This cannot be undone.</p>,
    action: urls.actionDelete(id),
    fields: await formFields(c),
    confirmLabel: 'Delete the entry',
    cancelHref: urls.actions(),
  };
  return confirmFirst(c, request, async () => {
    const result = await tryApi(() => api(c).actions.delete.mutate({ id }));
    if (!result.ok) return failedOnPage(c, result.failure, { error: failureMessage(result.failure) });
    return redirectWithNotice(c, urls.actions(), 'The entry was deleted.');
  });
};

export const setAggregateOptIn: Page = async (c) => {
  const { optIn } = await formFields(c);
  const result = await tryApi(() => api(c).me.setActionAggregateOptIn.mutate({ optIn: optIn === 'true' }));
  if (!result.ok) return failedOnPage(c, result.failure, { error: failureMessage(result.failure) });
  return redirectWithNotice(
    c,
    urls.actions(),
    result.value.optIn ? 'You now contribute your totals.' : 'You no longer contribute your totals.',
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
        response.status === 400 && envelope?.error?.message
          ? envelope.error.message
          : 'The download could not be prepared. Please try again.',
    });
  }
  return c.body(response.body ?? '', 200, {
    'Content-Type': response.headers.get('content-type') ?? 'text/csv; charset=utf-8',
    'Content-Disposition': response.headers.get('content-disposition') ?? 'attachment; filename="action-log.csv"',
  });
};
