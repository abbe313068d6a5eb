// The language switch and the time-zone note at the foot of every page, and the POST that
// remembers the choice: cookie `lang` (a year), and on the account when signed in. Works without
// JavaScript: a plain form with a submit button.
import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import { isLocale, LOCALE_NAMES, LOCALES } from '../../server/shared/i18n/index.js';
import { cookiesAreSecure } from './config.js';
import type { WebEnv } from './env.js';
import { fmt, LANGUAGE_COOKIE, t } from './i18n.js';
import { safeNextPath } from './next-path.js';
import { urls } from '../urls.js';

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** What the footer says about the zone every time on the page is shown in. */
export function timeZoneNote(): string {
  const { timeZone, timeZoneSource } = fmt().viewer;
  if (timeZoneSource === 'account') return t('common.footer.timeZoneAccount', { zone: timeZone });
  if (timeZoneSource === 'browser') return t('common.footer.timeZoneBrowser', { zone: timeZone });
  return t('common.footer.timeZoneUtc');
}

export function LanguageAndTime({ here }: { here: string }) {
  const { locale } = fmt();
  return (
    <footer class="site-footer">
      <form method="post" action={urls.language()} class="language-switch">
        <label for="language-select">{t('common.footer.language')}</label>{' '}
        <select id="language-select" name="lang">
          {LOCALES.map((code) => (
            <option value={code} lang={code} selected={code === locale}>
              {LOCALE_NAMES[code]}
            </option>
          ))}
        </select>
        <input type="hidden" name="next" value={here} />{' '}
        <button type="submit" class="secondary">
          {t('common.actions.change')}
        </button>
      </form>
      <p class="time-zone-note">{timeZoneNote()}</p>
    </footer>
  );
}

/** Remembers the language in the cookie (and, signed in, on the account), then back to the page. */
export function setLanguageCookie(c: Context<WebEnv>, locale: string): void {
  setCookie(c, LANGUAGE_COOKIE, locale, {
    httpOnly: true,
    secure: cookiesAreSecure(c.get('web').config),
    sameSite: 'Lax',
    path: '/',
    maxAge: YEAR_SECONDS,
  });
}

export async function chooseLanguage(c: Context<WebEnv>): Promise<Response> {
  const form = await c.req.parseBody();
  const chosen = form.lang;
  if (isLocale(chosen)) setLanguageCookie(c, chosen);
  const next = safeNextPath(typeof form.next === 'string' ? form.next : null) ?? urls.home();
  return c.redirect(next, 303);
}
