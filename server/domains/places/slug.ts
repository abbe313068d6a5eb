// Slugs: lower-case ASCII letters and digits joined by single hyphens, from the place name.
// "Café Grün & Co." → "cafe-grun-co". A taken slug gets "-2", "-3", …; after that a random suffix.
import { randomBytes } from 'node:crypto';

export const SLUG_MAX_LENGTH = 60;

export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // strip accents left as combining marks
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/, '');
  // Names in scripts with no ASCII letters or digits still get an address.
  return slug || 'place';
}

/** The slugs to try, in order: base, base-2 … base-20; or one random-suffixed slug. */
export function slugCandidates(base: string, random = false): string[] {
  if (random) return [`${base}-${randomBytes(4).toString('hex')}`];
  return [base, ...Array.from({ length: 19 }, (_, i) => `${base}-${i + 2}`)];
}
