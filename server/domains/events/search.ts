// `q` on GET /api/events: every word a prefix of a word of the title or description, the way
// places search (server/domains/places/list-query.ts): 'simple' text search, no stemming, the
// same on PGlite and PostgreSQL, over an expression GIN index (events_search_gin, migration
// events_find). Visibility is applied beside it in the same WHERE, never after.
import { sql, type SQL } from 'drizzle-orm';
import { events } from '../../../db/schema/index.js';
import { toPrefixTsquery } from '../places/list-query.js';

/** The search condition, or a condition matching nothing when `q` holds no letter or digit. */
export function eventSearchCondition(q: string): SQL {
  const query = toPrefixTsquery(q);
  if (query === null) return sql`false`;
  return sql`events_search_document(${events.title}, ${events.description}) @@ to_tsquery('simple', ${query})`;
}
