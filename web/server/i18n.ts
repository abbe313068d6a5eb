// The viewer's language and time zone for one web request, and `t` for every page and component.
//
// Who the viewer is (language, zone) is worked out once per request by viewer.ts.
//
// Pages reach the translator two ways, both request-scoped: `t('common.actions.save')` and `fmt()` from this
// module (an AsyncLocalStorage set around every request, so components at any depth, async ones
// too, need no prop), or `c.get('i18n')` where a Context is at hand. See docs/i18n.md.
import { AsyncLocalStorage } from 'node:async_hooks';
import { fileURLToPath } from 'node:url';
import { Catalog, createTranslator, type MessageValues, type Translator } from '../../server/shared/i18n/index.js';

export const LANGUAGE_COOKIE = 'lang';
export const TIME_ZONE_COOKIE = 'tz';

/** The web's catalogs: web/locales/<locale>/<namespace>.json (copied beside dist/web by the build). */
export const webCatalog = Catalog.fromDirectory(fileURLToPath(new URL('../locales', import.meta.url)));

/** The translator of the request being served (set by viewer.ts's middleware). */
export const translatorStorage = new AsyncLocalStorage<Translator>();
const fallback = createTranslator(webCatalog, { locale: 'en', timeZone: 'UTC', timeZoneSource: 'utc' });

/** The current request's translator (English and UTC outside a request, e.g. in a unit test). */
export function fmt(): Translator {
  return translatorStorage.getStore() ?? fallback;
}

/** The message `key` in the viewer's language: `t('common.actions.save')`. */
export function t(key: string, values?: MessageValues): string {
  return fmt().t(key, values);
}
