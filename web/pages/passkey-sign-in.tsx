// "Sign in with a passkey" on the login page: web/assets/passkeys.js asks /login/passkey/options
// for a challenge, lets the browser find a passkey for this site, and posts the answer to
// /login/passkey, which relays it to the API and, on success, sets the session cookie like the
// password form does. Without JavaScript the login page says passkeys need it.
import { anonymousApi } from '../server/api.js';
import { safeNextPath } from '../server/next-path.js';
import { apiFailure, DEFAULT_AFTER_SIGN_IN, failureResponse } from '../server/session-route.js';
import { setSessionCookie } from '../server/session.js';
import { t } from '../server/i18n.js';
import type { Page } from './page.js';
import { PASSKEY_SCRIPTS, PasskeysNeedJavaScript } from './settings-passkeys.js';
import { urls } from '../urls.js';

export { PASSKEY_SCRIPTS };

/** The login page's passkey button (shown by the script where WebAuthn exists). */
export function PasskeySignIn({ next }: { next: string | null }) {
  return (
    <>
      <PasskeysNeedJavaScript />
      <div
        id="passkey-sign-in"
        data-passkey-js
        data-options={urls.passkeyLoginOptions()}
        data-action={urls.passkeyLogin()}
        data-next={next ?? ''}
        data-failed={t('passkeys.signIn.failed')}
        hidden
      >
        <p class="form-error" role="alert" data-passkey-error hidden />
        <button type="button" class="secondary">
          {t('passkeys.signIn.button')}
        </button>
      </div>
    </>
  );
}

export const passkeyLoginOptions: Page = async (c) => {
  try {
    return c.json(await anonymousApi(c).auth.createPasskeyOptions.mutate({}));
  } catch (error) {
    return failureResponse(c, apiFailure(error));
  }
};

export const passkeyLogin: Page = async (c) => {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = await c.req.json();
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      body = parsed as Record<string, unknown>;
  } catch {
    // An unreadable body is the API's validation_failed below.
  }
  try {
    const grant = await anonymousApi(c).auth.loginWithPasskey.mutate({
      challengeId: body.challengeId as string,
      response: body.response as never,
    });
    setSessionCookie(c, c.get('web').config, grant.token);
    // `{ user, next }`: next is a same-site path (the login page's own `next`) or the feed.
    return c.json({
      user: grant.user,
      next: safeNextPath(typeof body.next === 'string' ? body.next : null) ?? DEFAULT_AFTER_SIGN_IN,
    });
  } catch (error) {
    return failureResponse(c, apiFailure(error));
  }
};
