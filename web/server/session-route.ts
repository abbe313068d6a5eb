// `{web_url}/api/session` (spec, "Web front end"): the one route that touches the `app_session`
// cookie. POST `{ email, password }` signs in, POST `{ magicToken }` verifies a magic link,
// POST `{ email, password, handle }` registers; each answers `{ user }` and sets the cookie.
// An account with a second factor gets no cookie from the first two: the answer is the API's
// `{ secondFactor: { ticket, methods, expiresAt } }`, and POST `{ ticket, code }` (or
// `{ ticket, recoveryCode }`) then finishes the sign-in (docs/accounts.md, "Two-step sign-in").
// DELETE signs out and clears the cookie with Max-Age=0. The API's error envelope and status
// pass through unchanged (Retry-After too). The global Origin check (origin-check.ts) has run
// before any of this, so a cross-site request never reaches the API.
//
// The same route also takes the plain HTML forms of /login, /register and /login/magic
// (application/x-www-form-urlencoded), so signing in works without JavaScript: success answers
// 303 to `next` (same-site paths only) or /app/feed; a failure re-renders the form with the
// API's message and status. POST /logout is the navigation's sign-out form.
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { isApiError, type RouterOutputs } from '../../client-sdk/src/index.js';
import { anonymousApi, api, isSessionRejected } from './api.js';
import type { WebEnv } from './env.js';
import { redirectWithNotice } from './flash.js';
import { isLocale } from '../../server/shared/i18n/index.js';
import { t } from './i18n.js';
import { setLanguageCookie } from './language-switch.js';
import { safeNextPath } from './next-path.js';
import { refusalSentence } from './refusal-sentences.js';
import { clearSessionCookie, readSessionToken, setSessionCookie } from './session.js';
import { urls } from '../urls.js';

export const SESSION_ROUTE = '/api/session';
/** Where a visitor goes after signing in when no (safe) `next` was given (spec rule 5). */
export const DEFAULT_AFTER_SIGN_IN = urls.feed();

export type Account = RouterOutputs['auth']['register']['user'];

/** The API's answer to a first factor of an account with a second factor: a ticket, no session. */
export type SecondFactorChallenge = Extract<RouterOutputs['auth']['login'], { secondFactor: unknown }>['secondFactor'];

/** What the body asks for, told apart by its fields as the spec's table does. */
export type SessionIntent =
  | { kind: 'login'; email: unknown; password: unknown }
  | { kind: 'magic'; magicToken: unknown }
  | { kind: 'secondFactor'; ticket: unknown; code: unknown; recoveryCode: unknown }
  | { kind: 'register'; email: unknown; password: unknown; handle: unknown };

/** An API error, as the API's REST envelope would have carried it. */
export interface ApiFailure {
  status: number;
  body: { error: { code: string; message: string; details?: unknown } };
  retryAfter?: string;
}

export type SessionOutcome =
  | { ok: true; user: Account; status: 200 | 201 }
  | { ok: false; failure: ApiFailure }
  | { ok: false; challenge: SecondFactorChallenge };

export function intentOf(fields: Record<string, unknown>): SessionIntent {
  if ('magicToken' in fields) return { kind: 'magic', magicToken: fields.magicToken };
  if ('ticket' in fields)
    return { kind: 'secondFactor', ticket: fields.ticket, code: fields.code, recoveryCode: fields.recoveryCode };
  if ('handle' in fields)
    return { kind: 'register', email: fields.email, password: fields.password, handle: fields.handle };
  return { kind: 'login', email: fields.email, password: fields.password };
}

/**
 * The typed client's error turned back into the API's envelope: the tRPC error data carries the
 * same code, message and details as the REST body, and the HTTP answer (kept by the client as
 * `meta.response`) the Retry-After of a 429. A failure to reach the API at all is a 503.
 */
