// The admins' report queue (/app/admin/reports): filters by status and target type, each report
// with its reporter, the snapshot taken when it was reported, the target's state now and every
// decision; a form to resolve or dismiss it with an internal note, a public note for the reporter
// and, for posts and comments, the hide action; for a reported message, when its text will be
// deleted and a choice to keep it as evidence. Members who are not admins get a 403 page (the
// API decides).
import type { Context } from 'hono';
import { isApiError, type RouterInputs, type RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { FormError, renderPage } from '../server/layout.js';
import { backPath, currentPath, DateTime, formErrorStatus, Pager, renderNotFound, textField } from './posts-view.js';
import { reasonLabels, statusLabels, targetLabels } from './reports.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

type AdminReport = RouterOutputs['reports']['adminList']['items'][number];
type Status = NonNullable<RouterInputs['reports']['adminList']['status']>;
type TargetType = NonNullable<RouterInputs['reports']['adminList']['targetType']>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HIDEABLE = new Set<string>(['post', 'comment']);

const targetStateLabels: Record<AdminReport['target']['state'], string> = {
  present: 'still there',
  hidden: 'hidden by moderation',
  deleted: 'deleted (the snapshot remains)',
  unknown: 'unknown',
};

interface ResolveFormState {
  reportId: string;
  status: string;
  note: string;
  publicNote: string;
  hide: boolean;
  keepEvidence: boolean;
  error: string;
}

function isStatus(value: unknown): value is Status {
  return typeof value === 'string' && Object.hasOwn(statusLabels, value);
}
function isTargetType(value: unknown): value is TargetType {
  return typeof value === 'string' && Object.hasOwn(targetLabels, value);
}

/** The snapshot as the reporter saw the target: every field, values as text. */
function Snapshot({ snapshot }: { snapshot: Record<string, unknown> }) {
  const entries = Object.entries(snapshot);
  if (entries.length === 0) return <p class="muted">No snapshot.</p>;
  return (
    <dl class="snapshot">
      {entries.map(([key, value]) => (
        <>
          <dt>{key}</dt>
          <dd>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
        </>
      ))}
    </dl>
  );
}

/** When a reported message's text goes (it is sealed, and deleted by the retention rule). */
function PrivateText({ retention }: { retention: AdminReport['target']['privateText'] }) {
  if (!retention) return null;
  if (!retention.deleteAt) return <p class="muted">The message's text was deleted under the retention rule.</p>;
  return (
    <p class="muted">
      {retention.unreadable ? 'The text cannot be decrypted. ' : ''}
      The message's text is deleted on <DateTime value={retention.deleteAt} />
      {retention.keptAsEvidence ? ' (kept as evidence)' : ''}.
    </p>
  );
}

function ResolveForm({ report, back, state }: { report: AdminReport; back: string; state?: ResolveFormState }) {
  const id = report._id;
  const status = state?.status ?? 'resolved';
  const canHide = HIDEABLE.has(report.targetType) && report.target.state === 'present';
  return (
    <form method="post" action={urls.adminReportResolve(id)} class="stack">
      <FormError message={state?.error} />
      <input type="hidden" name="back" value={back} />
      <fieldset>
        <legend>Decision</legend>
        <label class="choice">
          <input type="radio" name="status" value="resolved" checked={status === 'resolved'} /> Resolve
        </label>
        <label class="choice">
          <input type="radio" name="status" value="dismissed" checked={status === 'dismissed'} /> Dismiss
        </label>
      </fieldset>
      {report.target.privateText?.deleteAt ? (
        <label class="choice">
          <input type="checkbox" name="keepEvidence" value="1" checked={state?.keepEvidence ?? false} /> Keep the
          message's text as evidence for 365 days, even after the message itself disappears
        </label>
      ) : null}
      {canHide ? (
        <label class="choice">
          <input type="checkbox" name="hide" value="1" checked={state?.hide ?? false} /> Hide the{' '}
          {targetLabels[report.targetType]} from everyone but admins (with Resolve only)
        </label>
      ) : null}
      <div>
        <label for={`note-${id}`}>
          Internal note <span class="hint">(admins only)</span>
        </label>
        <textarea id={`note-${id}`} name="note" maxlength={2000}>
          {state?.note ?? ''}
        </textarea>
      </div>
      <div>
        <label for={`public-note-${id}`}>
          Public note <span class="hint">(shown to the reporter, never who decided)</span>
        </label>
        <textarea id={`public-note-${id}`} name="publicNote" maxlength={1000}>
          {state?.publicNote ?? ''}
        </textarea>
      </div>
      <div>
        <button type="submit">Record the decision</button>
      </div>
    </form>
  );
}

function ReportCard({ report, back, state }: { report: AdminReport; back: string; state?: ResolveFormState }) {
  const label = targetLabels[report.targetType];
  return (
    <article class="card report" id={`report-${report._id}`} aria-labelledby={`report-${report._id}-title`}>
      <h3 id={`report-${report._id}-title`}>
        {label[0]!.toUpperCase()}
        {label.slice(1)} reported for {reasonLabels[report.reason].toLowerCase()}
      </h3>
      <p>
        By <a href={urls.profile(report.reporter.handle)}>@{report.reporter.handle}</a> on{' '}
        <DateTime value={report.createdAt} />. Status: <strong>{statusLabels[report.status]}</strong>
      </p>
      {report.details ? <p>Details: {report.details}</p> : null}
      <h4>The {label}</h4>
      <p>
        Author:{' '}
        {report.target.author ? (
          <a href={urls.profile(report.target.author.handle)}>@{report.target.author.handle}</a>
        ) : report.target.authorDeleted ? (
          'deleted account'
        ) : (
          'none'
        )}
        . Now: <strong>{targetStateLabels[report.target.state]}</strong>
        {report.targetType === 'post' && report.targetId && report.target.state !== 'deleted' ? (
          <>
            {' '}
            · <a href={urls.post(report.targetId)}>Open the post</a>
          </>
        ) : null}
      </p>
      <Snapshot snapshot={report.target.snapshot} />
      <PrivateText retention={report.target.privateText} />
      {report.decisions.length > 0 ? (
        <>
          <h4>Decisions</h4>
          <ol>
            {report.decisions.map((decision) => (
              <li>
                {decision.status === 'resolved' ? 'Resolved' : 'Dismissed'}
                {decision.action === 'hide' ? ' and hidden' : ''}
                {decision.keepEvidence ? ', text kept as evidence,' : ''} by{' '}
                {decision.moderator ? `@${decision.moderator.handle}` : 'a deleted account'} on{' '}
                <DateTime value={decision.decidedAt} />
                {decision.note ? <p>Internal note: {decision.note}</p> : null}
                {decision.publicNote ? <p>Public note: {decision.publicNote}</p> : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
      <h4>{report.status === 'open' ? 'Decide' : 'Decide again'}</h4>
      <ResolveForm report={report} back={back} state={state?.reportId === report._id ? state : undefined} />
    </article>
  );
}

interface Filters {
  status?: Status;
  targetType?: TargetType;
}

function readFilters(query: Record<string, string | undefined>): Filters {
  // The queue opens on open reports; "any" shows every status.
  const status = query.status === undefined ? 'open' : query.status;
  return {
    status: isStatus(status) ? status : undefined,
    targetType: isTargetType(query.targetType) ? query.targetType : undefined,
  };
}

function filterParams(filters: Filters): Record<string, string> {
  return { status: filters.status ?? 'any', ...(filters.targetType ? { targetType: filters.targetType } : {}) };
}

async function renderQueue(
  c: Context<WebEnv>,
  filters: Filters,
  cursor: string | undefined,
  back: string,
  state?: ResolveFormState,
): Promise<Response> {
  let page: RouterOutputs['reports']['adminList'];
  try {
    page = await api(c).reports.adminList.query({ ...filters, cursor, limit: 20 });
  } catch (error) {
    if (isApiError(error, 'forbidden')) {
      c.status(403);
      return renderPage(c, { title: 'Admins only' }, <p>This page is for the site's admins.</p>);
    }
    if (isApiError(error, 'invalid_cursor')) return c.redirect(urls.adminReports(), 303);
    throw error;
  }
  return renderPage(
    c,
    { title: 'Reports' },
    <>
      <form method="get" action={urls.adminReports()} class="actions filters">
        <div>
          <label for="filter-status">Status</label>
          <select id="filter-status" name="status">
            <option value="any" selected={!filters.status}>
              Any
            </option>
            {Object.keys(statusLabels).map((value) => (
              <option value={value} selected={filters.status === value}>
                {value[0]!.toUpperCase() + value.slice(1)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="filter-type">What was reported</label>
          <select id="filter-type" name="targetType">
            <option value="" selected={!filters.targetType}>
              Anything
            </option>
            {Object.entries(targetLabels).map(([value, label]) => (
              <option value={value} selected={filters.targetType === value}>
                {label[0]!.toUpperCase() + label.slice(1)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <button type="submit">Filter</button>
        </div>
      </form>
      <h2>{page.items.length === 0 ? 'No reports' : 'Oldest first'}</h2>
      {page.items.map((report) => (
        <ReportCard report={report} back={back} state={state} />
      ))}
      <Pager
        basePath={urls.adminReports()}
        params={filterParams(filters)}
        cursor={cursor}
        nextCursor={page.nextCursor}
        label="Reports"
      />
    </>,
  );
}

export const adminReportsPage: Page = (c) =>
  renderQueue(c, readFilters(c.req.query()), c.req.query('cursor') || undefined, currentPath(c));

export const resolveReport: Page = async (c) => {
  const id = pathParam(c, 'id');
  if (!UUID.test(id)) return renderNotFound(c);
  const form = await c.req.parseBody();
  const back = backPath(form.back, urls.adminReports());
  const status = textField(form, 'status');
  const note = textField(form, 'note').trim();
  const publicNote = textField(form, 'publicNote').trim();
  const hide = textField(form, 'hide') === '1';
  const keepEvidence = textField(form, 'keepEvidence') === '1';
  const backUrl = new URL(back, 'http://x');
  const filters = readFilters(Object.fromEntries(backUrl.searchParams));
  const cursor = backUrl.searchParams.get('cursor') || undefined;
  const refuse = (error: string, httpStatus: 400 | 403 | 404 | 409 | 413 | 429 | 500) => {
    c.status(httpStatus);
    return renderQueue(c, filters, cursor, back, {
      reportId: id,
      status,
      note,
      publicNote,
      hide,
      keepEvidence,
      error,
    });
  };
  if (status !== 'resolved' && status !== 'dismissed') return refuse('Choose Resolve or Dismiss.', 400);
  try {
    await api(c).reports.resolve.mutate({
      id,
      status,
      note: note || undefined,
      publicNote: publicNote || undefined,
      action: hide ? 'hide' : undefined,
      keepEvidence: keepEvidence || undefined,
    });
  } catch (error) {
    if (!isApiError(error) || formErrorStatus(error) === 500) throw error;
    if (isApiError(error, 'forbidden')) return refuse(apiErrorMessage(error), 403);
    return refuse(apiErrorMessage(error), formErrorStatus(error));
  }
  return redirectWithNotice(
    c,
    back,
    `Report ${status}${hide ? ' and the content hidden' : ''}${keepEvidence ? ', the message text kept as evidence' : ''}${publicNote ? '; the reporter sees your public note' : ''}.`,
  );
};
