// One report in the admins' queue (admin-reports.tsx): who reported what and when, the snapshot
// taken then, the target's state now, every decision, and the form for the next decision.
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { fmt, t } from '../server/i18n.js';
import { FormError } from '../server/layout.js';
import { DateTime } from './posts-view.js';
import { reasonKeys, statusKeys } from './reports.js';
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

const targetStateKeys: Record<AdminReport['target']['state'], string> = {
  present: 'moderation.card.states.present',
  hidden: 'moderation.card.states.hidden',
  deleted: 'moderation.card.states.deleted',
  unknown: 'moderation.card.states.unknown',
};

/** The snapshot as the reporter saw the target: every field, values as text. */
function Snapshot({ snapshot }: { snapshot: Record<string, unknown> }) {
  const entries = Object.entries(snapshot);
  if (entries.length === 0) return <p class="muted">{t('moderation.card.noSnapshot')}</p>;
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
  if (!retention.deleteAt) return <p class="muted">{t('moderation.card.textDeleted')}</p>;
  return (
    <p class="muted">
      {retention.unreadable ? `${t('moderation.card.unreadable')} ` : ''}
      {fmt().rich(retention.keptAsEvidence ? 'moderation.card.textDeletedOnKept' : 'moderation.card.textDeletedOn', {
        when: <DateTime value={retention.deleteAt} />,
      })}
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
        <legend>{t('moderation.form.decision')}</legend>
        <label class="choice">
          <input type="radio" name="status" value="resolved" checked={status === 'resolved'} />{' '}
          {t('moderation.form.resolve')}
        </label>
        <label class="choice">
          <input type="radio" name="status" value="dismissed" checked={status === 'dismissed'} />{' '}
          {t('moderation.form.dismiss')}
        </label>
      </fieldset>
      {report.target.privateText?.deleteAt ? (
        <label class="choice">
          <input type="checkbox" name="keepEvidence" value="1" checked={state?.keepEvidence ?? false} />{' '}
          {t('moderation.form.keepEvidence')}
        </label>
      ) : null}
      {canHide ? (
        <label class="choice">
          <input type="checkbox" name="hide" value="1" checked={state?.hide ?? false} />{' '}
          {t('moderation.form.hide', { type: report.targetType })}
        </label>
      ) : null}
      <div>
        <label for={`note-${id}`}>
          {t('moderation.form.reason')} <span class="hint">{t('moderation.form.reasonHint')}</span>
        </label>
        <textarea id={`note-${id}`} name="note" maxlength={2000}>
          {state?.note ?? ''}
        </textarea>
      </div>
      <div>
        <label for={`public-note-${id}`}>
          {t('moderation.form.publicNote')} <span class="hint">{t('moderation.form.publicNoteHint')}</span>
        </label>
        <textarea id={`public-note-${id}`} name="publicNote" maxlength={1000}>
          {state?.publicNote ?? ''}
        </textarea>
      </div>
      <div>
        <button type="submit">{t('moderation.form.submit')}</button>
      </div>
    </form>
  );
}

export function ReportCard({ report, back, state }: { report: AdminReport; back: string; state?: ResolveFormState }) {
  const type = report.targetType;
  const author = report.target.author ? (
    <a href={urls.profile(report.target.author.handle)}>@{report.target.author.handle}</a>
  ) : report.target.authorDeleted ? (
    t('moderation.card.deletedAccount')
  ) : (
    t('moderation.card.none')
  );
  return (
    <article class="card report" id={`report-${report._id}`} aria-labelledby={`report-${report._id}-title`}>
      <h3 id={`report-${report._id}-title`}>
        {t('moderation.card.title', { type, reason: t(reasonKeys[report.reason]) })}
      </h3>
      <p>
        {fmt().rich('moderation.card.by', {
          reporter: <a href={urls.profile(report.reporter.handle)}>@{report.reporter.handle}</a>,
          when: <DateTime value={report.createdAt} />,
          status: <strong>{t(statusKeys[report.status])}</strong>,
        })}
      </p>
      {report.details ? <p>{t('moderation.card.details', { details: report.details })}</p> : null}
      <h4>{t('moderation.card.target', { type })}</h4>
      <p>
        {fmt().rich('moderation.card.author', {
          author,
          state: <strong>{t(targetStateKeys[report.target.state])}</strong>,
        })}
        {type === 'post' && report.targetId && report.target.state !== 'deleted' ? (
          <>
            {' '}
            · <a href={urls.post(report.targetId)}>{t('moderation.card.openPost')}</a>
          </>
        ) : null}
      </p>
      <Snapshot snapshot={report.target.snapshot} />
      <PrivateText retention={report.target.privateText} />
      {report.decisions.length > 0 ? (
        <>
          <h4>{t('moderation.card.decisions')}</h4>
          <ol>
            {report.decisions.map((decision) => (
              <li>
                {fmt().rich('moderation.card.decision', {
                  status: decision.status,
                  hidden: decision.action === 'hide' ? 'yes' : 'no',
                  kept: decision.keepEvidence ? 'yes' : 'no',
                  moderator: decision.moderator
                    ? `@${decision.moderator.handle}`
                    : t('moderation.card.deletedModerator'),
                  when: <DateTime value={decision.decidedAt} />,
                })}
                {decision.note ? <p>{t('moderation.card.reasonLine', { reason: decision.note })}</p> : null}
                {decision.publicNote ? (
                  <p>{t('moderation.card.publicNoteLine', { note: decision.publicNote })}</p>
                ) : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
      <h4>{report.status === 'open' ? t('moderation.card.decide') : t('moderation.card.decideAgain')}</h4>
      <ResolveForm report={report} back={back} state={state?.reportId === report._id ? state : undefined} />
    </article>
  );
}
