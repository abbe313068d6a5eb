// /app/media: the media library (filters, item page) and the member's private watchlist.
// Nothing is played or embedded here: the page's policy allows no frames and no images from
// other sites, so trailers and "where to watch" are plain links that the reader chooses to open.
import type { Context } from 'hono';
import type { RouterInputs, RouterOutputs } from '../../client-sdk/src/index.js';
import { api, isSessionRejected } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { fmt, t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import {
  apiStatus,
  EXTERNAL_REL,
  formErrorMessage,
  queryString,
  readBySlug,
  renderNotFound,
  renderReadFailure,
  SLUG,
} from './places-shared.js';
import { type Page, pathParam } from './page.js';
import { Picture } from './picture.js';
import { urls } from '../urls.js';

type MediaItem = RouterOutputs['media']['get'];
type MediaKind = RouterInputs['media']['adminCreate']['kind'];
type MediaTag = NonNullable<RouterInputs['media']['list']['tag']>;

// Catalog keys written out in full, so the catalog test finds them.
const KIND_LABELS: Record<MediaKind, string> = {
  documentary: 'media.kind.documentary',
  film: 'media.kind.film',
  series: 'media.kind.series',
  talk: 'media.kind.talk',
  short: 'media.kind.short',
};

const TAG_LABELS: Record<MediaTag, string> = {
  ethics: 'media.tag.ethics',
  health: 'media.tag.health',
  environment: 'media.tag.environment',
  activism: 'media.tag.activism',
  cooking: 'media.tag.cooking',
};

const isKind = (value: string): value is MediaKind => Object.hasOwn(KIND_LABELS, value);
const isTag = (value: string): value is MediaTag => Object.hasOwn(TAG_LABELS, value);

/** Pages of the watchlist read to tell whether an item is saved (100 each): a bound, not a crawl. */
const WATCHLIST_PAGES_CHECKED = 10;

/** A poster is shown at most 20rem wide (about 320 px), on a phone up to the full width. */
const POSTER_SIZES = '(max-width: 24rem) 100vw, 20rem';
const THUMBNAIL_SIZES = '6rem';

function MediaSummary({ item }: { item: MediaItem }) {
  return (
    <li class="card media-summary">
      {item.posterImage ? (
        <Picture
          image={item.posterImage}
          alt={t('media.posterAlt', { title: item.title })}
          sizes={THUMBNAIL_SIZES}
          class="thumbnail"
        />
      ) : null}
      <a href={urls.mediaItem(item.slug)}>{item.title}</a>
      <span class="muted">
        {' · '}
        {t(KIND_LABELS[item.kind])}
        {item.year ? ` · ${item.year}` : ''}
        {item.featured ? ` · ${t('media.featured')}` : ''}
      </span>
      {item.synopsis ? <p>{item.synopsis}</p> : null}
    </li>
  );
}

function MediaFilters({ kind, tag, q }: { kind?: string; tag?: string; q?: string }) {
  return (
    <form method="get" action={urls.media()} class="filters">
      <div>
        <label for="media-q">{t('media.filters.search')}</label>
        <input id="media-q" name="q" type="search" value={q ?? ''} maxlength={100} />
      </div>
      <div>
        <label for="media-kind">{t('media.filters.kind')}</label>
        <select id="media-kind" name="kind">
          <option value="">{t('media.filters.anyKind')}</option>
          {Object.entries(KIND_LABELS).map(([value, label]) => (
            <option value={value} selected={kind === value}>
              {t(label)}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for="media-tag">{t('media.filters.topic')}</label>
        <select id="media-tag" name="tag">
          <option value="">{t('media.filters.anyTopic')}</option>
          {Object.entries(TAG_LABELS).map(([value, label]) => (
            <option value={value} selected={tag === value}>
              {t(label)}
            </option>
          ))}
        </select>
      </div>
      <div>
        <button type="submit">{t('media.filters.submit')}</button>
      </div>
    </form>
  );
}

/** Whether the item is on the member's watchlist (the API has no per-item answer; the list is private). */
async function isSaved(c: Context<WebEnv>, id: string): Promise<boolean> {
  let cursor: string | undefined;
  for (let page = 0; page < WATCHLIST_PAGES_CHECKED; page++) {
    const entries = await api(c).me.listWatchlist.query({ cursor, limit: 100 });
    if (entries.items.some((entry) => entry.media._id === id)) return true;
    if (!entries.nextCursor) return false;
    cursor = entries.nextCursor;
  }
  return false;
}

export const mediaListPage: Page = async (c) => {
  const kindParam = c.req.query('kind') ?? '';
  const tagParam = c.req.query('tag') ?? '';
  const kind = isKind(kindParam) ? kindParam : undefined;
  const tag = isTag(tagParam) ? tagParam : undefined;
  const q = c.req.query('q')?.trim() || undefined;
  const cursor = c.req.query('cursor') || undefined;
  let items: MediaItem[] = [];
  let nextCursor: string | null = null;
  let error: string | null = null;
  try {
    const page = await api(c).media.list.query({ kind, tag, q, cursor, featuredFirst: 'true', limit: 30 });
    items = page.items;
    nextCursor = page.nextCursor;
  } catch (failure) {
    if (apiStatus(failure) !== 400) throw failure;
    error = formErrorMessage(failure, { q: t('media.filters.search'), cursor: t('media.filters.page') });
    c.status(400);
  }
  return renderPage(
    c,
    { title: t('media.list.title') },
    <>
      <p>
        <a href={urls.mediaWatchlist()}>{t('media.list.watchlistLink')}</a>
      </p>
      <MediaFilters kind={kind} tag={tag} q={q} />
      <FormError message={error} />
      <h2>{t('media.list.heading')}</h2>
      {items.length === 0 && !error ? <p>{t('media.list.empty')}</p> : null}
      <ul class="plain">
        {items.map((item) => (
          <MediaSummary item={item} />
        ))}
      </ul>
      {nextCursor ? (
        <p>
          <a href={`${urls.media()}${queryString({ kind, tag, q, cursor: nextCursor })}`}>{t('media.list.more')}</a>
        </p>
      ) : null}
    </>,
  );
};

// Before /app/media/:slug ("watchlist" is this page, not an item).
export const watchlistPage: Page = async (c) => {
  const cursor = c.req.query('cursor') || undefined;
  let page: RouterOutputs['me']['listWatchlist'];
  try {
    page = await api(c).me.listWatchlist.query({ cursor, limit: 50 });
  } catch (error) {
    if (apiStatus(error) === 400) return c.redirect(urls.mediaWatchlist(), 303);
    throw error;
  }
  return renderPage(
    c,
    { title: t('media.watchlist.title') },
    <>
      <p class="muted">{t('media.watchlist.private')}</p>
      {page.items.length === 0 ? (
        <p>
          {fmt().rich('media.watchlist.empty', { link: (chunks: unknown[]) => <a href={urls.media()}>{chunks}</a> })}
        </p>
      ) : null}
      <ul class="plain">
        {page.items.map((entry) => (
          <MediaSummary item={entry.media} />
        ))}
      </ul>
      {page.nextCursor ? (
        <p>
          <a href={`${urls.mediaWatchlist()}${queryString({ cursor: page.nextCursor })}`}>{t('media.list.more')}</a>
        </p>
      ) : null}
    </>,
  );
};

export const mediaItemPage: Page = async (c) => {
  const item = await readBySlug(c, (slug) => api(c).media.get.query({ slug }));
  if (item instanceof Response) return item;
  const saved = await isSaved(c, item._id);
  return renderPage(
    c,
    { title: item.title },
    <>
      <p class="muted">
        {t(KIND_LABELS[item.kind])}
        {item.year ? ` · ${item.year}` : ''}
        {item.tags.length > 0 ? ` · ${fmt().formatList(item.tags.map((tag) => t(TAG_LABELS[tag])))}` : ''}
      </p>
      {item.posterImage ? (
        <Picture
          image={item.posterImage}
          alt={t('media.posterAlt', { title: item.title })}
          sizes={POSTER_SIZES}
          eager
          class="poster"
        />
      ) : null}
      {item.synopsis ? <p class="pre-line">{item.synopsis}</p> : null}
      {item.trailer ? (
        <p>
          <a href={item.trailer.embedUrl} rel={EXTERNAL_REL}>
            {t('media.item.trailer', { provider: item.trailer.provider === 'youtube' ? 'YouTube' : 'Vimeo' })}
          </a>{' '}
          <span class="muted">{t('media.item.opensSite')}</span>
        </p>
      ) : null}
      {item.watchLinks.length > 0 ? (
        <>
          <h2>{t('media.item.whereToWatch')}</h2>
          <ul>
            {item.watchLinks.map((link) => (
              <li>
                <a href={link.url} rel={EXTERNAL_REL}>
                  {link.platform}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h2>{t('media.item.watchlistHeading')}</h2>
      <form method="post" action={`${urls.mediaItem(item.slug)}/${saved ? 'unsave' : 'save'}`} class="inline">
        <button type="submit" class={saved ? 'secondary' : undefined}>
          {saved ? t('media.item.remove') : t('media.item.save')}
        </button>
      </form>
      <p class="muted">{t('media.item.privacy')}</p>
    </>,
  );
};

/** Saving to and removing from the watchlist differ in one call and one sentence. */
function watchlistAction(action: 'save' | 'unsave'): Page {
  return async (c) => {
    const slug = pathParam(c, 'slug');
    if (!SLUG.test(slug)) return renderNotFound(c);
    try {
      const item = await api(c).media.get.query({ slug });
      await api(c).media[action].mutate({ id: item._id });
      return redirectWithNotice(
        c,
        urls.mediaItem(item.slug),
        action === 'save'
          ? t('media.notice.saved', { title: item.title })
          : t('media.notice.removed', { title: item.title }),
      );
    } catch (error) {
      if (isSessionRejected(error)) throw error;
      return renderReadFailure(c, error);
    }
  };
}

export const saveMedia: Page = watchlistAction('save');
export const unsaveMedia: Page = watchlistAction('unsave');
