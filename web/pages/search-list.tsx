// The parts every searchable, paged list page shares (groves, organizations, events): reading
// `q` and `cursor`, asking the API for one page (a 400 becomes a message on the page, anything
// else the error page), the search box, the list or its empty line, and the next-page link.
import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import { apiErrorMessage } from '../server/api.js';
import { t } from '../server/i18n.js';
import type { WebEnv } from '../server/env.js';
import { rethrowUnless } from './events-common.js';

export interface ListPage<Item> {
  items: Item[];
  nextCursor: string | null;
}

/** The query of a searchable list: the trimmed search text and the cursor (absent when empty). */
export interface SearchListQuery {
  q: string;
  input: { limit: number; q?: string; cursor?: string };
  /** The list's own address for the page after `cursor`, keeping the search. */
  nextHref: (base: string, cursor: string | null) => string | null;
}

export function readSearchListQuery(c: Context<WebEnv>, limit = 20): SearchListQuery {
  const q = (c.req.query('q') ?? '').trim();
  const cursor = c.req.query('cursor') ?? '';
  return {
    q,
    input: { limit, ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) },
    nextHref: (base, next) => {
      if (!next) return null;
      const params = new URLSearchParams(q ? { q } : {});
      params.set('cursor', next);
      return `${base}?${params.toString()}`;
    },
  };
}

/** One page from the API; a refused query (400) answers an empty page and the API's message. */
export async function loadListPage<Item>(
  c: Context<WebEnv>,
  load: () => Promise<ListPage<Item>>,
): Promise<{ page: ListPage<Item>; error: string | null }> {
  try {
    return { page: await load(), error: null };
  } catch (caught) {
    rethrowUnless(caught, 400);
    c.status(400);
    return { page: { items: [], nextCursor: null }, error: apiErrorMessage(caught) };
  }
}

/** The GET search box above a list. */
export function SearchForm(props: { action: string; formLabel: string; inputId: string; label: string; q: string }) {
  return (
    <form method="get" action={props.action} class="stack" aria-label={props.formLabel}>
      <div>
        <label for={props.inputId}>{props.label}</label>
        <input id={props.inputId} name="q" type="search" value={props.q} maxlength={100} />
      </div>
      <p>
        <button type="submit">{t('common.actions.search')}</button>
      </p>
    </form>
  );
}

/** The items as cards, or what to do when there are none, then the next-page link if any. */
export function PagedList<Item>(props: {
  items: Item[];
  /** The empty state: says what to do next (search wider, join, create). */
  empty: Child;
  card: (item: Item) => Child;
  nextHref: string | null;
}) {
  return (
    <>
      {props.items.length === 0 ? (
        <div class="empty-state">{props.empty}</div>
      ) : (
        <ul class="plain">{props.items.map((item) => props.card(item))}</ul>
      )}
      {props.nextHref ? (
        <p>
          <a href={props.nextHref} rel="next">
            {t('groves.pager.next')}
          </a>
        </p>
      ) : null}
    </>
  );
}
