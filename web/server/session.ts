// The `app_session` cookie (spec, "Web front end"): the API session token, unchanged, that only
// the web server ever reads. The browser holds it but cannot read it (HttpOnly).
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { cookiesAreSecure, type WebConfig } from './config.js';

export const SESSION_COOKIE = 'app_session';

export function readSessionToken(c: Context): string | undefined {
  const token = getCookie(c, SESSION_COOKIE);
  return token ? token : undefined;
}

export function setSessionCookie(c: Context, config: WebConfig, token: string): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    secure: cookiesAreSecure(config),
    sameSite: 'Lax',
    path: '/',
    maxAge: config.SESSION_TTL_DAYS * 24 * 60 * 60,
  });
}

/**
 * Clears the cookie with Max-Age=0 and the same attributes it was set with (spec), and tells the
 * browser to drop this site's caches and storage (the service worker's offline pages among them):
 * after sign-out nothing of the member stays on the device. Cookies (theme, language) stay.
 */
export function clearSessionCookie(c: Context, config: WebConfig): void {
  c.header('Clear-Site-Data', '"cache", "storage"');
  deleteCookie(c, SESSION_COOKIE, {
    httpOnly: true,
    secure: cookiesAreSecure(config),
    sameSite: 'Lax',
    path: '/',
  });
}
