// /app/events, findable (#26): the search box over the list (words of the title or description,
// `q`), kept by every other filter and link, and the link between upcoming and past events
// (past ones newest first). Plain GET forms and links: no JavaScript needed.
import { t } from '../server/i18n.js';

/** The most a search may hold (the API takes 200; a longer one is cut by the input). */
export const SEARCH_MAX = 100;

/**
 * The search box. The list's other settings ride along as hidden fields (`keep`, already
 * without `q` and `cursor`), so a search narrows what is shown instead of starting over.
 */
export function EventSearch(props: { action: string; q: string; keep: URLSearchParams }) {
  return (
    <form method="get" action={props.action} class="event-search" aria-label={t('eventsFind.search.label')}>
      {[...props.keep].map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <label for="events-q">{t('eventsFind.search.field')}</label>{' '}
      <input id="events-q" name="q" type="search" value={props.q} maxlength={SEARCH_MAX} />{' '}
      <button type="submit">{t('eventsFind.search.button')}</button>
      {props.q ? <p class="hint">{t('eventsFind.search.showing', { q: props.q })}</p> : null}
    </form>
  );
}

/** "Past events" (newest first) from the upcoming list, and back. */
export function PastLink(props: { past: boolean; href: string }) {
  return <a href={props.href}>{props.past ? t('eventsFind.links.upcoming') : t('eventsFind.links.past')}</a>;
}
