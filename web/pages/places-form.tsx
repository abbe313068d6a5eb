// The "submit a place" form (/app/places/new): a new place waits for an admin's review
// (pages/admin-places.tsx) before it is on the map.
import type { Context } from 'hono';
import type { RouterInputs } from '../../client-sdk/src/index.js';
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
  PLACE_TYPE_LABELS,
  VEGAN_LEVEL_LABELS,
} from './places-shared.js';
import type { Page } from './page.js';
import { urls } from '../urls.js';

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

/** A select the form cannot be sent without: a prompt first, then one option per label. */
function RequiredChoice(props: {
  id: string;
  name: string;
  label: string;
  prompt: string;
  labels: Record<string, string>;
  value: string;
}) {
  return (
    <div>
      <label for={props.id}>{props.label}</label>
      <select id={props.id} name={props.name} required>
        <option value="">{props.prompt}</option>
        {Object.entries(props.labels).map(([value, label]) => (
          <option value={value} selected={props.value === value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Latitude or longitude of the place, within ±limit degrees (the map picker fills both in). */
function CoordinateInput(props: { name: 'lat' | 'lng'; label: string; limit: number; value: string }) {
  const id = `place-${props.name}`;
  return (
    <div>
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type="number"
        step="any"
        min={-props.limit}
        max={props.limit}
        required
        value={props.value}
        aria-describedby="location-hint"
      />
    </div>
  );
}

function PlaceForm({ values, error }: { values: PlaceFormValues; error?: string | null }) {
  return (
    <form method="post" action={urls.placeNew()} class="stack" id="place-form" enctype="multipart/form-data">
      <FormError message={error} />
      <div>
        <label for="place-name">Name</label>
        <input id="place-name" name="name" required maxlength={120} value={values.name} />
      </div>
      <RequiredChoice
        id="place-type"
        name="type"
        label="Type"
        prompt="Choose a type"
        labels={PLACE_TYPE_LABELS}
        value={values.type}
      />
      <RequiredChoice
        id="place-vegan-level"
        name="veganLevel"
        label="Vegan level"
        prompt="Choose"
        labels={VEGAN_LEVEL_LABELS}
        value={values.veganLevel}
      />
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
        <CoordinateInput name="lat" label="Latitude" limit={90} value={values.lat} />
        <CoordinateInput name="lng" label="Longitude" limit={180} value={values.lng} />
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
      scripts: ['/assets/vendor/leaflet/leaflet.js', '/assets/place-picker.js', '/assets/upload-progress.js'],
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
      urls.place(place.slug),
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
