// "Ask first" for destructive actions (leave a grove, remove or ban a member, dismiss a report,
// delete something): one pattern for every page, working without JavaScript.
//
// The destructive form posts as it always did. Its handler calls `confirmFirst`: without the
// hidden `confirm=1` field the answer is a confirmation page (the question as the page's <h1>,
// what will happen, and one form that posts the same fields again plus `confirm=1`, and a
// reason when the decision takes one); nothing changes until that second submit. Cancel is a
// plain link back. No server state, no script, and a refresh of the confirmation page only asks
// again. Callers pass their texts already translated; the few built in are `moderation.confirm.*`. A form that already asks on the page itself (a reason box next to the button) adds
// <ConfirmedField /> so its single submit counts as the confirmation.
import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { WebEnv } from '../server/env.js';
import { t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';

/** The hidden field that marks the second, confirming submit. */
export const CONFIRM_FIELD = 'confirm';

/** True when the form was submitted from a confirmation (the hidden `confirm=1`). */
export function isConfirmed(fields: Record<string, unknown>): boolean {
  return fields[CONFIRM_FIELD] === '1';
}

/** For a form that asks on the page itself: its submit is the confirmation. */
export function ConfirmedField() {
  return <input type="hidden" name={CONFIRM_FIELD} value="1" />;
}

/** A reason the decision takes (moderation): a text box on the confirmation page. */
export interface ReasonField {
  label: string;
  /** Who will read it, e.g. "(organizers only; the member is not told)". */
  hint?: string;
  required: boolean;
  maxLength: number;
  /** The form field's name; `reason` unless the API calls it something else. */
  name?: string;
  /** Shown when a required reason is missing. */
  missingMessage?: string;
}

export interface ConfirmRequest {
  /** The question, which becomes the page's heading: "Leave Harbour Grove?". */
  question: string;
  /** What will happen, in a sentence or two. */
  details?: Child;
  /** Where the confirming form posts: normally the same address as the first form. */
  action: string;
  /** The first form's fields, posted again (any `confirm` and reason fields are replaced). */
  fields: Record<string, string>;
  /** The confirming button: says what it does ("Leave the grove"), never just "OK". */
  confirmLabel: string;
  cancelHref: string;
  cancelLabel?: string;
  reason?: ReasonField;
  /** Styles the button as dangerous (red); default true. */
  danger?: boolean;
}

function reasonName(request: ConfirmRequest): string {
  return request.reason?.name ?? 'reason';
}

/** The confirming form alone (the confirmation page's body; usable inside another page). */
export function ConfirmForm({ request, reason, error }: { request: ConfirmRequest; reason?: string; error?: string }) {
  const skip = new Set([CONFIRM_FIELD, reasonName(request)]);
  const carried = Object.entries(request.fields).filter(([name]) => !skip.has(name));
  return (
    <form method="post" action={request.action} class="stack confirm">
      <FormError message={error} />
      {carried.map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <ConfirmedField />
      {request.reason ? (
        <div>
          <label for="confirm-reason">
            {request.reason.label}
            {request.reason.hint ? (
              <>
                {' '}
                <span class="hint">{request.reason.hint}</span>
              </>
            ) : null}
          </label>
          <textarea
            id="confirm-reason"
            name={reasonName(request)}
            maxlength={request.reason.maxLength}
            required={request.reason.required}
          >
            {reason ?? ''}
          </textarea>
        </div>
      ) : null}
      <div class="actions">
        <button type="submit" class={request.danger === false ? undefined : 'danger'}>
          {request.confirmLabel}
        </button>
        <a href={request.cancelHref}>{request.cancelLabel ?? t('moderation.confirm.cancel')}</a>
      </div>
    </form>
  );
}

/** The confirmation page: the question as <h1>, the consequences, the confirming form. */
export function askToConfirm(
  c: Context<WebEnv>,
  request: ConfirmRequest,
  state: { reason?: string; error?: string } = {},
): Promise<Response> {
  // Never kept by a shared cache or the back-forward cache of a shared computer.
  c.header('Cache-Control', 'private, no-store');
  return renderPage(
    c,
    { title: request.question },
    <>
      {request.details ? <div class="confirm-details">{request.details}</div> : null}
      <ConfirmForm request={request} reason={state.reason} error={state.error} />
    </>,
  );
}

/**
 * Runs `act` only on a confirmed submit with the reason it needs; otherwise answers the
 * confirmation page (400 with a message when a required reason is missing). `act` gets the
 * trimmed reason (undefined when none was given).
 */
export async function confirmFirst(
  c: Context<WebEnv>,
  request: ConfirmRequest,
  act: (reason: string | undefined) => Promise<Response>,
): Promise<Response> {
  const reason = (request.fields[reasonName(request)] ?? '').trim();
  if (!isConfirmed(request.fields)) return askToConfirm(c, request, { reason });
  if (request.reason?.required && !reason) {
    c.status(400);
    return askToConfirm(c, request, { error: request.reason.missingMessage ?? t('moderation.confirm.missingReason') });
  }
  if (request.reason && reason.length > request.reason.maxLength) {
    c.status(400);
    return askToConfirm(c, request, {
      reason,
      error: t('moderation.confirm.reasonTooLong', { max: request.reason.maxLength }),
    });
  }
  return act(reason || undefined);
}
