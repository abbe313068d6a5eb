// The API's refusals in the viewer's words (no browser): one sentence per failing field instead of
// "password: …; password: …", a lockout in minutes through an ICU plural, codes translated, and
// the API's own specific English kept for English readers.
import { describe, expect, it } from 'vitest';
import { createTranslator, type Locale } from '../../server/shared/i18n/index.js';
import { translatorStorage, webCatalog } from '../server/i18n.js';
import { refusalSentence } from '../server/refusal-sentences.js';

function inLocale<T>(locale: Locale, run: () => T): T {
  const translator = createTranslator(webCatalog, { locale, timeZone: 'UTC', timeZoneSource: 'utc' });
  return translatorStorage.run(translator, run);
}

const weakPassword = {
  status: 400,
  code: 'validation_failed',
  message: 'password: Must be at least 8 characters.; password: This password is too common; choose another.',
  details: [
    { path: 'password', message: 'Must be at least 8 characters.' },
    { path: 'password', message: 'This password is too common; choose another.' },
    { path: 'handle', message: 'Must be 3–30 letters, digits or underscores.' },
  ],
};

describe('refusal sentences', () => {
  it('writes one sentence per failing field, in the viewer’s language', () => {
    expect(inLocale('en', () => refusalSentence(weakPassword))).toBe(
      'Password: must be at least 8 characters long. Handle: use 3–30 letters, digits or underscores.',
    );
    expect(inLocale('de', () => refusalSentence(weakPassword))).toBe(
      'Passwort: muss mindestens 8 Zeichen lang sein. Benutzername: verwende 3–30 Buchstaben, Ziffern oder Unterstriche.',
    );
  });

  it('words a length from the issue code and its minimum, not from the English text', () => {
    const facts = {
      status: 400,
      code: 'validation_failed',
      message: 'title: Too short.; tags: Too many.',
      details: [
        // The English says no number (and could say anything): the code and the limit decide.
        { path: 'title', message: 'Too short.', issue: 'too_small', origin: 'string', minimum: 12 },
        { path: 'tags', message: 'Too many.', issue: 'too_big', origin: 'array', maximum: 5 },
      ],
    };
    expect(inLocale('de', () => refusalSentence(facts))).toBe(
      'Titel: muss mindestens 12 Zeichen lang sein. tags: wähle höchstens 5 Einträge.',
    );
    expect(inLocale('en', () => refusalSentence(facts))).toContain('at least 12 characters');
  });

  it('turns a lockout’s seconds into minutes with the right plural', () => {
    const lockout = (seconds: number) => ({
      status: 429,
      code: 'rate_limited',
      message: `Too many attempts; try again in ${seconds} seconds.`,
    });
    expect(inLocale('en', () => refusalSentence(lockout(896)))).toBe('Too many attempts. Try again in 15 minutes.');
    expect(inLocale('en', () => refusalSentence(lockout(45)))).toBe('Too many attempts. Try again in 45 seconds.');
    expect(inLocale('en', () => refusalSentence(lockout(61)))).toBe('Too many attempts. Try again in 2 minutes.');
    expect(inLocale('fr', () => refusalSentence(lockout(60)))).toBe('Trop de tentatives. Réessayez dans 1 minute.');
    expect(
      inLocale('pt', () =>
        refusalSentence({ status: 429, code: 'rate_limited', message: 'Too many requests.', retryAfter: '7200' }),
      ),
    ).toBe('Demasiadas tentativas. Tente novamente dentro de 2 horas.');
  });

  it('keeps the API’s specific English, translates the code for other readers, hides failures', () => {
    const taken = { status: 409, code: 'conflict', message: 'That handle is taken.' };
    expect(inLocale('en', () => refusalSentence(taken))).toBe('That handle is taken.');
    expect(inLocale('es', () => refusalSentence(taken))).toMatch(/^Esto choca/);
    expect(inLocale('de', () => refusalSentence({ status: 500, code: 'internal_error', message: 'boom' }))).toBe(
      'Bei uns ist etwas schiefgelaufen. Bitte versuche es erneut.',
    );
  });
});
