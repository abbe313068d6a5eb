// Settings: the member's language and time zone (stored on the account through PATCH /api/me).
// "As my browser prefers" and "My browser's time zone" clear the account's value (null), so the
// Accept-Language header and the browser's zone (cookie `tz`) apply again. Choosing a language
// here also sets the `lang` cookie, as the footer's switch does; choosing the browser's clears it.
import { deleteCookie } from 'hono/cookie';
import {
  createTranslator,
  isLocale,
  isTimeZone,
  LOCALE_NAMES,
  LOCALES,
  timeZoneNames,
} from '../../server/shared/i18n/index.js';
import { api, type currentMember } from '../server/api.js';
import { cookiesAreSecure } from '../server/config.js';
import { redirectWithNotice } from '../server/flash.js';
import { fmt, LANGUAGE_COOKIE, t, webCatalog } from '../server/i18n.js';
import { setLanguageCookie, timeZoneNote } from '../server/language-switch.js';
import { failureMessage, formFields, tryApi } from '../server/session-route.js';
import type { Page } from './page.js';
import { urls } from '../urls.js';

type Member = NonNullable<Awaited<ReturnType<typeof currentMember>>>;

export function LanguageAndTimeZone({ member }: { member: Member }) {
  const locale = member.locale ?? '';
  const zone = member.timeZone ?? '';
  return (
    <section aria-labelledby="region-heading">
      <h2 id="region-heading">{t('settings.region.heading')}</h2>
      <p>{t('settings.region.intro')}</p>
      <form method="post" action={urls.settingsRegion()} class="stack">
        <div>
          <label for="settings-locale">{t('settings.region.language')}</label>
          <select id="settings-locale" name="locale">
            <option value="" selected={locale === ''}>
              {t('settings.region.languageBrowser')}
            </option>
            {LOCALES.map((code) => (
              <option value={code} lang={code} selected={code === locale}>
                {LOCALE_NAMES[code]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="settings-time-zone">{t('settings.region.timeZone')}</label>
          <select id="settings-time-zone" name="timeZone" aria-describedby="settings-time-zone-hint">
            <option value="" selected={zone === ''}>
              {t('settings.region.timeZoneBrowser')}
            </option>
            {timeZoneNames().map((name) => (
              <option value={name} selected={name === zone}>
                {name}
              </option>
            ))}
          </select>
          <span id="settings-time-zone-hint" class="hint">
            {t('settings.region.timeZoneHint', { note: timeZoneNote() })}
          </span>
        </div>
        <p class="actions">
          <button type="submit">{t('settings.region.save')}</button>
        </p>
      </form>
    </section>
  );
}

export const updateRegion: Page = async (c) => {
  const fields = await formFields(c);
  const locale = isLocale(fields.locale) ? fields.locale : null;
  const timeZone = fields.timeZone && isTimeZone(fields.timeZone) ? fields.timeZone : null;
  const result = await tryApi(() => api(c).me.update.mutate({ locale, timeZone }));
  // Both fields come from lists, so a refusal is rare: its reason is shown as the page's notice.
  if (!result.ok) return redirectWithNotice(c, urls.settings(), failureMessage(result.failure));
  if (locale) setLanguageCookie(c, locale);
  else deleteCookie(c, LANGUAGE_COOKIE, { path: '/', secure: cookiesAreSecure(c.get('web').config) });
  // The notice in the language just chosen (the next page is in it).
  const next = createTranslator(webCatalog, { ...fmt().viewer, locale: locale ?? fmt().locale });
  return redirectWithNotice(c, urls.settings(), next.t('settings.region.saved'));
};
