// The API's refusals in the viewer's words. API messages stay English (they are for developers);
// the web maps the error code and, for a validation failure, each field path to translated
// sentences: one per field ("Password: must be at least 8 characters long.", worded from zod's
// issue code and limits that the API's details carry, from the English wording only where a
// refusal has none), and a lockout's seconds become "Try again in 15 minutes" (an ICU plural). In English the API's own message is
// kept for codes whose message says something specific ("That handle is taken.").
import { fmt, t } from './i18n.js';

export interface RefusalFacts {
  status: number;
  code: string;
  message: string;
  details?: unknown;
  retryAfter?: string | null;
}

/** Codes whose sentence every locale gets from the `errors.codes` namespace. */
const CODES_IN_CATALOG = new Set([
  'validation_failed',
  'invalid_credentials',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'unsupported_media_type',
  'unavailable',
]);

/** Field labels the catalog has (`errors.fields.<name>`), by the last segment of the path. */
export const FIELDS_IN_CATALOG = new Set([
  'email',
  'password',
  'newPassword',
  'currentPassword',
  'handle',
  'title',
  'name',
  'body',
  'text',
  'description',
  'reason',
  'comment',
  'message',
  'startsAt',
  'endsAt',
  'address',
  'url',
  'timeZone',
  'locale',
  'latitude',
  'longitude',
  'capacity',
  'alt',
  'details',
  'note',
  'publicNote',
]);

/** One entry of the API's `details` (server/errors.ts `ErrorDetail`). */
interface Detail {
  path: string;
  message: string;
  issue?: unknown;
  origin?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  format?: unknown;
}

/** The reason from the validator's issue code and limits, when they say enough; else null. */
function reasonFromIssue(detail: Detail): [key: string, values?: Record<string, number>] | null {
  const { issue, origin, format } = detail;
  if (issue === 'too_small' && typeof detail.minimum === 'number') {
    if (origin === 'string') return ['errors.reasons.tooShort', { min: detail.minimum }];
    if (origin === 'array' || origin === 'set') return ['errors.reasons.tooFew', { min: detail.minimum }];
  }
  if (issue === 'too_big' && typeof detail.maximum === 'number') {
    if (origin === 'string') return ['errors.reasons.tooLong', { max: detail.maximum }];
    if (origin === 'array' || origin === 'set') return ['errors.reasons.tooMany', { max: detail.maximum }];
  }
  if ((issue === 'too_small' || issue === 'too_big') && (origin === 'number' || origin === 'int'))
    return ['errors.reasons.number'];
  if (issue === 'invalid_format' && format === 'email') return ['errors.reasons.email'];
  if (issue === 'invalid_format' && (format === 'datetime' || format === 'date')) return ['errors.reasons.date'];
  if (issue === 'invalid_value') return ['errors.reasons.option'];
  return null;
}

/**
 * A reason as a catalog key and values: from the issue code and limits when the API gave them
 * (any language, whatever the English wording), else recognised by the message's English wording
 * (the service's own refusals and custom checks, which carry no limits).
 */
function reasonOf(detail: Detail): [key: string, values?: Record<string, number>] {
  return reasonFromIssue(detail) ?? reasonFromWording(detail.message);
}

/** A zod or API reason, recognised by its English wording, as a catalog key and values. */
function reasonFromWording(message: string): [key: string, values?: Record<string, number>] {
  let match = /(?:at least|>=)\s*(\d+) (?:characters?)/i.exec(message);
  if (match) return ['errors.reasons.tooShort', { min: Number(match[1]) }];
  match = /(?:at most|<=)\s*(\d+) (?:characters?)/i.exec(message);
  if (match) return ['errors.reasons.tooLong', { max: Number(match[1]) }];
  match = /array to have >=\s*(\d+)/i.exec(message);
  if (match) return ['errors.reasons.tooFew', { min: Number(match[1]) }];
  match = /array to have <=\s*(\d+)/i.exec(message);
  if (match) return ['errors.reasons.tooMany', { max: Number(match[1]) }];
  if (/email/i.test(message)) return ['errors.reasons.email'];
  if (/received undefined|required/i.test(message)) return ['errors.reasons.required'];
  if (/letters, digits or underscores/i.test(message)) return ['errors.reasons.handle'];
  if (/too common/i.test(message)) return ['errors.reasons.commonPassword'];
  if (/repeated character/i.test(message)) return ['errors.reasons.repeatedPassword'];
  if (/email address or handle/i.test(message)) return ['errors.reasons.identityPassword'];
  if (/date|datetime/i.test(message)) return ['errors.reasons.date'];
  if (/expected (?:number|int)|too (?:small|big): expected number/i.test(message)) return ['errors.reasons.number'];
  if (/invalid option|expected one of/i.test(message)) return ['errors.reasons.option'];
  return ['errors.reasons.invalid'];
}

function fieldLabel(path: string): string {
  const last =
    path
      .split('.')
      .filter((part) => !/^\d+$/.test(part))
      .pop() ?? path;
  return FIELDS_IN_CATALOG.has(last) ? t(`errors.fields.${last}`) : last;
}

/** One sentence per failing field (the first reason the API gave for it). */
function validationSentences(details: unknown): string | null {
  if (!Array.isArray(details)) return null;
  const byField = new Map<string, Detail>();
  for (const detail of details as Array<Partial<Detail> | null>) {
    if (typeof detail?.path !== 'string' || typeof detail.message !== 'string' || detail.path === '') continue;
    if (!byField.has(detail.path)) byField.set(detail.path, detail as Detail);
  }
  if (byField.size === 0) return null;
  return [...byField]
    .map(([path, detail]) => {
      const { message } = detail;
      const [key, values] = reasonOf(detail);
      // A reason the catalog has no sentence for: in English the API's own words say more than
      // "is not valid" (e.g. why an upload or a date was refused); other locales get the generic one.
      const reason = key === 'errors.reasons.invalid' && fmt().locale === 'en' ? message : t(key, values);
      return t('errors.fieldSentence', { field: fieldLabel(path), reason });
    })
    .join(' ');
}

/** "15 minutes", "30 seconds", "2 hours": a wait in the largest unit that reads naturally, rounded up. */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return t('common.time.seconds', { count: Math.max(1, Math.ceil(seconds)) });
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return t('common.time.minutes', { count: minutes });
  return t('common.time.hours', { count: Math.ceil(minutes / 60) });
}

function secondsToWait(facts: RefusalFacts): number | null {
  const named = /in (\d+) seconds?/.exec(facts.message);
  if (named) return Number(named[1]);
  const header = facts.retryAfter ? Number(facts.retryAfter) : Number.NaN;
  return Number.isFinite(header) && header > 0 ? header : null;
}

/** The sentence a form shows for a refusal of the API (or of the web server on its behalf). */
export function refusalSentence(facts: RefusalFacts): string {
  if (facts.status >= 500 && facts.code !== 'unavailable') return t('common.errors.generic');
  // Already in the viewer's words: the web's own "too large" sentence (api-refusals.ts).
  if (facts.code === 'payload_too_large') return facts.message;
  if (facts.code === 'rate_limited') {
    const seconds = secondsToWait(facts);
    return seconds === null
      ? t('errors.rateLimited.later')
      : t('errors.rateLimited.wait', { duration: waitInWords(seconds) });
  }
  if (facts.code === 'validation_failed') {
    const sentences = validationSentences(facts.details);
    if (sentences) return sentences;
  }
  if (fmt().locale === 'en') return facts.message;
  return t(CODES_IN_CATALOG.has(facts.code) ? `errors.codes.${facts.code}` : 'errors.codes.other');
}
