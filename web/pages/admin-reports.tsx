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
import { t } from '../server/i18n.js';
import { renderPage } from '../server/layout.js';
import { backPath, currentPath, formErrorStatus, Pager, renderNotFound, textField } from './posts-view.js';
import { ReportCard, type ResolveFormState } from './admin-reports-card.js';
import { type ConfirmRequest, confirmFirst } from './confirm.js';
import { isTargetType, statusKeys, targetTypes } from './reports.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

type Status = NonNullable<RouterInputs['reports']['adminList']['status']>;
type TargetType = NonNullable<RouterInputs['reports']['adminList']['targetType']>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isStatus(value: unknown): value is Status {
  return typeof value === 'string' && Object.hasOwn(statusKeys, value);
}

/** What an empty queue means, and where to look instead. */
function EmptyQueue({ filters }: { filters: Filters }) {
  if (filters.status === 'open' && !filters.targetType) return <p>{t('moderation.queue.emptyOpen')}</p>;
  return (
    <p>
      {t('moderation.queue.emptyFiltered')} <a href={urls.adminReports()}>{t('moderation.queue.showOpen')}</a>
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
      return renderPage(c, { title: t('moderation.queue.adminsOnlyTitle') }, <p>{t('moderation.queue.adminsOnly')}</p>);
    }
    if (isApiError(error, 'invalid_cursor')) return c.redirect(urls.adminReports(), 303);
    throw error;
  }
  return renderPage(
    c,
    { title: t('moderation.queue.title') },
    <>
      <form method="get" action={urls.adminReports()} class="actions filters">
        <div>
          <label for="filter-status">{t('moderation.queue.status')}</label>
          <select id="filter-status" name="status">
            <option value="any" selected={!filters.status}>
              {t('moderation.queue.any')}
            </option>
            {Object.keys(statusKeys).map((value) => (
              <option value={value} selected={filters.status === value}>
                {t('moderation.queue.statusOption', { status: value })}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="filter-type">{t('moderation.queue.whatWasReported')}</label>
          <select id="filter-type" name="targetType">
            <option value="" selected={!filters.targetType}>
              {t('moderation.queue.anything')}
            </option>
            {targetTypes.map((value) => (
              <option value={value} selected={filters.targetType === value}>
                {t('moderation.queue.typeOption', { type: value })}
              </option>
            ))}
          </select>
        </div>
        <div>
          <button type="submit">{t('moderation.queue.filter')}</button>
        </div>
      </form>
      <h2>{page.items.length === 0 ? t('moderation.queue.noReports') : t('moderation.queue.oldestFirst')}</h2>
      {page.items.length === 0 ? <EmptyQueue filters={filters} /> : null}
      {page.items.map((report) => (
        <ReportCard report={report} back={back} state={state} />
      ))}
      <Pager
        basePath={urls.adminReports()}
        params={filterParams(filters)}
        cursor={cursor}
        nextCursor={page.nextCursor}
        label={t('moderation.queue.pager')}
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
  if (status !== 'resolved' && status !== 'dismissed') return refuse(t('moderation.form.chooseDecision'), 400);
  // Refused before asking: a confirmation for a decision the API would refuse helps nobody.
  if (status === 'dismissed' && hide) return refuse(t('moderation.form.hideWithResolve'), 400);
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
    const done = t('moderation.form.done', {
      status,
      hidden: hide ? 'yes' : 'no',
      kept: keepEvidence ? 'yes' : 'no',
      noted: publicNote ? 'yes' : 'no',
    });
    return redirectWithNotice(c, back, done);
  };
  // Resolving without hiding takes nothing away; dismissing and hiding ask first.
  if (status === 'resolved' && !hide) return decide(note || undefined);
  const targetType = isTargetType(form.targetType) ? form.targetType : undefined;
  return confirmFirst(
    c,
    decisionConfirmation({ id, hide, publicNote, targetType, back, fields: stringFields(form) }),
    decide,
  );
};

/** Dismissing or hiding, asked first; hiding takes a reason (the decision's internal note). */
function decisionConfirmation(decision: {
  id: string;
  hide: boolean;
  publicNote: string;
  targetType: TargetType | undefined;
  back: string;
  fields: Record<string, string>;
}): ConfirmRequest {
  const type = decision.targetType ?? 'other';
  return {
    question: decision.hide
      ? t('moderation.confirmDecision.hideQuestion', { type })
      : t('moderation.confirmDecision.dismissQuestion'),
    details: (
      <>
        <p>
          {decision.hide ? t('moderation.confirmDecision.hideDetails') : t('moderation.confirmDecision.dismissDetails')}
        </p>
        <p>
          {decision.publicNote
            ? t('moderation.confirmDecision.reporterSeesNote')
            : t('moderation.confirmDecision.reporterSees')}
        </p>
      </>
    ),
    action: urls.adminReportResolve(decision.id),
    fields: decision.fields,
    confirmLabel: decision.hide
      ? t('moderation.confirmDecision.hideLabel', { type })
      : t('moderation.confirmDecision.dismissLabel'),
    cancelHref: `${decision.back}#report-${decision.id}`,
    danger: decision.hide,
    reason: {
      name: 'note',
      label: t('moderation.form.reason'),
      hint: decision.hide
        ? t('moderation.confirmDecision.reasonHintRequired')
        : t('moderation.confirmDecision.reasonHint'),
      required: decision.hide,
      maxLength: 2000,
      missingMessage: t('moderation.confirmDecision.missingReason'),
    },
  };
}

/** A parsed form body's text fields (the confirmation posts them again). */
function stringFields(form: Record<string, unknown>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) if (typeof value === 'string') fields[key] = value;
  return fields;
}
