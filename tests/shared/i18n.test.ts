// The languages runtime (server/shared/i18n): Accept-Language negotiation, catalogs that refuse a
// missing key in tests and fall back to English (told once) in production, ICU plurals, and the
// Intl helpers in the viewer's locale and time zone.
import { describe, expect, it, vi } from 'vitest';
import {
  Catalog,
  createTranslator,
  flattenMessages,
  isTimeZone,
  type Locale,
  MissingMessageError,
  negotiateLocale,
} from '../../server/shared/i18n/index.js';

function catalogOf(messages: Partial<Record<Locale, Record<string, string>>>, strict = true, onMissing = vi.fn()) {
  const byLocale = new Map<Locale, Map<string, string>>();
  for (const [locale, entries] of Object.entries(messages)) {
    byLocale.set(locale as Locale, new Map(Object.entries(entries)));
  }
  return new Catalog(byLocale, { strict, onMissing });
}

describe('negotiateLocale', () => {
  it('honours q-values, falls back from a region to its language, and defaults to English', () => {
    expect(negotiateLocale('de-AT,de;q=0.9,en;q=0.5')).toBe('de');
    expect(negotiateLocale('en;q=0.4, pt-BR;q=0.8')).toBe('pt');
    expect(negotiateLocale('ja, fr-CA;q=0.7')).toBe('fr');
    expect(negotiateLocale('es;q=0, it')).toBe('en');
    expect(negotiateLocale('')).toBe('en');
    expect(negotiateLocale(undefined)).toBe('en');
    expect(negotiateLocale('*')).toBe('en');
  });
});

describe('catalogs', () => {
  it('flattens nested keys under the namespace', () => {
    expect([...flattenMessages('common', { nav: { feed: 'Feed' }, ok: 'OK' })]).toEqual([
      ['common.nav.feed', 'Feed'],
      ['common.ok', 'OK'],
    ]);
    expect(() => flattenMessages('common', { list: ['a'] })).toThrow(/must be a string/);
  });

  it('throws on a missing key when strict (tests)', () => {
    const catalog = catalogOf({ en: { 'a.b': 'Hello' }, de: {} });
    const german = createTranslator(catalog, { locale: 'de', timeZone: 'UTC', timeZoneSource: 'utc' });
    expect(() => german.t('a.b')).toThrow(MissingMessageError);
  });

  it('falls back to English and reports once when not strict (production)', () => {
    const onMissing = vi.fn();
    const catalog = catalogOf({ en: { 'a.b': 'Hello {name}' }, de: {} }, false, onMissing);
    const german = createTranslator(catalog, { locale: 'de', timeZone: 'UTC', timeZoneSource: 'utc' });
    expect(german.t('a.b', { name: 'Ana' })).toBe('Hello Ana');
    expect(german.t('a.b', { name: 'Ben' })).toBe('Hello Ben');
    expect(onMissing).toHaveBeenCalledTimes(1);
    expect(onMissing).toHaveBeenCalledWith('de', 'a.b');
    expect(german.t('no.such')).toBe('no.such');
  });

  it('formats ICU plurals per locale and tags through functions', () => {
    const catalog = catalogOf({
      en: { 'x.min': '{count, plural, one {# minute} other {# minutes}}', 'x.link': 'Go <a>home</a>.' },
      fr: { 'x.min': '{count, plural, one {# minute} other {# minutes}}', 'x.link': 'Aller <a>à l’accueil</a>.' },
    });
    const en = createTranslator(catalog, { locale: 'en', timeZone: 'UTC', timeZoneSource: 'utc' });
    const fr = createTranslator(catalog, { locale: 'fr', timeZone: 'UTC', timeZoneSource: 'utc' });
    expect(en.t('x.min', { count: 1 })).toBe('1 minute');
    expect(en.t('x.min', { count: 0 })).toBe('0 minutes');
    expect(fr.t('x.min', { count: 0 })).toBe('0 minute'); // French: zero is singular
    expect(en.t('x.min', { count: 1500 })).toBe('1,500 minutes');
    expect(en.rich('x.link', { a: (chunks: unknown[]) => ({ link: chunks }) })).toEqual([
      'Go ',
      { link: ['home'] },
      '.',
    ]);
  });
});

describe('Intl helpers', () => {
  const catalog = catalogOf({ en: {} });
  const instant = new Date('2026-11-27T17:00:00Z');

  it('writes dates and times in the viewer’s locale and zone, or a venue’s', () => {
    const berlin = createTranslator(catalog, { locale: 'de', timeZone: 'Europe/Berlin', timeZoneSource: 'account' });
    const newYork = createTranslator(catalog, {
      locale: 'en',
      timeZone: 'America/New_York',
      timeZoneSource: 'browser',
    });
    expect(berlin.formatTime(instant)).toBe('18:00');
    expect(newYork.formatTime(instant)).toBe('12:00 PM');
    expect(newYork.formatTime(instant, { timeZone: 'Europe/Berlin' })).toBe('6:00 PM');
    expect(berlin.formatDate(instant)).toBe('27.11.2026');
    expect(newYork.formatDateTime(instant)).toBe('Nov 27, 2026, 12:00 PM');
  });

  it('names nearby days relative to the viewer’s today', () => {
    const lisbon = createTranslator(catalog, { locale: 'pt', timeZone: 'Europe/Lisbon', timeZoneSource: 'utc' });
    const english = createTranslator(catalog, { locale: 'en', timeZone: 'Pacific/Auckland', timeZoneSource: 'utc' });
    const now = new Date('2026-11-27T10:00:00Z');
    expect(lisbon.formatRelativeDay(new Date('2026-11-27T22:00:00Z'), now)).toBe('Hoje');
    expect(lisbon.formatRelativeDay(new Date('2026-11-28T09:00:00Z'), now)).toBe('Amanhã');
    // 10:00 UTC is 23:00 in Auckland; 12:00 UTC there is already the next day.
    expect(english.formatRelativeDay(new Date('2026-11-27T12:00:00Z'), now)).toBe('Tomorrow');
    expect(english.formatRelativeDay(new Date('2026-11-30T12:00:00Z'), now)).toBe('Tuesday');
  });

  it('formats numbers and lists for the locale', () => {
    const german = createTranslator(catalog, { locale: 'de', timeZone: 'UTC', timeZoneSource: 'utc' });
    expect(german.formatNumber(1234.5)).toBe('1.234,5');
    expect(german.formatList(['Ana', 'Ben', 'Cy'])).toBe('Ana, Ben und Cy');
  });

  it('accepts only time zones Intl knows', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('Europe/Berlin; x=1')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
