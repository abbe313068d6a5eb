// The web server's only way to the API: the typed client (client-sdk), one per request, carrying
// the visitor's cookie token as the Bearer header. Pages never see the token, only data.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { type ApiClient, createClient, isApiError } from '../../client-sdk/src/index.js';
import { withRefusalShape } from './api-refusals.js';
import type { WebEnv } from './env.js';
import { refusalSentence } from './refusal-sentences.js';
import { readSessionToken } from './session.js';

/** The visitor's address as the web server saw it (undefined under app.request in tests). */
function visitorAddress(c: Context<WebEnv>): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/**
 * Headers that let the API rate-limit the visitor rather than the web server: the visitor's
 * address, believed by the API only with the shared relay secret (WEB_RELAY_SECRET); and the
 * visitor's User-Agent, of which the API keeps only the browser family for the session list and
 * sign-in alerts (docs/accounts.md, "Sign-in alerts").
 */
export function relayHeaders(c: Context<WebEnv>): Record<string, string> {
  const { config } = c.get('web');
  const address = visitorAddress(c);
  if (!config.WEB_RELAY_SECRET || !address) return {};
  const userAgent = c.req.header('user-agent');
  return {
    'x-forwarded-for': address,
    'x-web-relay': config.WEB_RELAY_SECRET,
    ...(userAgent ? { 'x-forwarded-user-agent': userAgent } : {}),
  };
}

/** A client for this request: signed in with the cookie's token when there is one. */
export function api(c: Context<WebEnv>): ApiClient {
  const { config, fetch } = c.get('web');
  return createClient({
    baseUrl: config.API_URL,
    token: readSessionToken(c) ?? null,
    fetch: withRefusalShape(fetch, config.MAX_BODY_BYTES),
    headers: relayHeaders(c),
  });
}

/** A client that sends no token (sign-in routes, the magic-link request): a cookie never travels where it is not needed. */
export function anonymousApi(c: Context<WebEnv>): ApiClient {
  const { config, fetch } = c.get('web');
  return createClient({
    baseUrl: config.API_URL,
    token: null,
    fetch: withRefusalShape(fetch, config.MAX_BODY_BYTES),
    headers: relayHeaders(c),
  });
}

/**
 * The headers for a raw call to the API (a route the typed client cannot speak, such as a CSV
 * download): the cookie's token as the Bearer header, and the relay headers.
 */
export function rawApiHeaders(c: Context<WebEnv>): Record<string, string> {
  const token = readSessionToken(c);
  return { ...relayHeaders(c), ...(token ? { authorization: `Bearer ${token}` } : {}) };
}

/** The API answered 401: the session expired or was revoked (spec rule 4 handles it in app.tsx). */
export function isSessionRejected(error: unknown): boolean {
  return isApiError(error) && error.data?.httpStatus === 401;
}

/** A message for a form from an API error, in the viewer's language; unexpected failures get a generic sentence. */
export function apiErrorMessage(error: unknown): string {
  if (isApiError(error) && error.data) {
    const response = (error.meta as { response?: Response } | undefined)?.response;
    return refusalSentence({
      status: error.data.httpStatus,
      code: error.data.code,
      message: error.message,
      details: (error.data as { details?: unknown }).details,
      retryAfter: response?.headers.get('retry-after'),
    });
  }
  return refusalSentence({ status: 500, code: 'internal_error', message: '' });
}

/** The current member (memoized per request): handle, role... or null when signed out. */
export async function currentMember(c: Context<WebEnv>) {
  const cached = c.get('member');
  if (cached !== undefined) return cached;
  if (!readSessionToken(c)) {
    c.set('member', null);
    return null;
  }
  const me = await api(c).me.get.query({});
  c.set('member', me);
  return me;
}
