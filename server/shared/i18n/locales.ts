// The languages the service speaks, and how a visitor's browser preference picks one of them.
// English is the source language: every catalog key exists in English first.

export const LOCALES = ['en', 'de', 'es', 'fr', 'pt'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Each locale's name in its own language (for the language switch: a reader finds their own). */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  pt: 'Português',
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Writing direction for `<html dir>`: all five are left-to-right; the hook stays for Arabic or Hebrew. */
export function direction(_locale: Locale): 'ltr' | 'rtl' {
  return 'ltr';
}

/**
 * The best locale for an Accept-Language header: languages by q-value (ties keep header order),
 * a region falls back to its language (de-AT → de), `q=0` never chosen; English when nothing fits.
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale {
  if (!acceptLanguage) return DEFAULT_LOCALE;
  const ranked = acceptLanguage
    .split(',')
    .slice(0, 32) // a hostile header cannot make this loop long
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const q = qParam ? Number(qParam.slice(2)) : 1;
      return { language: tag.trim().toLowerCase().split('-')[0] ?? '', q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0 && entry.language !== '')
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { language } of ranked) {
    if (isLocale(language)) return language;
  }
  return DEFAULT_LOCALE;
}
