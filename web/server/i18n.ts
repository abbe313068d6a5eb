// The viewer's language and time zone for one web request, and `t` for every page and component.
//
// Choosing the language: the explicit switch (cookie `lang`, set by POST /language and by the
// settings page) beats the account's setting, which beats the browser's Accept-Language; else
// English. The time zone: the account's setting, else the browser's (cookie `tz`, written by
// /assets/time-zone.js), else UTC; the footer says which.
//
// Pages reach the translator two ways, both request-scoped: `t('common.actions.save')` and `fmt()` from this
// module (an AsyncLocalStorage set around every request, so components at any depth, async ones
// too, need no prop), or `c.get('i18n')` where a Context is at hand. See docs/i18n.md.
import { AsyncLocalStorage } from 'node:async_hooks';
import { fileURLToPath } from 'node:url';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { matchedRoutes } from 'hono/route';
import {
  Catalog,
  createTranslator,
  isLocale,
  isTimeZone,
  type Locale,
  type MessageValues,
  negotiateLocale,
  type Translator,
  type Viewer,
} from '../../server/shared/i18n/index.js';
import { currentMember } from './api.js';
import type { Member, WebEnv } from './env.js';
import { readSessionToken } from './session.js';

export const LANGUAGE_COOKIE = 'lang';
export const TIME_ZONE_COOKIE = 'tz';

/** The web's catalogs: web/locales/<locale>/<namespace>.json (copied beside dist/web by the build). */
export const webCatalog = Catalog.fromDirectory(fileURLToPath(new URL('../locales', import.meta.url)));

const storage = new AsyncLocalStorage<Translator>();
const fallback = createTranslator(webCatalog, { locale: 'en', timeZone: 'UTC', timeZoneSource: 'utc' });

/** The current request's translator (English and UTC outside a request, e.g. in a unit test). */
export function fmt(): Translator {
  return storage.getStore() ?? fallback;
}

/** The message `key` in the viewer's language: `t('common.actions.save')`. */
export function t(key: string, values?: MessageValues): string {
  return fmt().t(key, values);
}

/** The account's language and zone, once the account API has them (optional until then). */
function accountSettings(member: Member | null): { locale?: unknown; timeZone?: unknown } {
  return (member ?? {}) as { locale?: unknown; timeZone?: unknown };
}

/** Works out the viewer from the cookies, the account and the request headers. */
export function resolveViewer(c: Context<WebEnv>, member: Member | null): Viewer {
  const account = accountSettings(member);
  const chosen = getCookie(c, LANGUAGE_COOKIE);
  const locale: Locale = isLocale(chosen)
    ? chosen
    : isLocale(account.locale)
      ? account.locale
      : negotiateLocale(c.req.header('accept-language'));
  if (isTimeZone(account.timeZone)) return { locale, timeZone: account.timeZone, timeZoneSource: 'account' };
  const browserZone = getCookie(c, TIME_ZONE_COOKIE);
  if (isTimeZone(browserZone)) return { locale, timeZone: browserZone, timeZoneSource: 'browser' };
  return { locale, timeZone: 'UTC', timeZoneSource: 'utc' };
}

/**
 * Sets the viewer for the rest of the request. A signed-in GET of a page loads the member first
 * (memoized: the page frame needs it anyway) so the account's language and zone count from the
 * first string. Form posts skip that call: they read the cookies (the switch and the settings page
 * set `lang` too), and most of them answer with a redirect.
 */
export const withViewer: MiddlewareHandler<WebEnv> = async (c, next) => {
  // Not for the API's session route, nor for an unknown path (the 404 page stays cheap).
  const isPage =
    c.req.method === 'GET' &&
    !c.req.path.startsWith('/api/') &&
    matchedRoutes(c).some((route) => route.method !== 'ALL');
  const member = isPage && readSessionToken(c) ? await currentMember(c) : null;
  const translator = createTranslator(webCatalog, resolveViewer(c, member));
  c.set('i18n', translator);
  await storage.run(translator, next);
};
