// Reporting: the report form (/app/reports/new?type=post&id=…, any reportable type, so other
// pages can link to it) and "my reports" (/app/reports): each report's status and the admins'
// public note about the outcome; never who decided, never the internal note (the API does not
// give them to the reporter).
import type { Context } from 'hono';
import { isApiError, type RouterInputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { FormError, renderPage } from '../server/layout.js';
import { backPath, DateTime, formErrorStatus, Pager, renderNotFound, textField } from './posts-view.js';
import type { Page } from './page.js';
import { urls } from '../urls.js';

type TargetType = RouterInputs['reports']['create']['targetType'];
type Reason = RouterInputs['reports']['create']['reason'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const targetLabels: Record<TargetType, string> = {
  post: 'post',
  comment: 'comment',
  member: 'member',
  message: 'message',
  place: 'place',
  review: 'review',
  event: 'event',
};

export const reasonLabels: Record<Reason, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  hate: 'Hate',
  violence: 'Violence',
  misinformation: 'Misinformation',
  other: 'Something else',
};

export const statusLabels: Record<'open' | 'resolved' | 'dismissed', string> = {
  open: 'Open: waiting for an admin',
  resolved: 'Resolved',
  dismissed: 'Dismissed',
};

/** "a post", "an event". */
export function withArticle(noun: string): string {
  return /^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}

function isTargetType(value: unknown): value is TargetType {
  return typeof value === 'string' && Object.hasOwn(targetLabels, value);
}
function isReason(value: unknown): value is Reason {
  return typeof value === 'string' && Object.hasOwn(reasonLabels, value);
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
    { title: `Report this ${targetLabels[state.type]}` },
    <>
      <p>
        The site's admins will see your report, who you are, and a copy of the {targetLabels[state.type]} as it is now.
        The person you report is not told who reported them.
      </p>
      <form method="post" action={urls.reports()} class="stack">
        <FormError message={state.error} />
        <input type="hidden" name="type" value={state.type} />
        <input type="hidden" name="id" value={state.id} />
        <input type="hidden" name="back" value={state.back} />
        <div>
          <label for="report-reason">Reason</label>
          <select id="report-reason" name="reason" required>
            {Object.entries(reasonLabels).map(([value, label]) => (
              <option value={value} selected={value === state.reason}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="report-details">
            Details <span class="hint">(optional, up to 1000 characters)</span>
          </label>
          <textarea id="report-details" name="details" maxlength={1000}>
            {state.details ?? ''}
          </textarea>
        </div>
        <div class="actions">
          <button type="submit">Send the report</button>
          <a href={state.back}>Cancel</a>
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
    return renderReportForm(c, { type, id, back, reason, details, error: 'Choose a reason.' });
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
    const message = isApiError(error, 'conflict')
      ? `You already reported this ${targetLabels[type]}; the admins have not decided yet.`
      : apiErrorMessage(error);
    return renderReportForm(c, { type, id, back, reason, details, error: message });
  }
  return redirectWithNotice(c, urls.reports(), 'Thank you: your report is sent to the admins.');
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
    { title: 'My reports' },
    <>
      <p class="muted">What you reported and what the admins decided. Only you see this list.</p>
      {page.items.length === 0 ? (
        <p>
          You have not reported anything. When a post, comment, event, place or member breaks the rules, choose “Report”
          next to it: the admins decide, and their answer appears here.
        </p>
      ) : (
        <ul class="plain">
          {page.items.map((report) => (
            <li class="card report">
              <p>
                <strong>Report on {withArticle(targetLabels[report.targetType])}</strong> for{' '}
                {reasonLabels[report.reason].toLowerCase()}, sent <DateTime value={report.createdAt} />
              </p>
              {report.details ? <p class="muted">Your details: {report.details}</p> : null}
              <p>
                Status: <strong>{statusLabels[report.status]}</strong>
                {report.decidedAt ? (
                  <>
                    {' '}
                    (<DateTime value={report.decidedAt} />)
                  </>
                ) : null}
              </p>
              {report.action === 'hide' ? <p>The {targetLabels[report.targetType]} was hidden.</p> : null}
              {report.publicNote ? <p class="public-note">Note from the admins: {report.publicNote}</p> : null}
            </li>
          ))}
        </ul>
      )}
      <Pager basePath={urls.reports()} cursor={cursor} nextCursor={page.nextCursor} label="Reports" />
    </>,
  );
};
