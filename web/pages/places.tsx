// A place's page (/app/places/:slug: details, reviews, add to one of my lists) and the "submit a
// place" form (/app/places/new). Places are addressed by slug, as in the API (GET
// /api/places/{slug}). A place waiting for review is shown to its submitter and admins only:
// the API decides, and answers 404 to anyone else, which becomes a plain "not found" page.
import type { Context } from 'hono';
import type { RouterInputs, RouterOutputs } from '../../client-sdk/src/index.js';
import { api, isSessionRejected } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import {
  checkImages,
  chosenFiles,
  IMAGE_LIMITS,
  ImageFormError,
  nameFilesInMessage,
  uploadImages,
} from '../server/image-upload.js';
import { FormError, renderPage } from '../server/layout.js';
import {
  apiStatus,
  field,
  formErrorMessage,
  formErrorStatus,
  isPlaceType,
  isVeganLevel,
  PlaceOptionalDetails,
  PLACE_TYPE_LABELS,
  renderReadFailure,
  shortDate,
  VEGAN_LEVEL_LABELS,
} from './places-shared.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

type Place = RouterOutputs['places']['get'];
type Review = RouterOutputs['places']['listReviews']['items'][number];
type PlaceList = RouterOutputs['placeLists']['list']['items'][number];
type CreatePlace = RouterInputs['places']['create'];

const placeFieldLabels: Record<string, string> = {
  name: 'Name',
  type: 'Type',
  veganLevel: 'Vegan level',
  address: 'Address',
  hours: 'Opening hours',
  website: 'Website',
  tags: 'Tags',
  photos: 'Photo URLs',
  location: 'Location',
  'location.lat': 'Latitude',
  'location.lng': 'Longitude',
};

const reviewFieldLabels: Record<string, string> = {
  rating: 'Rating',
  text: 'Your review',
  monthVisited: 'Month visited',
};

const placePath = (slug: string) => urls.place(slug);

// ---- the submit form ---------------------------------------------------------------------------

type PlaceFormValues = Record<
  'name' | 'type' | 'veganLevel' | 'address' | 'hours' | 'website' | 'tags' | 'photos' | 'lat' | 'lng',
  string
>;

const emptyPlaceForm: PlaceFormValues = {
  name: '',
  type: '',
  veganLevel: '',
  address: '',
  hours: '',
  website: '',
  tags: '',
  photos: '',
  lat: '',
  lng: '',
};

