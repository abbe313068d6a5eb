// The languages runtime shared by the web pages and the server's mail and push texts.
// See docs/i18n.md: how to add a string, a page, a language.
export {
  Catalog,
  type CatalogOptions,
  flattenMessages,
  type MessageValues,
  MissingMessageError,
  readCatalogDirectory,
} from './catalog.js';
export { DEFAULT_LOCALE, direction, isLocale, LOCALE_NAMES, LOCALES, type Locale, negotiateLocale } from './locales.js';
export { canonicalTimeZone, isTimeZone } from '../time-zones.js';
export { calendarDay, daysBetween, timeZoneNames } from './time-zones.js';
export { createTranslator, type DateInput, type Translator, type Viewer } from './translator.js';
