// Grounding: the published guides and media items whose text matches the member's message
// (full-text search, 'simple' configuration as elsewhere in the library). Drafts are excluded in
// SQL (published_at is not null), so neither the model nor the embedded answer can cite them.
import { sql } from 'drizzle-orm';
import type { CompanionSource } from '../../../db/schema/index.js';
import type { ServiceContext } from '../../service/context.js';
import { COMPANION_LIMITS } from './schemas.js';

export interface LibraryItem extends CompanionSource {
  /** Summary or synopsis, else the start of the body: what the embedded answer quotes. */
  excerpt: string;
  /** More of the text, for the model's prompt. */
  context: string;
}

/** Words too common to tell items apart (the 'simple' configuration keeps every word). */
const STOP_WORDS = new Set(
  'the and for are but not you your yours with this that these those from have has had was were what when where which who whom why how can could should would will shall may might must about into over under than then them they their there here some any all our ours out its it’s just also very more most much many such only own same too does did doing done been being get got make made like want need know tell give please thanks thank help'.split(
    ' ',
  ),
);

/** "Vegan potluck ideas?" → 'vegan:* | potluck:* | ideas:*'; null when no word is worth searching. */
export function searchQuery(message: string): string | null {
  const words = [
    ...new Set(
      (message.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 3 && !STOP_WORDS.has(w)),
    ),
  ].slice(0, 12);
  return words.length ? words.map((w) => `${w}:*`).join(' | ') : null;
}

const EXCERPT_CHARS = 280;
const CONTEXT_CHARS = 1500;

export async function findLibraryItems(ctx: ServiceContext, message: string): Promise<LibraryItem[]> {
  const query = searchQuery(message);
  if (query === null) return [];
  const rows = await ctx.database.rows<{
    type: 'guide' | 'media';
    slug: string;
    title: string;
    excerpt: string;
    context: string;
  }>(sql`
    with q as (select to_tsquery('simple', ${query}) as query),
    matches as (
      select 'guide' as type, g.slug, g.title,
        coalesce(nullif(g.summary, ''), left(g.body, ${EXCERPT_CHARS})) as excerpt,
        left(g.summary || E'\n' || g.body, ${CONTEXT_CHARS}) as context,
        ts_rank(to_tsvector('simple', g.title || ' ' || g.summary || ' ' || g.body), q.query) as rank
      from guides g, q
      where g.published_at is not null
        and to_tsvector('simple', g.title || ' ' || g.summary || ' ' || g.body) @@ q.query
      union all
      select 'media', m.slug, m.title, left(m.synopsis, ${EXCERPT_CHARS}), left(m.synopsis, ${CONTEXT_CHARS}),
        ts_rank(m.search_document, q.query)
      from media_items m, q
      where m.published_at is not null and m.search_document @@ q.query
    )
    select type, slug, title, excerpt, context from matches
    order by rank desc, title, slug
    limit ${COMPANION_LIMITS.sources}`);
  return rows.map((r) => ({ type: r.type, slug: r.slug, title: r.title, excerpt: r.excerpt, context: r.context }));
}
