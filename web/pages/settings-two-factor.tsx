// /app/settings/two-factor: the member's authenticator app (docs/accounts.md, "Two-step sign-in").
// Plain forms, no JavaScript: "Turn on" (with the password when the account has one) answers a
// page with the QR code (an SVG drawn here on the server: markup only, nothing the CSP forbids),
// the secret as text and a code field; the confirming code answers the ten recovery codes, shown
// this once. New recovery codes and turning off need the password and a code, never the session
// alone (a stolen phone); turning off asks first. Every answer is `no-store`: secrets and codes.
import type { Context } from 'hono';
import QRCode from 'qrcode';
import { api, currentMember } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import { type ApiFailure, failureMessage, formFields, setFailureStatus, tryApi } from '../server/session-route.js';
import { urls } from '../urls.js';
import { ConfirmedField, isConfirmed } from './confirm.js';
import type { Page } from './page.js';

function noStore(c: Context<WebEnv>): void {
  c.header('Cache-Control', 'private, no-store');
}

function failedWith(c: Context<WebEnv>, failure: ApiFailure): string {
  setFailureStatus(c, failure);
  return failureMessage(failure);
}

/** Empty means "no password" (an account without one): the API ignores it then. */
function password(fields: Record<string, string>): string | undefined {
  return fields.password ? fields.password : undefined;
}

/** Asked only of an account that has a password; one made by a link, Apple or Google has none. */
function PasswordField({ id, hasPassword }: { id: string; hasPassword: boolean }) {
  if (!hasPassword) return null;
  return (
    <div>
      <label for={id}>{t('twoFactor.settings.password')}</label>
      <input id={id} name="password" type="password" autocomplete="current-password" aria-describedby={`${id}-hint`} />
      <span id={`${id}-hint`} class="hint">
        {t('twoFactor.settings.passwordHint')}
      </span>
    </div>
  );
}

function CodeField({ id, recovery }: { id: string; recovery: boolean }) {
  return (
    <div>
      <label for={id}>{recovery ? t('twoFactor.settings.codeOrRecovery') : t('twoFactor.step.code')}</label>
      <input
        id={id}
        name="code"
        type="text"
        inputmode={recovery ? undefined : 'numeric'}
        autocomplete="one-time-code"
        spellcheck={false}
        maxlength={24}
        required
      />
    </div>
  );
}

async function renderOverview(c: Context<WebEnv>, error?: string): Promise<Response> {
  noStore(c);
  const state = await api(c).me.getSecondFactors.query({});
  const hasPassword = (await currentMember(c))?.hasPassword ?? true;
  return renderPage(
    c,
    { title: t('twoFactor.settings.title') },
    <>
      <p>{t('twoFactor.settings.intro')}</p>
      <FormError message={error} />
      <p>
        <strong>{state.totp ? t('twoFactor.settings.on') : t('twoFactor.settings.off')}</strong>
        {state.totp ? ` · ${t('twoFactor.settings.codesLeft', { count: state.recoveryCodesLeft })}` : null}
      </p>
      {state.totp ? (
        <>
          <section aria-labelledby="two-factor-codes-heading">
            <h2 id="two-factor-codes-heading">{t('twoFactor.settings.newCodesHeading')}</h2>
            <p>{t('twoFactor.settings.newCodesIntro')}</p>
            <form method="post" action={urls.settingsTwoFactorRecoveryCodes()} class="stack">
              <PasswordField id="two-factor-codes-password" hasPassword={hasPassword} />
              <CodeField id="two-factor-codes-code" recovery />
              <p class="actions">
                <button type="submit">{t('twoFactor.settings.newCodes')}</button>
              </p>
            </form>
          </section>
          <section aria-labelledby="two-factor-off-heading">
            <h2 id="two-factor-off-heading">{t('twoFactor.settings.offHeading')}</h2>
            <form method="post" action={urls.settingsTwoFactorDisable()} class="inline">
              <button type="submit" class="danger">
                {t('twoFactor.settings.turnOff')}
              </button>
            </form>
          </section>
        </>
      ) : (
        <section aria-labelledby="two-factor-on-heading">
          <h2 id="two-factor-on-heading">{t('twoFactor.settings.onHeading')}</h2>
          <form method="post" action={urls.settingsTwoFactorStart()} class="stack">
            <PasswordField id="two-factor-start-password" hasPassword={hasPassword} />
            <p class="actions">
              <button type="submit">{t('twoFactor.settings.turnOn')}</button>
            </p>
          </form>
        </section>
      )}
      <p>
        <a href={urls.settings()}>{t('twoFactor.settings.back')}</a>
      </p>
    </>,
  );
}

export const twoFactorPage: Page = (c) => renderOverview(c);

