// /app/guides: published guides grouped by category, and a guide's page. The API sends each
// guide's body as sanitised HTML; this server sanitises it once more with its own, narrower
// allowlist before it goes into the page (defence in depth: a bug or a compromised API must
// still not put script into the site), and moves its headings one level down so the page keeps
// a single <h1>. Images become links: the site's policy loads no image from another site.
import { createRequire } from 'node:module';
import type sanitizeHtml from 'sanitize-html';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api } from '../server/api.js';
import { FormError, renderPage } from '../server/layout.js';
import { apiStatus, EXTERNAL_REL, formErrorMessage, queryString, readBySlug, SLUG } from './places-shared.js';
import type { Page } from './page.js';
import { urls } from '../urls.js';
import { Picture } from './picture.js';
import { fmt, t } from '../server/i18n.js';

type GuideSummary = RouterOutputs['guides']['list']['items'][number];
type Category = RouterOutputs['guideCategories']['list']['items'][number];

const demote =
  (level: number) =>
  (_tag: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag => ({
    tagName: `h${Math.min(level + 1, 6)}`,
    attribs,
  });

/** Absolute http(s)/mailto, a path on this site (not `//host`), or a fragment. */
const SAFE_HREF = /^(?:https?:\/\/|mailto:|\/(?!\/)|#)/i;

const guideHtmlOptions: sanitizeHtml.IOptions = {
  allowedTags: [
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'ul',
    'ol',
    'li',
    'strong',
    'em',
    's',
    'code',
    'pre',
    'a',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: { a: ['href', 'title', 'rel'], ol: ['start'] },
  allowedClasses: { code: [/^language-[A-Za-z0-9_-]+$/] },
  allowedSchemes: ['https', 'http', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'noscript', 'title', 'iframe', 'svg', 'math', 'object', 'embed'],
  transformTags: {
    h1: demote(1),
    h2: demote(2),
    h3: demote(3),
    h4: demote(4),
    h5: demote(5),
    a: (tagName, attribs): sanitizeHtml.Tag => {
      const href = (attribs.href ?? '').trim();
      if (!SAFE_HREF.test(href)) return { tagName: 'span', attribs: {} };
      const external = /^(?:https?:|mailto:)/i.test(href);
      return { tagName, attribs: external ? { href, rel: EXTERNAL_REL } : { href } };
    },
    // An image is shown as a link to it: nothing loads from the image's host unless the reader asks.
    img: (_tagName, attribs): sanitizeHtml.Tag => {
      const src = attribs.src ?? '';
      if (!/^https:\/\//i.test(src)) return { tagName: 'span', attribs: {}, text: '' };
      return {
        tagName: 'a',
        attribs: { href: src, rel: EXTERNAL_REL },
        text: t('guides.imageLink', { description: attribs.alt || src }),
      };
    },
  },
};

let sanitize: typeof sanitizeHtml | undefined;

/** The guide body for the page: the API's sanitised HTML through this server's own allowlist. */
export function guideBodyHtml(html: string): string {
  // Loaded with the first guide shown, not at start (sanitize-html brings postcss and htmlparser2).
  sanitize ??= createRequire(import.meta.url)('sanitize-html') as typeof sanitizeHtml;
  return sanitize(html, guideHtmlOptions);
}

function GuideItem({ guide }: { guide: GuideSummary }) {
  return (
    <li class="card media-summary">
      {guide.coverImageDetails ? (
        <Picture
          image={guide.coverImageDetails}
          alt={t('guides.coverAlt', { title: guide.title })}
          sizes="6rem"
          class="thumbnail"
        />
      ) : null}
      <a href={urls.guide(guide.slug)}>{guide.title}</a>
      <span class="muted">{` · ${t('guides.readingTime', { minutes: guide.readingMinutes })}`}</span>
      {guide.summary ? <p>{guide.summary}</p> : null}
    </li>
  );
}

export const guideListPage: Page = async (c) => {
  const categoryParam = c.req.query('category') ?? '';
  const category = SLUG.test(categoryParam) ? categoryParam : undefined;
  const cursor = c.req.query('cursor') || undefined;
  const client = api(c);
  const categoriesRead = client.guideCategories.list.query({ limit: 100 });
  // Awaited below; if the guides' read throws first, its rejection must not go unhandled (that ends the process).
  categoriesRead.catch(() => undefined);
  let guides: GuideSummary[] = [];
  let nextCursor: string | null = null;
  let error: string | null = null;
  try {
    const page = await client.guides.list.query({ category, cursor, limit: 100 });
    guides = page.items;
    nextCursor = page.nextCursor;
  } catch (failure) {
    if (apiStatus(failure) !== 400) throw failure;
    error = formErrorMessage(failure, { cursor: t('guides.page') });
    c.status(400);
  }
  const categories: Category[] = (await categoriesRead).items;
  // Grouped by category, in the categories' order; a guide of a category missing from the
  // list (renamed meanwhile) still shows, under its own name.
  const groups = new Map<string, { name: string; guides: GuideSummary[] }>();
  for (const known of categories) groups.set(known.slug, { name: known.name, guides: [] });
  for (const guide of guides) {
    const group = groups.get(guide.category.slug) ?? { name: guide.category.name, guides: [] };
    group.guides.push(guide);
    groups.set(guide.category.slug, group);
  }
  const shown = [...groups.entries()].filter(([, group]) => group.guides.length > 0);
  return renderPage(
    c,
    { title: t('guides.title') },
    <>
      <form method="get" action={urls.guides()} class="filters">
        <div>
          <label for="guide-category">{t('guides.category')}</label>
          <select id="guide-category" name="category">
            <option value="">{t('guides.allCategories')}</option>
            {categories.map((known) => (
              <option value={known.slug} selected={category === known.slug}>
                {known.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <button type="submit">{t('guides.show')}</button>
        </div>
      </form>
      <FormError message={error} />
      {shown.length === 0 && !error ? <p>{t('guides.empty')}</p> : null}
      {shown.map(([slug, group]) => (
        <section aria-labelledby={`category-${slug}`}>
          <h2 id={`category-${slug}`}>{group.name}</h2>
          <ul class="plain">
            {group.guides.map((guide) => (
              <GuideItem guide={guide} />
            ))}
          </ul>
        </section>
      ))}
      {nextCursor ? (
        <p>
          <a href={`${urls.guides()}${queryString({ category, cursor: nextCursor })}`}>{t('guides.more')}</a>
        </p>
      ) : null}
    </>,
  );
};

export const guidePage: Page = async (c) => {
  const guide = await readBySlug(c, (slug) => api(c).guides.get.query({ slug }));
  if (guide instanceof Response) return guide;
  return renderPage(
    c,
    { title: guide.title },
    <>
      <p class="muted">
        <a href={`${urls.guides()}${queryString({ category: guide.category.slug })}`}>{guide.category.name}</a>
        {` · ${t('guides.readingTime', { minutes: guide.readingMinutes })}`}
        {guide.publishedAt ? ` · ${fmt().formatDate(guide.publishedAt)}` : ''}
      </p>
      {guide.coverImageDetails ? (
        <Picture
          image={guide.coverImageDetails}
          alt={t('guides.coverAlt', { title: guide.title })}
          eager
          class="cover"
        />
      ) : null}
      {guide.summary ? <p class="lead">{guide.summary}</p> : null}
      <article class="guide-body" dangerouslySetInnerHTML={{ __html: guideBodyHtml(guide.html) }} />
    </>,
  );
};
