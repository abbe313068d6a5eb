// Small pieces the map, place, admin, media and guide pages share: turning an API refusal into
// the page a visitor should see (404, 403), form errors from an API validation answer, and
// reading plain form fields.
import type { Context } from 'hono';
import { isApiError, type RouterInputs } from '../../client-sdk/src/index.js';
import { apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { fmt, t } from '../server/i18n.js';
import { renderPage } from '../server/layout.js';
import { Picture, type PictureImage } from './picture.js';
import { AltEditor } from './picture-alt.js';
import { urls } from '../urls.js';

/** The API's HTTP status for a failed call, or undefined for anything that is not an API answer. */
export function apiStatus(error: unknown): number | undefined {
  return isApiError(error) ? error.data?.httpStatus : undefined;
}

/** A 404 page that says nothing more than "not found" (no hint whether something exists but is hidden). */
export function renderNotFound(c: Context<WebEnv>): Promise<Response> {
  c.status(404);
  return renderPage(c, { title: t('place.notFound.title') }, <p>{t('place.notFound.body')}</p>);
}

/** The API refused the caller (403): say so plainly, with the same status. */
export function renderForbidden(c: Context<WebEnv>): Promise<Response> {
  c.status(403);
  return renderPage(
    c,
    { title: t('place.forbidden.title') },
    <p>{fmt().rich('place.forbidden.body', { link: (chunks: unknown[]) => <a href={urls.map()}>{chunks}</a> })}</p>,
  );
}

/**
 * For a page's read: an API 404 (or 400 for an impossible address) or 403 becomes that page; anything else (a 401 included, which
 * the app's error handler turns into a sign-in redirect) is rethrown.
 */
export function renderReadFailure(c: Context<WebEnv>, error: unknown): Promise<Response> {
  const status = apiStatus(error);
  // 400: an address no item can have (a slug too long...): as unknown as a missing one.
  if (status === 404 || status === 400) return renderNotFound(c);
  if (status === 403) return renderForbidden(c);
  throw error;
}

/** A slug in an address: lower-case letters, digits and single hyphens. */
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A page's read of one item by the `:slug` of its address: a malformed slug is the not-found
 * page, a failed read the page renderReadFailure makes; the caller returns a Response as it is.
 */
export async function readBySlug<T>(c: Context<WebEnv>, read: (slug: string) => Promise<T>): Promise<T | Response> {
  const slug = c.req.param('slug') ?? '';
  if (!SLUG.test(slug)) return renderNotFound(c);
  try {
    return await read(slug);
  } catch (error) {
    return renderReadFailure(c, error);
  }
}

/** A sentence for a form: the API's message, plus each failing field of a validation answer. */
export function formErrorMessage(error: unknown, fieldLabels: Record<string, string> = {}): string {
  if (isApiError(error) && error.data?.code === 'validation_failed') {
    const details = (error.data as { details?: Array<{ path: string; message: string }> }).details ?? [];
    if (details.length > 0) {
      return details
        .map((detail) => {
          const field = fieldLabels[detail.path] ?? fieldLabels[detail.path.split('.')[0] ?? ''] ?? detail.path;
          return field ? `${field}: ${detail.message}` : detail.message;
        })
        .join(' ');
    }
  }
  return apiErrorMessage(error);
}

/** The status a re-rendered form answers with: the API's 4xx, or 400. */
export function formErrorStatus(error: unknown): 400 | 403 | 404 | 409 | 413 | 422 | 429 {
  const status = apiStatus(error);
  if (status === 403 || status === 404 || status === 409 || status === 413 || status === 422 || status === 429) {
    return status;
  }
  return 400;
}

/** A posted form field as trimmed text ('' when absent or a file). */
export function field(form: Record<string, unknown>, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** A query string from the non-empty values (for filter links and "next page" links). */
export function queryString(params: Record<string, string | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Links leaving the site: no referrer, no opener, no ranking credit. */
export const EXTERNAL_REL = 'noopener noreferrer nofollow';

type PlaceType = RouterInputs['places']['create']['type'];
type VeganLevel = RouterInputs['places']['create']['veganLevel'];

/** Every place type the API knows, with its catalog key (the Record keeps the list complete). */
const PLACE_TYPE_KEYS: Record<PlaceType, string> = {
  sanctuary: 'place.types.sanctuary',
  restaurant: 'place.types.restaurant',
  cafe: 'place.types.cafe',
  grocery: 'place.types.grocery',
  shop: 'place.types.shop',
  organization: 'place.types.organization',
  venue: 'place.types.venue',
};

const VEGAN_LEVEL_KEYS: Record<VeganLevel, string> = {
  full: 'place.levels.full',
  options: 'place.levels.options',
};

export const PLACE_TYPES = Object.keys(PLACE_TYPE_KEYS) as PlaceType[];
export const VEGAN_LEVELS = Object.keys(VEGAN_LEVEL_KEYS) as VeganLevel[];

/** "Café", "Restaurant"... in the viewer's language. */
export function placeTypeLabel(type: PlaceType): string {
  return t(PLACE_TYPE_KEYS[type]);
}

/** "Fully vegan" / "Vegan options" in the viewer's language. */
export function veganLevelLabel(level: VeganLevel): string {
  return t(VEGAN_LEVEL_KEYS[level]);
}

/** Every type with its label in the viewer's language, for a select. */
export function placeTypeLabels(): Record<PlaceType, string> {
  return Object.fromEntries(PLACE_TYPES.map((type) => [type, placeTypeLabel(type)])) as Record<PlaceType, string>;
}

export function veganLevelLabels(): Record<VeganLevel, string> {
  return Object.fromEntries(VEGAN_LEVELS.map((level) => [level, veganLevelLabel(level)])) as Record<VeganLevel, string>;
}

export function isPlaceType(value: string): value is PlaceType {
  return Object.hasOwn(PLACE_TYPE_KEYS, value);
}

export function isVeganLevel(value: string): value is VeganLevel {
  return Object.hasOwn(VEGAN_LEVEL_KEYS, value);
}

/** The part of a place's details that its page and the moderation queue show alike. */
export function PlaceOptionalDetails({
  place,
  altBack,
}: {
  place: { name: string; hours?: string | null; website: string; tags: string[]; photoUrls: string[] };
  /**
   * The place page passes its address: each uploaded photo gets the small form to change its
   * description. The web is never told who submitted a place, so every member sees the form; the
   * API lets only the photo's uploader change it and tells anyone else nothing.
   */
  altBack?: string;
}) {
  return (
    <>
      {place.hours ? (
        <>
          <dt>{t('place.details.hours')}</dt>
          <dd>{place.hours}</dd>
        </>
      ) : null}
      <dt>{t('place.details.website')}</dt>
      <dd>
        <a href={place.website} rel={EXTERNAL_REL}>
          {place.website}
        </a>
      </dd>
      {place.tags.length > 0 ? (
        <>
          <dt>{t('place.details.tags')}</dt>
          <dd>{place.tags.join(', ')}</dd>
        </>
      ) : null}
      {place.photoUrls.length > 0 ? (
        <>
          <dt>{t('place.details.photos')}</dt>
          <dd>
            {/* Uploaded photos inline from this site (the image relay); a photo hosted elsewhere is a link. */}
            <ul class="pictures">
              {place.photoUrls.map((url, index) => {
                const alt = t('place.details.photoAlt', { number: index + 1, name: place.name });
                // The described image (size, alt, variants for srcset) when the API gives one.
                const image = (place as { photoImages?: PictureImage[] }).photoImages?.[index] ?? url;
                return (
                  <li>
                    <Picture image={image} alt={alt} externalLabel={alt} eager={index === 0} />
                    {altBack ? <AltEditor image={image} back={altBack} label={alt} /> : null}
                  </li>
                );
              })}
            </ul>
          </dd>
        </>
      ) : null}
    </>
  );
}
