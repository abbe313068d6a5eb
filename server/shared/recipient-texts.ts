// The texts of mail and push, in the language and time zone of the member who receives them (their
// account's `locale` and `timeZone`; English and UTC when they chose none). A builder describes a
// text as a catalog key and its values (`LocalizedText`); each channel renders it in one place
// (server/mail/localized-mail.ts, server/push/push-texts.ts), for one recipient. The catalogs are
// server/locales/<locale>/{mail,push}.json, read with the same runtime as the web's (server/shared/i18n).
import { fileURLToPath } from 'node:url';
import { Catalog, createTranslator, DEFAULT_LOCALE, isLocale, isTimeZone, type Translator } from './i18n/index.js';

/** Who reads a text: their account's choices, null when not chosen. */
export interface Recipient {
  locale: string | null;
  timeZone: string | null;
}

/**
 * A value in a text: plain, or a moment, written in the recipient's locale and zone with the zone
 * named ("28 Nov 2026, 18:00 (Europe/Berlin)", "(UTC)" when they chose none).
 */
export type TextValue = string | number | { dateTime: Date };

/** One text: a catalog key (`mail.…` or `push.…`) and its values. */
export interface LocalizedText {
  key: string;
  values?: Record<string, TextValue>;
}

/** Text shown as it is, in every language: an event's own title, a link. */
export interface VerbatimText {
  verbatim: string;
}

let catalog: Catalog | undefined;
/** The mail and push catalogs (server/locales), read on first use. */
export function recipientCatalog(): Catalog {
  catalog ??= Catalog.fromDirectory(fileURLToPath(new URL('../locales/', import.meta.url)));
  return catalog;
}

/** A translator for one recipient: their locale, else English; their zone, else UTC. */
export function recipientTranslator(recipient: Recipient): Translator {
  const locale = isLocale(recipient.locale) ? recipient.locale : DEFAULT_LOCALE;
  const chosenZone = recipient.timeZone !== null && isTimeZone(recipient.timeZone);
  return createTranslator(recipientCatalog(), {
    locale,
    timeZone: chosenZone ? recipient.timeZone! : 'UTC',
    timeZoneSource: chosenZone ? 'account' : 'utc',
  });
}

/** The text in the translator's language; a moment goes through `<namespace>.dateTimeInZone`. */
export function renderText(t: Translator, text: LocalizedText | VerbatimText): string {
  if ('verbatim' in text) return text.verbatim;
  const namespace = text.key.slice(0, text.key.indexOf('.'));
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(text.values ?? {})) {
    values[name] =
      typeof value === 'object'
        ? t.t(`${namespace}.dateTimeInZone`, { dateTime: t.formatDateTime(value.dateTime), zone: t.timeZone })
        : value;
  }
  return t.t(text.key, values);
}