function PlaceForm({ values, error }: { values: PlaceFormValues; error?: string | null }) {
  return (
    <form method="post" action={urls.placeNew()} class="stack" id="place-form" enctype="multipart/form-data">
      <FormError message={error} />
      <div>
        <label for="place-name">Name</label>
        <input id="place-name" name="name" required maxlength={120} value={values.name} />
      </div>
      <div>
        <label for="place-type">Type</label>
        <select id="place-type" name="type" required>
          <option value="">Choose a type</option>
          {Object.entries(PLACE_TYPE_LABELS).map(([value, label]) => (
            <option value={value} selected={values.type === value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for="place-vegan-level">Vegan level</label>
        <select id="place-vegan-level" name="veganLevel" required>
          <option value="">Choose</option>
          {Object.entries(VEGAN_LEVEL_LABELS).map(([value, label]) => (
            <option value={value} selected={values.veganLevel === value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for="place-address">Address</label>
        <input id="place-address" name="address" required maxlength={300} value={values.address} />
      </div>
      <div>
        <label for="place-hours">
          Opening hours <span class="hint">optional, e.g. Mon–Fri 9–17</span>
        </label>
        <input id="place-hours" name="hours" maxlength={500} value={values.hours} />
      </div>
      <div>
        <label for="place-website">
          Website <span class="hint">http:// or https:// address</span>
        </label>
        <input id="place-website" name="website" type="url" required maxlength={2048} value={values.website} />
      </div>
      <div>
        <label for="place-tags">
          Tags <span class="hint">optional, separated by commas, e.g. brunch, cake</span>
        </label>
        <input id="place-tags" name="tags" value={values.tags} />
      </div>
      <div>
        <label for="place-photos">
          Photo URLs <span class="hint">optional, https:// addresses, one per line, up to 10</span>
        </label>
        <textarea id="place-photos" name="photos">
          {values.photos}
        </textarea>
      </div>
      <div>
        <label for="place-photo-files">
          Photos to upload{' '}
          <span class="hint">
            optional, up to {IMAGE_LIMITS.perPlaceForm} (with the addresses above, {IMAGE_LIMITS.perPlace} in all),
            JPEG, PNG, WebP or HEIC, 10 MB each; location and camera details are removed
          </span>
        </label>
        <input
          id="place-photo-files"
          name="photoFiles"
          type="file"
          multiple
          accept="image/jpeg,image/png,image/webp,image/heic,.heic,.heif"
        />
      </div>
      <fieldset>
        <legend>Location</legend>
        <p class="hint" id="location-hint">
          Decimal degrees, e.g. latitude 52.52 and longitude 13.405.
          <span class="js-only" hidden>
            {' '}
            Or click the map to fill them in.
          </span>
        </p>
        <section id="picker-map" class="map small" aria-label="Map: click to set the location" hidden />
        <div>
          <label for="place-lat">Latitude</label>
          <input
            id="place-lat"
            name="lat"
            type="number"
            step="any"
            min={-90}
            max={90}
            required
            value={values.lat}
            aria-describedby="location-hint"
          />
        </div>
        <div>
          <label for="place-lng">Longitude</label>
          <input
            id="place-lng"
            name="lng"
            type="number"
            step="any"
            min={-180}
            max={180}
            required
            value={values.lng}
            aria-describedby="location-hint"
          />
        </div>
      </fieldset>
      <p class="hint">Places are checked by an admin before they appear on the map.</p>
      <div>
        <button type="submit">Submit for review</button>
      </div>
    </form>
  );
}

function renderPlaceForm(c: Context<WebEnv>, values: PlaceFormValues, error?: string | null) {
  const { config } = c.get('web');
  return renderPage(
    c,
    {
      title: 'Submit a place',
      scripts: ['/assets/vendor/leaflet/leaflet.js', '/assets/place-picker.js'],
      styles: ['/assets/vendor/leaflet/leaflet.css'],
      pageData: { tileUrl: config.WEB_TILE_URL, attribution: config.WEB_TILE_ATTRIBUTION },
    },
    <PlaceForm values={values} error={error} />,
  );
}

/** A finite number from a form field, or null (an empty field is not 0). */
function numberField(text: string): number | null {
  if (text === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** The form's text as the API's input, or a sentence saying what to fix first. */
function placeInput(values: PlaceFormValues): CreatePlace | string {
  const lat = numberField(values.lat);
  const lng = numberField(values.lng);
  if (lat === null) return 'Latitude: enter a number between -90 and 90.';
  if (lng === null) return 'Longitude: enter a number between -180 and 180.';
  if (!isPlaceType(values.type)) return 'Type: choose a type.';
  if (!isVeganLevel(values.veganLevel)) return 'Vegan level: choose one.';
  return {
    name: values.name,
    type: values.type,
    veganLevel: values.veganLevel,
    address: values.address,
    hours: values.hours || null,
    website: values.website,
    tags: values.tags
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean),
    photos: values.photos
      .split(/\s+/)
      .map((url) => url.trim())
      .filter(Boolean),
    location: { lat, lng },
  };
}

// ---- the place page ----------------------------------------------------------------------------

interface PlacePageState {
  reviewError?: string | null;
  reviewValues?: Record<string, string>;
  listError?: string | null;
}

function Stars({ rating }: { rating: number }) {
  return <span>{`${rating} of 5 stars`}</span>;
}

function ReviewItem({ review }: { review: Review }) {
  return (
    <li class="card">
      <p>
        <strong>
          <Stars rating={review.rating} />
        </strong>{' '}
        <span class="muted">
          by {review.authorHandle ? `@${review.authorHandle}` : 'a member'} · {shortDate(review.createdAt)}
          {review.monthVisited ? ` · visited ${review.monthVisited}` : ''}
        </span>
      </p>
      <p class="pre-line">{review.text}</p>
    </li>
  );
}

function ReviewForm({ slug, values, error }: { slug: string; values: Record<string, string>; error?: string | null }) {
  return (
    <form method="post" action={`${placePath(slug)}/reviews`} class="stack">
      <h3>Write a review</h3>
      <FormError message={error} />
      <div>
        <label for="review-rating">Rating</label>
        <select id="review-rating" name="rating" required>
          {[5, 4, 3, 2, 1].map((stars) => (
            <option value={String(stars)} selected={values.rating === String(stars)}>
              {`${stars} of 5 stars`}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for="review-text">Your review</label>
        <textarea id="review-text" name="text" required maxlength={4000}>
          {values.text ?? ''}
        </textarea>
      </div>
      <div>
        <label for="review-month">
          Month visited <span class="hint">optional, YYYY-MM</span>
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
          Show my handle with the review
        </label>
      </div>
      <div>
        <button type="submit">Post review</button>
      </div>
    </form>
  );
}

function AddToList({ place, lists, error }: { place: Place; lists: PlaceList[]; error?: string | null }) {
  return (
    <section aria-labelledby="lists-heading">
      <h2 id="lists-heading">Add to a list</h2>
      <FormError message={error} />
      {lists.length > 0 ? (
        <form method="post" action={`${placePath(place.slug)}/lists`} class="stack">
          <div>
            <label for="list-id">Your list</label>
            <select id="list-id" name="listId">
              {lists.map((list) => (
                <option value={list._id}>{`${list.name}${list.isPublic ? ' (public)' : ''}`}</option>
              ))}
            </select>
          </div>
          <div>
            <button type="submit">Add to list</button>
          </div>
        </form>
      ) : null}
      <form method="post" action={`${placePath(place.slug)}/lists`} class="stack">
        <div>
          <label for="new-list-name">
            New private list <span class="hint">name</span>
          </label>
          <input id="new-list-name" name="newListName" maxlength={100} required />
        </div>
        <div>
          <button type="submit" class="secondary">
            Create list and add
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
      {place.status === 'pending' ? (
        <p class="notice">Waiting for review: only you and the admins can see this place until it is approved.</p>
      ) : null}
      {place.status === 'rejected' ? <p class="notice">This place was not approved.</p> : null}
      <dl class="details">
        <dt>Type</dt>
        <dd>{PLACE_TYPE_LABELS[place.type]}</dd>
        <dt>Vegan level</dt>
        <dd>{VEGAN_LEVEL_LABELS[place.veganLevel]}</dd>
        <dt>Address</dt>
        <dd>{place.address}</dd>
        <PlaceOptionalDetails place={place} />
        <dt>Location</dt>
        <dd>
          {`${place.location.lat}, ${place.location.lng}`}
          {approved ? (
            <>
              {' · '}
              <a href={`${urls.map()}?bbox=${encodeURIComponent(around)}`}>Show on the map</a>
            </>
          ) : null}
        </dd>
        <dt>Rating</dt>
        <dd>
          {place.averageRating === null
            ? 'No reviews yet'
            : `${place.averageRating} of 5 from ${place.reviewCount} ${place.reviewCount === 1 ? 'review' : 'reviews'}`}
        </dd>
      </dl>
      {reviews ? (
        <section aria-labelledby="reviews-heading">
          <h2 id="reviews-heading">Reviews</h2>
          {reviews.items.length === 0 ? <p>No reviews yet.</p> : null}
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
    return redirectWithNotice(c, placePath(place.slug), notice);
  } catch (error) {
    const status = apiStatus(error);
    if (isSessionRejected(error) || status === undefined || status >= 500) throw error;
    c.status(formErrorStatus(error));
    return renderPlacePage(c, slug, onError(formErrorMessage(error, labels), error));
  }
}

// Before /app/places/:slug, so "new" is the form and never a slug.
export const newPlacePage: Page = (c) => renderPlaceForm(c, emptyPlaceForm);

export const createPlace: Page = async (c) => {
  const form = await c.req.parseBody({ all: true });
  const values = Object.fromEntries(
    Object.keys(emptyPlaceForm).map((name) => [name, field(form, name)]),
  ) as PlaceFormValues;
  const input = placeInput(values);
  if (typeof input === 'string') {
    c.status(400);
    return renderPlaceForm(c, values, input);
  }
  // Uploaded photos follow the addresses; after a refusal the files have to be chosen again.
  const files = chosenFiles(form, 'photoFiles');
  const addresses = input.photos?.length ?? 0;
  try {
    checkImages(files, Math.min(IMAGE_LIMITS.perPlaceForm, Math.max(0, IMAGE_LIMITS.perPlace - addresses)));
    input.photos = [...(input.photos ?? []), ...(await uploadImages(c, files, 'place'))];
  } catch (error) {
    if (!(error instanceof ImageFormError)) throw error;
    c.status(400);
    return renderPlaceForm(c, values, error.message);
  }
  try {
    const place = await api(c).places.create.mutate(input);
    return redirectWithNotice(
      c,
      placePath(place.slug),
      `Thank you: “${place.name}” was submitted for review. It appears on the map once an admin approves it.`,
    );
  } catch (error) {
    const status = apiStatus(error);
    if (isSessionRejected(error) || status === undefined || status >= 500) throw error;
    c.status(formErrorStatus(error));
    return renderPlaceForm(
      c,
      values,
      nameFilesInMessage(formErrorMessage(error, placeFieldLabels), 'photos', files, addresses),
    );
  }
};

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
      return 'Thank you: your review is posted.';
    },
    (message, error) => ({
      reviewValues: values,
      reviewError: apiStatus(error) === 409 ? 'You have already reviewed this place.' : message,
    }),
    reviewFieldLabels,
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
      return `Added to your list “${updated.name}”.`;
    },
    (message) => ({ listError: message }),
    { name: 'List name', id: 'List' },
  );
};