export function apiFailure(error: unknown): ApiFailure {
  if (isApiError(error) && error.data) {
    const { code, message, httpStatus } = error.data;
    const details = (error.data as { details?: unknown }).details;
    const response = (error.meta as { response?: Response } | undefined)?.response;
    const retryAfter = response?.headers.get('retry-after') ?? undefined;
    return {
      status: httpStatus,
      body: { error: { code, message, ...(details === undefined ? {} : { details }) } },
      ...(retryAfter ? { retryAfter } : {}),
    };
  }
  return {
    status: 503,
    body: { error: { code: 'unavailable', message: 'The service cannot be reached right now. Please try again.' } },
    retryAfter: '5',
  };
}

/**
 * Runs one API call for a form post: its value, or its failure as the API's envelope. A 401 (the
 * session is gone) is rethrown so that the app's error handler clears the cookie (spec rule 4).
 */
export async function tryApi<T>(
  call: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; failure: ApiFailure }> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (isSessionRejected(error)) throw error;
    return { ok: false, failure: apiFailure(error) };
  }
}

/** The failure as the route's JSON answer (the API's envelope, status and Retry-After). */
export function failureResponse(c: Context<WebEnv>, failure: ApiFailure): Response {
  if (failure.retryAfter) c.header('Retry-After', failure.retryAfter);
  return c.json(failure.body, failure.status as 400);
}

/** A re-rendered form answers with the API's status (and Retry-After on a 429). */
export function setFailureStatus(c: Context<WebEnv>, failure: ApiFailure): void {
  if (failure.retryAfter) c.header('Retry-After', failure.retryAfter);
  c.status(failure.status as 400);
}

/** A sentence for a form, in the viewer's language (refusal-sentences.ts). */
export function failureMessage(failure: ApiFailure): string {
  return refusalSentence({ status: failure.status, ...failure.body.error, retryAfter: failure.retryAfter });
}

/** Calls the API for the intent; on success sets the cookie with the new token. */
export async function startSession(c: Context<WebEnv>, intent: SessionIntent): Promise<SessionOutcome> {
  // Sign-in routes ignore any token; none is sent, so a stale cookie never travels.
  const client = anonymousApi(c);
  try {
    // The API validates the fields (and answers validation_failed with details); they pass as sent.
    const grant =
      intent.kind === 'login'
        ? await client.auth.login.mutate({ email: intent.email as string, password: intent.password as string })
        : intent.kind === 'magic'
          ? await client.auth.verifyMagicLink.mutate({ token: intent.magicToken as string })
          : intent.kind === 'secondFactor'
            ? await client.auth.secondFactor.mutate(secondFactorAnswer(intent))
            : await client.auth.register.mutate({
                email: intent.email as string,
                password: intent.password as string,
                handle: intent.handle as string,
              });
    // Only the ticket travels on: the password is never put back into a page.
    if ('secondFactor' in grant) return { ok: false, challenge: grant.secondFactor };
    setSessionCookie(c, c.get('web').config, grant.token);
    // The account's language from now on, form posts included (they read only the cookie).
    if (isLocale(grant.user.locale)) setLanguageCookie(c, grant.user.locale);
    return { ok: true, user: grant.user, status: intent.kind === 'register' ? 201 : 200 };
  } catch (error) {
    return { ok: false, failure: apiFailure(error) };
  }
}

/** The second-factor step's body: the code, or the recovery code when no code was typed. */
function secondFactorAnswer(intent: Extract<SessionIntent, { kind: 'secondFactor' }>) {
  const ticket = intent.ticket as string;
  const code = typeof intent.code === 'string' ? intent.code : '';
  const recoveryCode = typeof intent.recoveryCode === 'string' ? intent.recoveryCode.trim() : '';
  return recoveryCode && !code.trim() ? { ticket, recoveryCode } : { ticket, code };
}

/**
 * Signs out: the API deletes the session, then the cookie is cleared (Max-Age=0). A session the
 * API no longer knows (401) is already signed out. On any other failure the cookie is cleared
 * all the same (the visitor asked to be signed out on this device, and with the cookie gone the
 * token exists nowhere) and the failure is returned so the caller can say so.
 */
