// Reporting: the report form (/app/reports/new?type=post&id=…, any reportable type, so other
// pages can link to it) and "my reports" (/app/reports): each report's status and the admins'
// public note about the outcome; never who decided, never the internal note (the API does not
// give them to the reporter).
import type { Context } from 'hono';
import { isApiError, type RouterInputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { fmt, t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import { backPath, DateTime, formErrorStatus, Pager, renderNotFound, textField } from './posts-view.js';
import type { Page } from './page.js';
import { urls } from '../urls.js';

type TargetType = RouterInputs['reports']['create']['targetType'];
type Reason = RouterInputs['reports']['create']['reason'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The reportable types (their names are translated inside each message, with ICU select). */
export const targetTypes: readonly TargetType[] = ['post', 'comment', 'member', 'message', 'place', 'review', 'event'];

/** Catalog keys of the reasons. */
export const reasonKeys: Record<Reason, string> = {
  spam: 'reports.reasons.spam',
  harassment: 'reports.reasons.harassment',
  hate: 'reports.reasons.hate',
  violence: 'reports.reasons.violence',
  misinformation: 'reports.reasons.misinformation',
  other: 'reports.reasons.other',
};

/** Catalog keys of the statuses. */
export const statusKeys: Record<'open' | 'resolved' | 'dismissed', string> = {
  open: 'reports.statuses.open',
  resolved: 'reports.statuses.resolved',
  dismissed: 'reports.statuses.dismissed',
};

export function isTargetType(value: unknown): value is TargetType {
  return typeof value === 'string' && (targetTypes as readonly string[]).includes(value);
}
function isReason(value: unknown): value is Reason {
  return typeof value === 'string' && Object.hasOwn(reasonKeys, value);
}

interface ReportFormState {
  type: TargetType;
  id: string;
  back: string;
  reason?: string;
  details?: string;
  error?: string;
}

function renderReportForm(c: Context<WebEnv>, state: ReportFormState): Promise<Response> {
  return renderPage(
    c,
    { title: t('reports.form.title', { type: state.type }) },
    <>
      <p>{t('reports.form.intro', { type: state.type })}</p>
      <form method="post" action={urls.reports()} class="stack">
        <FormError message={state.error} />
        <input type="hidden" name="type" value={state.type} />
        <input type="hidden" name="id" value={state.id} />
        <input type="hidden" name="back" value={state.back} />
        <div>
          <label for="report-reason">{t('reports.form.reason')}</label>
          <select id="report-reason" name="reason" required>
            {Object.entries(reasonKeys).map(([value, key]) => (
              <option value={value} selected={value === state.reason}>
                {t(key)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="report-details">
            {t('reports.form.details')} <span class="hint">{t('reports.form.detailsHint')}</span>
          </label>
          <textarea id="report-details" name="details" maxlength={1000}>
            {state.details ?? ''}
          </textarea>
        </div>
        <div class="actions">
          <button type="submit">{t('reports.form.submit')}</button>
          <a href={state.back}>{t('reports.form.cancel')}</a>
        </div>
      </form>
    </>,
  );
}

export const newReportPage: Page = (c) => {
  const type = c.req.query('type');
  const id = c.req.query('id') ?? '';
  if (!isTargetType(type) || !UUID.test(id)) return renderNotFound(c);
  return renderReportForm(c, { type, id, back: backPath(c.req.query('back'), urls.feed()) });
};

export const fileReport: Page = async (c) => {
  const form = await c.req.parseBody();
  const type = form.type;
  const id = textField(form, 'id');
  const back = backPath(form.back, urls.feed());
  const reason = textField(form, 'reason');
  const details = textField(form, 'details').trim();
  if (!isTargetType(type) || !UUID.test(id)) return renderNotFound(c);
  if (!isReason(reason)) {
    c.status(400);
    return renderReportForm(c, { type, id, back, reason, details, error: t('reports.form.chooseReason') });
  }
  try {
    await api(c).reports.create.mutate({
      targetType: type,
      targetId: id,
      reason,
      details: details || undefined,
    });
  } catch (error) {
    if (!isApiError(error) || formErrorStatus(error) === 500) throw error;
    if (isApiError(error, 'not_found')) return renderNotFound(c);
    c.status(formErrorStatus(error));
    const message = isApiError(error, 'conflict') ? t('reports.form.already', { type }) : apiErrorMessage(error);
    return renderReportForm(c, { type, id, back, reason, details, error: message });
  }
  return redirectWithNotice(c, urls.reports(), t('reports.form.sent'));
};

export const myReportsPage: Page = async (c) => {
  const cursor = c.req.query('cursor') || undefined;
  let page: Awaited<ReturnType<ReturnType<typeof api>['me']['listReports']['query']>>;
  try {
    page = await api(c).me.listReports.query({ cursor, limit: 20 });
  } catch (error) {
    if (isApiError(error, 'invalid_cursor')) return c.redirect(urls.reports(), 303);
    throw error;
  }
  return renderPage(
    c,
    { title: t('reports.mine.title') },
    <>
      <p class="muted">{t('reports.mine.intro')}</p>
      {page.items.length === 0 ? (
        <p>{t('reports.mine.empty')}</p>
      ) : (
        <ul class="plain">
          {page.items.map((report) => (
            <li class="card report">
              <p>
                <strong>{t('reports.mine.on', { type: report.targetType })}</strong>:{' '}
                {fmt().rich('reports.mine.reasonSent', {
                  reason: t(reasonKeys[report.reason]),
                  when: <DateTime value={report.createdAt} />,
                })}
              </p>
              {report.details ? <p class="muted">{t('reports.mine.details', { details: report.details })}</p> : null}
              <p>
                {fmt().rich('reports.mine.status', { status: <strong>{t(statusKeys[report.status])}</strong> })}
                {report.decidedAt ? (
                  <> {fmt().rich('reports.mine.decidedAt', { when: <DateTime value={report.decidedAt} /> })}</>
                ) : null}
              </p>
              {report.action === 'hide' ? <p>{t('reports.mine.hidden', { type: report.targetType })}</p> : null}
              {report.publicNote ? (
                <p class="public-note">{t('reports.mine.publicNote', { note: report.publicNote })}</p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <Pager basePath={urls.reports()} cursor={cursor} nextCursor={page.nextCursor} label={t('reports.mine.pager')} />
    </>,
  );
};
