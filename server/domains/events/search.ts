// `q` on GET /api/events: every word a prefix of a word of the title or description, the way
// places search (server/domains/places/list-query.ts): 'simple' text search, no stemming, the
// same on PGlite and PostgreSQL, over the stored column events.search_document and its GIN index
// (migration events_find; the column is not in db/schema, so no select reads it). Visibility
// is applied beside it in the same WHERE, never after.
import { sql, type SQL } from 'drizzle-orm';
import { events } from '../../../db/schema/index.js';
import { toPrefixTsquery } from '../places/list-query.js';

/** The search condition, or a condition matching nothing when `q` holds no letter or digit. */
export function eventSearchCondition(q: string): SQL {
  const query = toPrefixTsquery(q);
  if (query === null) return sql`false`;
  return sql`${events}.search_document @@ to_tsquery('simple', ${query})`;
}
