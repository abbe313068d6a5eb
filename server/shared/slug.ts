// Slugs shared by groves, organizations and events.
import { randomBytes } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';

export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return slug.length >= 2 ? slug : `x-${slug || 'item'}`;
}

/** A free slug for `base`: base itself, else base with a short random suffix. */
export async function freeSlug(db: DbOrTx, table: PgTable, column: AnyPgColumn, base: string): Promise<string> {
  const suffixed = () => `${base}-${randomBytes(3).toString('hex')}`;
  const candidates = [base, suffixed(), suffixed()];
  const taken = new Set(
    (await db.select({ slug: column }).from(table).where(inArray(column, candidates))).map((r) => r.slug as string),
  );
  return candidates.find((c) => !taken.has(c)) ?? `${base}-${randomBytes(6).toString('hex')}`;
}
