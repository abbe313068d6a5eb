// One-time notices after a form post ("Place submitted for review"): kept in a short-lived
// cookie rather than the query string, so a link can never make the site display arbitrary text.
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { cookiesAreSecure } from './config.js';
import type { WebEnv } from './env.js';

const FLASH_COOKIE = 'app_flash';

/**
 * Redirects (303, so the browser follows with GET) after showing `message` once on the next page.
 * `message` is already in the viewer's words (`t(...)`): the notice is stored as text.
 */
export function redirectWithNotice(c: Context<WebEnv>, location: string, message: string): Response {
  setNotice(c, message);
  return c.redirect(location, 303);
}

/** Keeps `message` for the next page without redirecting (a script's JSON call navigates itself). */
export function setNotice(c: Context<WebEnv>, message: string): void {
  setCookie(c, FLASH_COOKIE, encodeURIComponent(message.slice(0, 300)), {
    httpOnly: true,
    secure: cookiesAreSecure(c.get('web').config),
    sameSite: 'Lax',
    path: '/',
    maxAge: 60,
  });
}

/** Moves the notice, if any, into `c.get('flash')` and clears it (GET pages only). */
export const readFlash: MiddlewareHandler<WebEnv> = async (c, next) => {
  const raw = c.req.method === 'GET' ? getCookie(c, FLASH_COOKIE) : undefined;
  if (raw) {
    try {
      c.set('flash', decodeURIComponent(raw));
    } catch {
      // A mangled cookie is just dropped.
    }
    deleteCookie(c, FLASH_COOKIE, { path: '/', secure: cookiesAreSecure(c.get('web').config) });
  }
  await next();
};
