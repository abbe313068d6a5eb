// The code step of a sign-in (docs/accounts.md, "Two-step sign-in"): after the password or a
// magic link of an account with a second factor, the session route renders this page instead of
// setting the cookie. It carries only the ticket (never the password) and `next`; the code and
// the recovery code are two small forms, so it works without JavaScript.
import type { Context } from 'hono';
import type { WebEnv } from '../server/env.js';
import { t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import { safeNextPath } from '../server/next-path.js';
import {
  type ApiFailure,
  failureMessage,
  type SecondFactorChallenge,
  SESSION_ROUTE,
  setFailureStatus,
} from '../server/session-route.js';
import { PASSKEY_SCRIPTS, PasskeySignIn } from './passkey-sign-in.js';

function Hidden(props: { ticket: string; next: string | null }) {
  return (
    <>
      <input type="hidden" name="ticket" value={props.ticket} />
      {props.next ? <input type="hidden" name="next" value={props.next} /> : null}
    </>
  );
}

function SecondFactorStep(props: {
  ticket: string;
  next: string | null;
  totp: boolean;
  recovery: boolean;
  passkey: boolean;
  error: string | null;
}) {
  return (
    <>
      <FormError message={props.error} />
      {props.passkey ? (
        // A passkey with user verification signs in on its own (docs/accounts.md, "Passkey
        // sign-in"), so the login page's button serves this step too; no ticket is needed.
        <>
          <p>{t('twoFactor.step.passkey')}</p>
          <PasskeySignIn next={props.next} />
        </>
      ) : null}
      {props.totp ? <CodeForm ticket={props.ticket} next={props.next} /> : null}
      {props.recovery ? <RecoveryForm ticket={props.ticket} next={props.next} /> : null}
      <p>
        <a href="/login">{t('twoFactor.step.startOver')}</a>
      </p>
    </>
  );
}

function CodeForm(props: { ticket: string; next: string | null }) {
  return (
    <>
      <p>{t('twoFactor.step.intro')}</p>
      <form method="post" action={SESSION_ROUTE} class="stack">
        <Hidden ticket={props.ticket} next={props.next} />
        <div>
          <label for="second-factor-code">{t('twoFactor.step.code')}</label>
          <input
            id="second-factor-code"
            name="code"
            type="text"
            inputmode="numeric"
            autocomplete="one-time-code"
            pattern="[0-9 ]{6,7}"
            maxlength={7}
            required
            autofocus
          />
        </div>
        <p class="actions">
          <button type="submit">{t('twoFactor.step.submit')}</button>
        </p>
      </form>
    </>
  );
}

function RecoveryForm(props: { ticket: string; next: string | null }) {
  return (
    <details>
      <summary>{t('twoFactor.step.useRecovery')}</summary>
      <form method="post" action={SESSION_ROUTE} class="stack">
        <Hidden ticket={props.ticket} next={props.next} />
        <div>
          <label for="second-factor-recovery">{t('twoFactor.step.recoveryCode')}</label>
          <input
            id="second-factor-recovery"
            name="recoveryCode"
            type="text"
            autocomplete="off"
            spellcheck={false}
            maxlength={24}
            required
            aria-describedby="second-factor-recovery-hint"
          />
          <span id="second-factor-recovery-hint" class="hint">
            {t('twoFactor.step.recoveryHint')}
          </span>
        </div>
        <p class="actions">
          <button type="submit">{t('twoFactor.step.recoverySubmit')}</button>
        </p>
      </form>
    </details>
  );
}

/** The code step (passed to the session route by web/routes.ts); `failure`: a wrong code, ticket still live. */
export function renderSecondFactor(
  c: Context<WebEnv>,
  challenge: SecondFactorChallenge | { ticket: string },
  fields: Record<string, string>,
  failure?: ApiFailure,
): Promise<Response> {
  c.set('member', null);
  if (failure) setFailureStatus(c, failure);
  // No cache: the page holds a ticket.
  c.header('Cache-Control', 'no-store');
  const methods = 'methods' in challenge ? challenge.methods : null;
  return renderPage(
    c,
    { title: t('twoFactor.step.title'), scripts: methods?.includes('passkey') ? PASSKEY_SCRIPTS : undefined },
    <SecondFactorStep
      ticket={challenge.ticket}
      next={safeNextPath(fields.next)}
      totp={methods === null || methods.includes('totp')}
      recovery={methods === null || methods.includes('recovery')}
      passkey={methods?.includes('passkey') ?? false}
      error={failure ? failureMessage(failure) : null}
    />,
  );
}
