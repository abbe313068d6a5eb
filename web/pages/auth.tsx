// The way in: sign in, create an account, ask for a magic link and land from one. Every form
// posts to the session route ({web_url}/api/session, web/server/session-route.ts), which sets
// the cookie and sends the visitor on to `next` (same-site paths only) or the feed.
import type { Context } from 'hono';
import { anonymousApi } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { fmt, t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import { safeNextPath } from '../server/next-path.js';
import {
  type ApiFailure,
  apiFailure,
  DEFAULT_AFTER_SIGN_IN,
  failureMessage,
  formFields,
  SESSION_ROUTE,
  type SessionIntent,
  setFailureStatus,
} from '../server/session-route.js';
import { readSessionToken } from '../server/session.js';
import type { Page } from './page.js';
import { PASSKEY_SCRIPTS, PasskeySignIn } from './passkey-sign-in.js';

/** `?next=` carried from page to page, already reduced to a same-site path (or dropped). */
function withNext(path: string, next: string | null): string {
  return next ? `${path}?next=${encodeURIComponent(next)}` : path;
}

function NextField({ next }: { next: string | null }) {
  return next ? <input type="hidden" name="next" value={next} /> : null;
}

function LoginForm(props: { email?: string; next: string | null; error?: string | null }) {
  return (
    <>
      <FormError message={props.error} />
      <form method="post" action={SESSION_ROUTE} class="stack">
        <NextField next={props.next} />
        <div>
          <label for="login-email">{t('auth.fields.email')}</label>
          <input id="login-email" name="email" type="email" autocomplete="username" required value={props.email} />
        </div>
        <div>
          <label for="login-password">{t('auth.fields.password')}</label>
          <input id="login-password" name="password" type="password" autocomplete="current-password" required />
        </div>
        <p class="actions">
          <button type="submit">{t('auth.login.submit')}</button>
        </p>
      </form>
      <h2>{t('auth.login.otherWays')}</h2>
      <PasskeySignIn next={props.next} />
      <ul>
        <li>
          {fmt().rich('auth.login.magicLink', {
            link: (chunks: unknown[]) => <a href="/login/magic-link">{chunks}</a>,
          })}
        </li>
        <li>
          {fmt().rich('auth.login.newHere', {
            link: (chunks: unknown[]) => <a href={withNext('/register', props.next)}>{chunks}</a>,
          })}
        </li>
      </ul>
    </>
  );
}

function RegisterForm(props: { email?: string; handle?: string; next: string | null; error?: string | null }) {
  return (
    <>
      <FormError message={props.error} />
      <form method="post" action={SESSION_ROUTE} class="stack">
        <NextField next={props.next} />
        <div>
          <label for="register-email">{t('auth.fields.email')}</label>
          <input
            id="register-email"
            name="email"
            type="email"
            autocomplete="email"
            required
            value={props.email}
            aria-describedby="register-email-hint"
          />
          <span id="register-email-hint" class="hint">
            {t('auth.register.emailHint')}
          </span>
        </div>
        <div>
          <label for="register-password">{t('auth.fields.password')}</label>
          <input
            id="register-password"
            name="password"
            type="password"
            autocomplete="new-password"
            required
            minlength={8}
            aria-describedby="register-password-hint"
          />
          <span id="register-password-hint" class="hint">
            {t('auth.register.passwordHint')}
          </span>
        </div>
        <div>
          <label for="register-handle">{t('auth.fields.handle')}</label>
          <input
            id="register-handle"
            name="handle"
            type="text"
            autocomplete="nickname"
            required
            pattern="[A-Za-z0-9_]{3,30}"
            value={props.handle}
            aria-describedby="register-handle-hint"
          />
          <span id="register-handle-hint" class="hint">
            {t('auth.register.handleHint')}
          </span>
        </div>
        <p class="actions">
          <button type="submit">{t('auth.register.submit')}</button>
        </p>
      </form>
      <p>
        {fmt().rich('auth.register.haveAccount', {
          link: (chunks: unknown[]) => <a href={withNext('/login', props.next)}>{chunks}</a>,
        })}
      </p>
    </>
  );
}

function MagicLinkRequestForm(props: { email?: string; error?: string | null }) {
  return (
    <>
      <p>{t('auth.magic.intro')}</p>
      <FormError message={props.error} />
      <form method="post" action="/login/magic-link" class="stack">
        <div>
          <label for="magic-email">{t('auth.fields.email')}</label>
          <input id="magic-email" name="email" type="email" autocomplete="email" required value={props.email} />
        </div>
        <p class="actions">
          <button type="submit">{t('auth.magic.submit')}</button>
        </p>
      </form>
      <p>
        <a href="/login">{t('auth.magic.passwordInstead')}</a>
      </p>
    </>
  );
}

/** The two links offered when a sign-in link failed. */
const newLinkOrPassword = {
  new: (chunks: unknown[]) => <a href="/login/magic-link">{chunks}</a>,
  password: (chunks: unknown[]) => <a href="/login">{chunks}</a>,
};

/** Auth pages never need the member for the navigation: no API call just to draw it. */
function asVisitor(c: Context<WebEnv>): void {
  c.set('member', null);
}

function renderLogin(c: Context<WebEnv>, props: Parameters<typeof LoginForm>[0]) {
  asVisitor(c);
  return renderPage(c, { title: t('auth.login.title'), scripts: PASSKEY_SCRIPTS }, <LoginForm {...props} />);
}

function renderRegister(c: Context<WebEnv>, props: Parameters<typeof RegisterForm>[0]) {
  asVisitor(c);
  return renderPage(c, { title: t('auth.register.title') }, <RegisterForm {...props} />);
}

function renderMagicFailure(c: Context<WebEnv>, failure: ApiFailure) {
  asVisitor(c);
  return renderPage(
    c,
    { title: t('auth.magic.notAccepted') },
    <>
      <FormError message={failureMessage(failure)} />
      <p>{fmt().rich('auth.magic.linkRules', newLinkOrPassword)}</p>
    </>,
  );
}

/** Re-renders the form a failed HTML post came from, with the API's message (status set by the route). */
/** What the session route shows when a sign-in form is refused (passed to it by web/routes.ts). */
export function renderFailure(
  c: Context<WebEnv>,
  intent: SessionIntent,
  fields: Record<string, string>,
  failure: ApiFailure,
): Promise<Response> {
  const next = safeNextPath(fields.next);
  const error = failureMessage(failure);
  if (intent.kind === 'magic') return renderMagicFailure(c, failure);
  if (intent.kind === 'register') return renderRegister(c, { email: fields.email, handle: fields.handle, next, error });
  return renderLogin(c, { email: fields.email, next, error });
}

export const loginPage: Page = (c) => {
  const next = safeNextPath(c.req.query('next'));
  // Already signed in: straight on. A dead cookie is cleared by the /app page's 401 and lands here again.
  if (readSessionToken(c)) return c.redirect(next ?? DEFAULT_AFTER_SIGN_IN, 303);
  return renderLogin(c, { next });
};

export const registerPage: Page = (c) => {
  const next = safeNextPath(c.req.query('next'));
  if (readSessionToken(c)) return c.redirect(next ?? DEFAULT_AFTER_SIGN_IN, 303);
  return renderRegister(c, { next });
};

export const magicLinkRequestPage: Page = (c) => {
  asVisitor(c);
  return renderPage(c, { title: t('auth.magic.title') }, <MagicLinkRequestForm />);
};

export const requestMagicLink: Page = async (c) => {
  const { email = '' } = await formFields(c);
  try {
    // Always 202 from the API, account or not: the page says the same either way.
    await anonymousApi(c).auth.requestMagicLink.mutate({ email });
  } catch (error) {
    const failure = apiFailure(error);
    asVisitor(c);
    setFailureStatus(c, failure);
    return renderPage(
      c,
      { title: t('auth.magic.title') },
      <MagicLinkRequestForm email={email} error={failureMessage(failure)} />,
    );
  }
  return redirectWithNotice(c, '/login/magic-link', t('auth.checkInbox'));
};

// The link from the mail (MAGIC_LINK_URL = {web}/login/magic, the API appends ?token=…). A GET
// must not spend the single-use token (mail scanners open links before the member does), so
// this page holds it in a form that a small script submits at once; without JavaScript the
// member presses the button. The POST goes to the session route like every sign-in.
export const magicLinkLandingPage: Page = (c) => {
  asVisitor(c);
  const token = c.req.query('token');
  if (!token) {
    c.status(400);
    return renderPage(
      c,
      { title: t('auth.magic.notAccepted') },
      <>
        <FormError message={t('auth.magic.incomplete')} />
        <p>{fmt().rich('auth.magic.newOrPassword', newLinkOrPassword)}</p>
      </>,
    );
  }
  return renderPage(
    c,
    { title: t('auth.magic.signingIn'), scripts: ['/assets/magic-link.js'] },
    <form method="post" action={SESSION_ROUTE} id="magic-link-form" class="stack">
      <input type="hidden" name="magicToken" value={token} />
      <p>{t('auth.magic.oneMoment')}</p>
      <p class="actions">
        <button type="submit">{t('auth.magic.continue')}</button>
      </p>
    </form>,
  );
};
