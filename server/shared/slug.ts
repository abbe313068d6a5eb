// The one slug helper for every domain (places, events, groves, organizations).
//
// Text becomes a slug through @sindresorhus/slugify (maintained transliteration tables per
// language: "Grüne Straße Café" → "gruene-strasse-cafe", "Łódź" → "lodz"), cut to
// SLUG_MAX_LENGTH at a hyphen. Uniqueness is decided by the insert itself (the unique index),
// never by a read-then-write check, so two concurrent creates cannot both pass a check and one
// fail with 409: a generated slug that loses retries with a new random suffix.
//
// Suffix rule (docs/places.md, docs/events-and-groves.md): a resource that can be hidden (a pending place, a non-public
// event) always gets a random suffix, so its public slug says nothing about rows others cannot
// see; a resource that is always public (grove, organization) gets the bare slug when it is
// free and a random suffix otherwise. Never "-2", "-3": a counter tells an outsider how many
// rows (hidden ones too) took the base. A slug the client chose is used as sent and answers 409
// `conflict` when taken.
import { randomBytes } from 'node:crypto';
import slugifyText from '@sindresorhus/slugify';
import { AppError, isUniqueViolation } from '../errors.js';

export const SLUG_MAX_LENGTH = 60;
/** Lower-case letters and digits; 6 of them make a collision between two same-named rows ~1 in 2 billion. */
const SUFFIX_LENGTH = 6;
const MAX_ATTEMPTS = 5;

/** A slug for `text`; `fallback` when the text has no letter or digit that transliterates (e.g. "北京"). */
export function slugify(text: string, fallback = 'item'): string {
  let slug = slugifyText(text, { decamelize: false });
  if (slug.length > SLUG_MAX_LENGTH)
    slug = slug.slice(0, SLUG_MAX_LENGTH).replace(/-[^-]*$/, '') || slug.slice(0, SLUG_MAX_LENGTH);
  slug = slug.replace(/-+$/, '');
  if (slug.length >= 2) return slug;
  return slug ? `${fallback}-${slug}` : fallback;
}

function randomSuffix(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(SUFFIX_LENGTH)].map((byte) => alphabet[byte % alphabet.length]).join('');
}

/** `base` with a random suffix, still within SLUG_MAX_LENGTH. */
export function suffixedSlug(base: string): string {
  const room = SLUG_MAX_LENGTH - SUFFIX_LENGTH - 1;
  return `${base.slice(0, room).replace(/-+$/, '')}-${randomSuffix()}`;
}

export interface SlugOptions {
  /** The slug the client sent, if any: used as is; taken → 409 conflict. */
  clientSlug?: string | undefined;
  /** The text a slug is generated from when the client sent none. */
  text: string;
  /** True when rows of this table can be invisible to some callers (pending, non-public). */
  hideable: boolean;
  fallback?: string;
}

/**
 * Runs `insert(slug)` until the unique index accepts a slug; any error other than a slug
 * violation is thrown as is. `insert` must run in its own `db.transaction(...)`: a savepoint
 * inside an enclosing transaction, so a lost race rolls back only itself. `ctx.db` may already
 * be a transaction without the caller knowing (an Idempotency-Key runs the work inside the
 * key's), where a failed insert outside a savepoint aborts it and every retry fails (issue #21).
 */
export async function insertWithSlug<T>(options: SlugOptions, insert: (slug: string) => Promise<T>): Promise<T> {
  if (options.clientSlug !== undefined) {
    try {
      return await insert(options.clientSlug);
    } catch (error) {
      if (isUniqueViolation(error, 'slug')) throw new AppError('conflict', 'That slug is taken.');
      throw error;
    }
  }
  const base = slugify(options.text, options.fallback);
  for (let attempt = 0; ; attempt++) {
    const slug = attempt === 0 && !options.hideable ? base : suffixedSlug(base);
    try {
      return await insert(slug);
    } catch (error) {
      if (attempt < MAX_ATTEMPTS && isUniqueViolation(error, 'slug')) continue;
      throw error;
    }
  }
}