/** The scan step: QR code and secret (carried in hidden fields so a wrong code can show them again). */
async function renderScan(c: Context<WebEnv>, enrolment: { secret: string; uri: string }, error?: string) {
  noStore(c);
  // Only otpauth:// URIs the API made are drawn; anything else a form might carry is not.
  const svg = enrolment.uri.startsWith('otpauth://totp/')
    ? await QRCode.toString(enrolment.uri, { type: 'svg', margin: 2, width: 220 })
    : '';
  return renderPage(
    c,
    { title: t('twoFactor.settings.scanTitle') },
    <>
      <p>{t('twoFactor.settings.scanIntro')}</p>
      <FormError message={error} />
      {svg ? (
        <div
          class="qr-code"
          role="img"
          aria-label={t('twoFactor.settings.qrLabel')}
          dangerouslySetInnerHTML={{ __html: svg }}
        />
      ) : null}
      <p>
        {t('twoFactor.settings.secretLabel')} <code id="two-factor-secret">{enrolment.secret}</code>
      </p>
      <form method="post" action={urls.settingsTwoFactorConfirm()} class="stack">
        <input type="hidden" name="secret" value={enrolment.secret} />
        <input type="hidden" name="uri" value={enrolment.uri} />
        <CodeField id="two-factor-confirm-code" recovery={false} />
        <p class="actions">
          <button type="submit">{t('twoFactor.settings.confirm')}</button>
          <a href={urls.settingsTwoFactor()}>{t('twoFactor.settings.cancel')}</a>
        </p>
      </form>
    </>,
  );
}

export const startTwoFactor: Page = async (c) => {
  const fields = await formFields(c);
  const result = await tryApi(() => api(c).me.createTotp.mutate({ password: password(fields) }));
  if (!result.ok) return renderOverview(c, failedWith(c, result.failure));
  return renderScan(c, { secret: result.value.secret, uri: result.value.otpauthUri });
};

/** The ten recovery codes, shown this once. */
function renderCodes(c: Context<WebEnv>, codes: string[]) {
  noStore(c);
  return renderPage(
    c,
    { title: t('twoFactor.settings.codesTitle') },
    <>
      <p>{t('twoFactor.settings.codesIntro')}</p>
      <ul class="plain" id="two-factor-recovery-codes" aria-label={t('twoFactor.settings.codesTitle')}>
        {codes.map((code) => (
          <li>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <p>
        <a href={urls.settingsTwoFactor()}>{t('twoFactor.settings.saved')}</a>
      </p>
    </>,
  );
}

export const confirmTwoFactor: Page = async (c) => {
  const fields = await formFields(c);
  const result = await tryApi(() => api(c).me.confirmTotp.mutate({ code: fields.code ?? '' }));
  if (!result.ok) {
    const message = failedWith(c, result.failure);
    if (result.failure.status === 403) {
      return renderScan(
        c,
        { secret: (fields.secret ?? '').slice(0, 64), uri: (fields.uri ?? '').slice(0, 512) },
        message,
      );
    }
    return renderOverview(c, message);
  }
  return renderCodes(c, result.value.recoveryCodes);
};

export const newRecoveryCodes: Page = async (c) => {
  const fields = await formFields(c);
  const result = await tryApi(() =>
    api(c).me.createRecoveryCodes.mutate({ password: password(fields), code: fields.code ?? '' }),
  );
  if (!result.ok) return renderOverview(c, failedWith(c, result.failure));
  return renderCodes(c, result.value.recoveryCodes);
};

/** Ask first, with the proof the API needs: the password and a code (or a recovery code). */
async function renderDisable(c: Context<WebEnv>, error?: string) {
  noStore(c);
  const hasPassword = (await currentMember(c))?.hasPassword ?? true;
  return renderPage(
    c,
    { title: t('twoFactor.settings.offQuestion') },
    <>
      <p>{t('twoFactor.settings.offDetails')}</p>
      <FormError message={error} />
      <form method="post" action={urls.settingsTwoFactorDisable()} class="stack">
        <ConfirmedField />
        <PasswordField id="two-factor-off-password" hasPassword={hasPassword} />
        <CodeField id="two-factor-off-code" recovery />
        <p class="actions">
          <button type="submit" class="danger">
            {t('twoFactor.settings.turnOff')}
          </button>
          <a href={urls.settingsTwoFactor()}>{t('twoFactor.settings.keep')}</a>
        </p>
      </form>
    </>,
  );
}

export const disableTwoFactor: Page = async (c) => {
  const fields = await formFields(c);
  if (!isConfirmed(fields)) return renderDisable(c);
  const result = await tryApi(() =>
    api(c).me.disableTotp.mutate({ password: password(fields), code: fields.code ?? '' }),
  );
  if (!result.ok) return renderDisable(c, failedWith(c, result.failure));
  return redirectWithNotice(c, urls.settingsTwoFactor(), t('twoFactor.settings.turnedOff'));
};
