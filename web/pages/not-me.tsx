// The "this was not me" link of a sign-in alert mail (/not-me?token=…, docs/accounts.md,
// "Sign-in alerts"). A GET never changes anything (mail scanners open links before the member
// does): it shows one button, whose POST asks the API to sign the account out everywhere. Then
// the page says what to do next; a used or expired link gets a page that says so.
import type { Context } from 'hono';
import { anonymousApi } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import { apiFailure, failureMessage, formFields, setFailureStatus } from '../server/session-route.js';
import { clearSessionCookie } from '../server/session.js';
import { urls } from '../urls.js';
import type { Page } from './page.js';

/** The account this browser may be signed in to is the one being signed out: pages render signed out. */
function asVisitor(c: Context<WebEnv>): void {
  c.set('member', null);
}

function brokenLink(c: Context<WebEnv>, message: string) {
  return renderPage(
    c,
    { title: t('signInAlerts.notMe.brokenTitle') },
    <>
      <FormError message={message} />
      <p>{t('signInAlerts.notMe.brokenHelp')}</p>
      <p>
        <a href={urls.login()}>{t('signInAlerts.notMe.signIn')}</a>
      </p>
    </>,
  );
}

export const notMePage: Page = (c) => {
  asVisitor(c);
  const token = c.req.query('token');
  if (!token) {
    c.status(400);
    return brokenLink(c, t('signInAlerts.notMe.incomplete'));
  }
  return renderPage(
    c,
    { title: t('signInAlerts.notMe.title') },
    <form method="post" action={urls.notMe()} class="stack">
      <input type="hidden" name="token" value={token} />
      <p>{t('signInAlerts.notMe.intro')}</p>
      <p>{t('signInAlerts.notMe.effect')}</p>
      <p class="actions">
        <button type="submit" class="danger">
          {t('signInAlerts.notMe.submit')}
        </button>
      </p>
    </form>,
  );
};

export const signOutEverywhere: Page = async (c) => {
  asVisitor(c);
  const { token = '' } = await formFields(c);
  let result: Awaited<ReturnType<ReturnType<typeof anonymousApi>['auth']['notMe']['mutate']>>;
  try {
    result = await anonymousApi(c).auth.notMe.mutate({ token });
  } catch (error) {
    const failure = apiFailure(error);
    setFailureStatus(c, failure);
    return brokenLink(c, failure.status === 401 ? t('signInAlerts.notMe.usedOrExpired') : failureMessage(failure));
  }
  // This browser's own session, if it had one, ended with the others.
  clearSessionCookie(c, c.get('web').config);
  const steps = {
    sign_in_by_mail: (
      <li>
        <a href={urls.magicLinkRequest()}>{t('signInAlerts.done.signInByMail')}</a>
      </li>
    ),
    change_password: <li>{t('signInAlerts.done.changePassword')}</li>,
    enroll_second_factor: <li>{t('signInAlerts.done.secondFactor')}</li>,
  };
  return renderPage(
    c,
    { title: t('signInAlerts.done.title') },
    <>
      <p role="status">{t('signInAlerts.done.revoked', { count: result.revokedSessions })}</p>
      <h2>{t('signInAlerts.done.nextHeading')}</h2>
      <ol>{result.next.map((step) => steps[step])}</ol>
    </>,
  );
};
