// One report in the admins' queue (admin-reports.tsx): who reported what and when, the snapshot
// taken then, the target's state now, every decision, and the form for the next decision.
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { FormError } from '../server/layout.js';
import { DateTime } from './posts-view.js';
import { reasonLabels, statusLabels, targetLabels } from './reports.js';
import { urls } from '../urls.js';

export type AdminReport = RouterOutputs['reports']['adminList']['items'][number];

const HIDEABLE = new Set<string>(['post', 'comment']);

/** What the admin typed, shown again when the decision was refused. */
export interface ResolveFormState {
  reportId: string;
  status: string;
  note: string;
  publicNote: string;
  hide: boolean;
  keepEvidence: boolean;
  error: string;
}

const targetStateLabels: Record<AdminReport['target']['state'], string> = {
  present: 'still there',
  hidden: 'hidden by moderation',
  deleted: 'deleted (the snapshot remains)',
  unknown: 'unknown',
};

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
      <input type="hidden" name="targetType" value={report.targetType} />
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
          Reason <span class="hint">(admins only; required to hide)</span>
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

export function ReportCard({ report, back, state }: { report: AdminReport; back: string; state?: ResolveFormState }) {
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
                {decision.note ? <p>Reason: {decision.note}</p> : null}
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
