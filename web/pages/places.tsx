// A place's page (/app/places/:slug: details, reviews, add to one of my lists); the "submit a
// place" form is pages/places-form.tsx. Places are addressed by slug, as in the API (GET
// /api/places/{slug}). A place waiting for review is shown to its submitter and admins only:
// the API decides, and answers 404 to anyone else, which becomes a plain "not found" page.
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api, isSessionRejected } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { fmt, t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import {
  apiStatus,
  field,
  formErrorMessage,
  formErrorStatus,
  PlaceOptionalDetails,
  placeTypeLabel,
  renderReadFailure,
  veganLevelLabel,
} from './places-shared.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

type Place = RouterOutputs['places']['get'];
type Review = RouterOutputs['places']['listReviews']['items'][number];
type PlaceList = RouterOutputs['placeLists']['list']['items'][number];

function reviewFieldLabels(): Record<string, string> {
  return {
    rating: t('place.review.rating'),
    text: t('place.review.text'),
    monthVisited: t('place.review.month'),
  };
}

// ---- the place page ----------------------------------------------------------------------------

interface PlacePageState {
  reviewError?: string | null;
  reviewValues?: Record<string, string>;
  listError?: string | null;
}

function Stars({ rating }: { rating: number }) {
  return <span>{t('place.review.stars', { rating })}</span>;
}

function ReviewItem({ review }: { review: Review }) {
  return (
    <li class="card">
      <p>
        <strong>
          <Stars rating={review.rating} />
        </strong>{' '}
        <span class="muted">
          {review.authorHandle
            ? t('place.review.byHandle', { handle: review.authorHandle })
            : t('place.review.byMember')}{' '}
          · <time datetime={review.createdAt}>{fmt().formatDate(review.createdAt)}</time>
          {review.monthVisited ? ` · ${t('place.review.visited', { month: review.monthVisited })}` : ''}
        </span>
      </p>
      <p class="pre-line">{review.text}</p>
    </li>
  );
}

function ReviewForm({ slug, values, error }: { slug: string; values: Record<string, string>; error?: string | null }) {
  return (
    <form method="post" action={`${urls.place(slug)}/reviews`} class="stack">
      <h3>{t('place.review.heading')}</h3>
      <FormError message={error} />
      <div>
        <label for="review-rating">{t('place.review.rating')}</label>
        <select id="review-rating" name="rating" required>
          {[5, 4, 3, 2, 1].map((stars) => (
            <option value={String(stars)} selected={values.rating === String(stars)}>
              {t('place.review.stars', { rating: stars })}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for="review-text">{t('place.review.text')}</label>
        <textarea id="review-text" name="text" required maxlength={4000}>
          {values.text ?? ''}
        </textarea>
      </div>
      <div>
        <label for="review-month">
          {t('place.review.month')} <span class="hint">{t('place.review.monthHint')}</span>
        </label>
        <input id="review-month" name="monthVisited" type="month" value={values.monthVisited ?? ''} />
      </div>
      <div>
        <input
          id="review-show-handle"
          name="showHandle"
          type="checkbox"
          value="1"
          checked={values.showHandle === '1'}
        />{' '}
        <label for="review-show-handle" class="inline-label">
          {t('place.review.showHandle')}
        </label>
      </div>
      <div>
        <button type="submit">{t('place.review.submit')}</button>
      </div>
    </form>
  );
}

function AddToList({ place, lists, error }: { place: Place; lists: PlaceList[]; error?: string | null }) {
  return (
    <section aria-labelledby="lists-heading">
      <h2 id="lists-heading">{t('place.lists.heading')}</h2>
      <FormError message={error} />
      {lists.length > 0 ? (
        <form method="post" action={`${urls.place(place.slug)}/lists`} class="stack">
          <div>
            <label for="list-id">{t('place.lists.yourList')}</label>
            <select id="list-id" name="listId">
              {lists.map((list) => (
                <option value={list._id}>
                  {list.isPublic ? t('place.lists.publicName', { name: list.name }) : list.name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <button type="submit">{t('place.lists.add')}</button>
          </div>
        </form>
      ) : null}
      <form method="post" action={`${urls.place(place.slug)}/lists`} class="stack">
        <div>
          <label for="new-list-name">
            {t('place.lists.newList')} <span class="hint">{t('place.lists.newListHint')}</span>
          </label>
          <input id="new-list-name" name="newListName" maxlength={100} required />
        </div>
        <div>
          <button type="submit" class="secondary">
            {t('place.lists.create')}
          </button>
        </div>
      </form>
    </section>
  );
}

async function renderPlacePage(c: Context<WebEnv>, slug: string, state: PlacePageState = {}): Promise<Response> {
  let place: Place;
  try {
    place = await api(c).places.get.query({ slug });
  } catch (error) {
    return renderReadFailure(c, error);
  }
  const approved = place.status === 'approved';
  const [reviews, lists] = approved
    ? await Promise.all([
        api(c).places.listReviews.query({ id: place._id, limit: 50 }),
        api(c).placeLists.list.query({ limit: 100 }),
      ])
    : [null, null];
  const around = `${place.location.lng - 0.01},${place.location.lat - 0.01},${place.location.lng + 0.01},${place.location.lat + 0.01}`;
  return renderPage(
    c,
    { title: place.name },
    <>
      {place.status === 'pending' ? <p class="notice">{t('place.page.pending')}</p> : null}
      {place.status === 'rejected' ? (
        <div class="notice">
          <p>{t('place.page.rejected')}</p>
          {place.rejectionReason ? (
            <p>
              <strong>{t('place.page.rejectionReason')}</strong> {place.rejectionReason}
            </p>
          ) : null}
        </div>
      ) : null}
      <dl class="details">
        <dt>{t('place.details.type')}</dt>
        <dd>{placeTypeLabel(place.type)}</dd>
        <dt>{t('place.details.level')}</dt>
        <dd>{veganLevelLabel(place.veganLevel)}</dd>
        <dt>{t('place.details.address')}</dt>
        <dd>{place.address}</dd>
        <PlaceOptionalDetails place={place} altBack={urls.place(place.slug)} />
        <dt>{t('place.details.location')}</dt>
        <dd>
          {t('place.details.coordinates', {
            lat: fmt().formatNumber(place.location.lat, { maximumFractionDigits: 5 }),
            lng: fmt().formatNumber(place.location.lng, { maximumFractionDigits: 5 }),
          })}
          {approved ? (
            <>
              {' · '}
              <a href={`${urls.map()}?bbox=${encodeURIComponent(around)}`}>{t('place.page.showOnMap')}</a>
            </>
          ) : null}
        </dd>
        <dt>{t('place.details.rating')}</dt>
        <dd>
          {place.averageRating === null
            ? t('place.page.noReviews')
            : t('place.page.rating', {
                rating: fmt().formatNumber(place.averageRating, { maximumFractionDigits: 2 }),
                count: place.reviewCount,
              })}
        </dd>
      </dl>
      {reviews ? (
        <section aria-labelledby="reviews-heading">
          <h2 id="reviews-heading">{t('place.page.reviews')}</h2>
          {reviews.items.length === 0 ? <p>{t('place.page.noReviews')}</p> : null}
          <ul class="plain">
            {reviews.items.map((review) => (
              <ReviewItem review={review} />
            ))}
          </ul>
          <ReviewForm slug={place.slug} values={state.reviewValues ?? { rating: '5' }} error={state.reviewError} />
        </section>
      ) : null}
      {lists ? <AddToList place={place} lists={lists.items} error={state.listError} /> : null}
    </>,
  );
}

/** Runs a write; an API refusal re-renders the place page with the message and the API's status. */
async function placeWrite(
  c: Context<WebEnv>,
  slug: string,
  write: (place: Place) => Promise<string>,
  onError: (message: string, error: unknown) => PlacePageState,
  labels: Record<string, string> = {},
): Promise<Response> {
  let place: Place;
  try {
    place = await api(c).places.get.query({ slug });
  } catch (error) {
    return renderReadFailure(c, error);
  }
  try {
    const notice = await write(place);
    return redirectWithNotice(c, urls.place(place.slug), notice);
  } catch (error) {
    const status = apiStatus(error);
    if (isSessionRejected(error) || status === undefined || status >= 500) throw error;
    c.status(formErrorStatus(error));
    return renderPlacePage(c, slug, onError(formErrorMessage(error, labels), error));
  }
}

export const placePage: Page = (c) => renderPlacePage(c, pathParam(c, 'slug'));

export const reviewPlace: Page = async (c) => {
  const form = await c.req.parseBody();
  const values = {
    rating: field(form, 'rating'),
    text: field(form, 'text'),
    monthVisited: field(form, 'monthVisited'),
    showHandle: field(form, 'showHandle'),
  };
  return placeWrite(
    c,
    pathParam(c, 'slug'),
    async (place) => {
      await api(c).places.createReview.mutate({
        id: place._id,
        rating: Number(values.rating),
        text: values.text,
        monthVisited: values.monthVisited || null,
        showHandle: values.showHandle === '1',
      });
      return t('place.review.posted');
    },
    (message, error) => ({
      reviewValues: values,
      reviewError: apiStatus(error) === 409 ? t('place.review.already') : message,
    }),
    reviewFieldLabels(),
  );
};

export const addPlaceToList: Page = async (c) => {
  const form = await c.req.parseBody();
  const listId = field(form, 'listId');
  const newListName = field(form, 'newListName');
  return placeWrite(
    c,
    pathParam(c, 'slug'),
    async (place) => {
      const client = api(c);
      const list = newListName
        ? await client.placeLists.create.mutate({ name: newListName })
        : await client.placeLists.get.query({ id: listId });
      const updated = await client.placeLists.addPlace.mutate({ id: list._id, placeId: place._id });
      return t('place.lists.added', { name: updated.name });
    },
    (message) => ({ listError: message }),
    { name: t('place.lists.nameLabel'), id: t('place.lists.listLabel') },
  );
};
