// The admins' report queue (/app/admin/reports): filters by status and target type, and each
// report as a card (admin-reports-card.tsx) with the form for a decision: resolve or dismiss with
// a reason (the decision's internal note), a public note for the reporter, and for posts and
// comments the hide action. Dismissing and hiding ask first (confirm.tsx); hiding needs a reason.
// Members who are not admins get a 403 page (the API decides).
import type { Context } from 'hono';
import { isApiError, type RouterInputs, type RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { renderPage } from '../server/layout.js';
import { backPath, currentPath, formErrorStatus, Pager, renderNotFound, textField } from './posts-view.js';
import { ReportCard, type ResolveFormState } from './admin-reports-card.js';
import { type ConfirmRequest, confirmFirst } from './confirm.js';
import { statusLabels, targetLabels } from './reports.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

type Status = NonNullable<RouterInputs['reports']['adminList']['status']>;
type TargetType = NonNullable<RouterInputs['reports']['adminList']['targetType']>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isStatus(value: unknown): value is Status {
  return typeof value === 'string' && Object.hasOwn(statusLabels, value);
}
function isTargetType(value: unknown): value is TargetType {
  return typeof value === 'string' && Object.hasOwn(targetLabels, value);
}

/** What an empty queue means, and where to look instead. */
function EmptyQueue({ filters }: { filters: Filters }) {
  const filtered = filters.status !== 'open' || filters.targetType;
  return (
    <p>
      {filters.status === 'open' && !filters.targetType
        ? 'Nothing is waiting for a decision. Reports members send appear here, oldest first.'
        : 'No report matches these filters.'}{' '}
      {filtered ? <a href={urls.adminReports()}>Show the open reports</a> : null}
    </p>
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
      {page.items.length === 0 ? <EmptyQueue filters={filters} /> : null}
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
  // Refused before asking: a confirmation for a decision the API would refuse helps nobody.
  if (status === 'dismissed' && hide) return refuse('Hiding goes with Resolve: choose Resolve to hide it.', 400);
  const decide = async (reason: string | undefined) => {
    try {
      await api(c).reports.resolve.mutate({
        id,
        status,
        note: reason,
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
  // Resolving without hiding takes nothing away; dismissing and hiding ask first.
  if (status === 'resolved' && !hide) return decide(note || undefined);
  const targetType = isTargetType(form.targetType) ? form.targetType : undefined;
  return confirmFirst(
    c,
    decisionConfirmation({ id, status, hide, publicNote, targetType, back, fields: stringFields(form) }),
    decide,
  );
};

/** Dismissing or hiding, asked first; hiding takes a reason (the decision's internal note). */
function decisionConfirmation(decision: {
  id: string;
  status: 'resolved' | 'dismissed';
  hide: boolean;
  publicNote: string;
  targetType: TargetType | undefined;
  back: string;
  fields: Record<string, string>;
}): ConfirmRequest {
  const what = decision.targetType ? `the ${targetLabels[decision.targetType]}` : 'the reported content';
  const reporterSees = decision.publicNote
    ? 'The reporter sees the outcome and your public note, never who decided.'
    : 'The reporter sees the outcome, never who decided.';
  return {
    question: decision.hide ? `Hide ${what}?` : 'Dismiss this report?',
    details: (
      <p>
        {decision.hide
          ? `Everyone but the site's admins will get "not found" for ${what}; a later decision does not show it again. `
          : 'Nothing happens to what was reported. You can decide again later. '}
        {reporterSees}
      </p>
    ),
    action: urls.adminReportResolve(decision.id),
    fields: decision.fields,
    confirmLabel: decision.hide ? `Hide ${what}` : 'Dismiss the report',
    cancelHref: `${decision.back}#report-${decision.id}`,
    danger: decision.hide,
    reason: {
      name: 'note',
      label: 'Reason',
      hint: decision.hide ? '(required; admins only)' : '(admins only)',
      required: decision.hide,
      maxLength: 2000,
      missingMessage: 'Give a reason for hiding it: the other admins will see it with the decision.',
    },
  };
}

/** A parsed form body's text fields (the confirmation posts them again). */
function stringFields(form: Record<string, unknown>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) if (typeof value === 'string') fields[key] = value;
  return fields;
}
