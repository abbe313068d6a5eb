// The viewer of one web request: language and time zone, and where each came from.
//
// Language: the explicit switch (cookie `lang`, set by POST /language and by the settings page)
// beats the account's setting, which beats the browser's Accept-Language; else English.
// Time zone: the account's setting, else the browser's (cookie `tz`, written by
// /assets/time-zone.js), else UTC; the footer says which.
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { matchedRoutes } from 'hono/route';
import {
  canonicalTimeZone,
  createTranslator,
  isLocale,
  isTimeZone,
  type Locale,
  negotiateLocale,
  type Viewer,
} from '../../server/shared/i18n/index.js';
import { currentMember } from './api.js';
import type { Member, WebEnv } from './env.js';
import { LANGUAGE_COOKIE, TIME_ZONE_COOKIE, translatorStorage, webCatalog } from './i18n.js';
import { setLanguageCookie } from './language-switch.js';
import { readSessionToken } from './session.js';

/** The zone's canonical name when this runtime knows it (a cookie is user input), else null. */
function knownZone(value: string | null | undefined): string | null {
  return value && isTimeZone(value) ? canonicalTimeZone(value) : null;
}

/** Works out the viewer from the cookies, the account and the request headers. */
export function resolveViewer(c: Context<WebEnv>, member: Member | null): Viewer {
  const chosen = getCookie(c, LANGUAGE_COOKIE);
  const locale: Locale = isLocale(chosen)
    ? chosen
    : isLocale(member?.locale)
      ? member.locale
      : negotiateLocale(c.req.header('accept-language'));
  const accountZone = knownZone(member?.timeZone);
  if (accountZone) return { locale, timeZone: accountZone, timeZoneSource: 'account' };
  const browserZone = knownZone(getCookie(c, TIME_ZONE_COOKIE));
  if (browserZone) return { locale, timeZone: browserZone, timeZoneSource: 'browser' };
  return { locale, timeZone: 'UTC', timeZoneSource: 'utc' };
}

/**
 * Sets the viewer for the rest of the request. A signed-in GET of a page loads the member first
 * (memoized: the page frame needs it anyway) so the account's language and zone count from the
 * first string. Form posts skip that call: they read the cookies (the switch and the settings page
 * set `lang` too, and so does signing in, from the account), and most of them answer with a
 * redirect. A signed-in page without the cookie (a session older than that rule) writes the
 * account's language into it, so the next form post answers in the same language.
 */
export const withViewer: MiddlewareHandler<WebEnv> = async (c, next) => {
  // Not for the API's session route, nor for an unknown path (the 404 page stays cheap).
  const isPage =
    c.req.method === 'GET' &&
    !c.req.path.startsWith('/api/') &&
    matchedRoutes(c).some((route) => route.method !== 'ALL');
  const member = isPage && readSessionToken(c) ? await currentMember(c) : null;
  if (isLocale(member?.locale) && !isLocale(getCookie(c, LANGUAGE_COOKIE))) setLanguageCookie(c, member.locale);
  const translator = createTranslator(webCatalog, resolveViewer(c, member));
  c.set('i18n', translator);
  await translatorStorage.run(translator, next);
};