export async function endSession(c: Context<WebEnv>): Promise<ApiFailure | null> {
  let failure: ApiFailure | null = null;
  if (readSessionToken(c)) {
    try {
      await api(c).auth.logout.mutate({});
    } catch (error) {
      if (!isSessionRejected(error)) failure = apiFailure(error);
    }
  }
  clearSessionCookie(c, c.get('web').config);
  return failure;
}

function isForm(contentType: string): boolean {
  return /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(contentType);
}

function isJson(contentType: string): boolean {
  return /^application\/([a-z.+-]*\+)?json\b/i.test(contentType);
}

/** A posted form's fields as strings (a file field is dropped). */
export async function formFields(c: Context<WebEnv>): Promise<Record<string, string>> {
  const parsed = await c.req.parseBody();
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) if (typeof value === 'string') fields[key] = value;
  return fields;
}

function invalidBody(c: Context<WebEnv>, message: string): Response {
  return c.json({ error: { code: 'validation_failed', message } }, 400);
}

/** How the pages re-render a form after a failed HTML form post. */
export interface SessionForms {
  renderFailure(
    c: Context<WebEnv>,
    intent: SessionIntent,
    fields: Record<string, string>,
    failure: ApiFailure,
  ): Promise<Response>;
  /** The code step after a first factor (or a wrong code: `failure`); carries the ticket and `next`. */
  renderSecondFactor(
    c: Context<WebEnv>,
    challenge: SecondFactorChallenge | { ticket: string },
    fields: Record<string, string>,
    failure?: ApiFailure,
  ): Promise<Response>;
}

/** Bodies are a few short fields; anything larger is refused before it is read. */
const MAX_SESSION_BODY_BYTES = 16 * 1024;

/** The session route's handlers; web/routes.ts mounts them (the forms come from pages/auth.tsx). */
export function sessionRouteHandlers(forms: SessionForms) {
  const limitBody = bodyLimit({
    maxSize: MAX_SESSION_BODY_BYTES,
    onError: (c) => c.json({ error: { code: 'payload_too_large', message: 'The request body is too large.' } }, 413),
  });

  const start = async (c: Context<WebEnv>) => {
    const contentType = c.req.header('content-type') ?? '';
    if (isForm(contentType)) {
      const fields = await formFields(c);
      const intent = intentOf(fields);
      const outcome = await startSession(c, intent);
      if (outcome.ok) return c.redirect(safeNextPath(fields.next) ?? DEFAULT_AFTER_SIGN_IN, 303);
      if ('challenge' in outcome) return forms.renderSecondFactor(c, outcome.challenge, fields);
      setFailureStatus(c, outcome.failure);
      // A wrong code keeps the (still live) ticket; a dead ticket starts over at the sign-in form.
      if (intent.kind === 'secondFactor' && outcome.failure.body.error.code === 'invalid_second_factor')
        return forms.renderSecondFactor(c, { ticket: String(fields.ticket) }, fields, outcome.failure);
      return forms.renderFailure(c, intent, fields, outcome.failure);
    }
    if (!isJson(contentType)) {
      return c.json(
        { error: { code: 'unsupported_media_type', message: 'Send application/json (or an HTML form).' } },
        415,
      );
    }
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return invalidBody(c, 'The body must be valid JSON.');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return invalidBody(c, 'The body must be a JSON object.');
    }
    const outcome = await startSession(c, intentOf(body as Record<string, unknown>));
    // `{ user }` only: where to go next is the client's decision (spec rule 5), never this answer's.
    if (outcome.ok) return c.json({ user: outcome.user }, outcome.status);
    if ('challenge' in outcome) return c.json({ secondFactor: outcome.challenge }, 200);
    return failureResponse(c, outcome.failure);
  };

  const end = async (c: Context<WebEnv>) => {
    const failure = await endSession(c);
    if (failure) return failureResponse(c, failure);
    return c.json({ ok: true });
  };

  // The navigation's "Sign out" button (a form: works without JavaScript).
  const logout = async (c: Context<WebEnv>) => {
    const failure = await endSession(c);
    return redirectWithNotice(c, '/login', failure ? t('auth.signedOutUnreached') : t('auth.signedOut'));
  };

  return { limitBody, start, end, logout };
}
