// The action log's entry form and the kinds' names (web/pages/actions.tsx is the page).
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { t } from '../server/i18n.js';
import { FormError } from '../server/layout.js';
import { urls } from '../urls.js';

export type Kind = RouterOutputs['actions']['list']['items'][number]['kind'];

/** Every kind, in the order the forms list them. */
export const KINDS: readonly Kind[] = ['outreach', 'volunteer_shift', 'event_attended', 'other'];

/** A kind's name in the viewer's language (keys written out for the catalog test). */
export function kindLabel(kind: Kind): string {
  switch (kind) {
    case 'outreach':
      return t('actions.kinds.outreach');
    case 'volunteer_shift':
      return t('actions.kinds.volunteer_shift');
    case 'event_attended':
      return t('actions.kinds.event_attended');
    default:
      return t('actions.kinds.other');
  }
}

export function LogForm({ values, error }: { values: Record<string, string>; error?: string }) {
  const today = new Date().toISOString().slice(0, 10);
  return (
    <>
      <FormError message={error} />
      <form method="post" action={urls.actions()} class="stack">
        <div>
          <label for="action-kind">{t('actions.form.kind')}</label>
          <select id="action-kind" name="kind" required>
            {KINDS.map((kind) => (
              <option value={kind} selected={(values.kind ?? 'outreach') === kind}>
                {kindLabel(kind)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="action-date">{t('actions.form.date')}</label>
          <input id="action-date" name="occurredOn" type="date" required value={values.occurredOn ?? today} />
        </div>
        <div>
          <label for="action-hours">{t('actions.form.hours')}</label>
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
            {t('actions.form.hoursHint')}
          </span>
        </div>
        <div>
          <label for="action-place">{t('actions.form.where')}</label>
          <input
            id="action-place"
            name="placeName"
            type="text"
            maxlength={200}
            value={values.placeName}
            aria-describedby="action-place-hint"
          />
          <span id="action-place-hint" class="hint">
            {t('actions.form.whereHint')}
          </span>
        </div>
        <div>
          <label for="action-note">{t('actions.form.note')}</label>
          <textarea id="action-note" name="note" maxlength={1000} aria-describedby="action-note-hint">
            {values.note ?? ''}
          </textarea>
          <span id="action-note-hint" class="hint">
            {t('actions.form.noteHint')}
          </span>
        </div>
        <p class="actions">
          <button type="submit">{t('actions.form.submit')}</button>
        </p>
      </form>
    </>
  );
}
