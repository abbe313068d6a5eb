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
  altLines,
  uploadImages,
} from '../server/image-upload.js';
import { t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import {
  apiStatus,
  field,
  formErrorMessage,
  formErrorStatus,
  isPlaceType,
  isVeganLevel,
  placeTypeLabels,
  veganLevelLabels,
} from './places-shared.js';
import type { Page } from './page.js';
import { urls } from '../urls.js';

type CreatePlace = RouterInputs['places']['create'];
function placeFieldLabels(): Record<string, string> {
  return {
    name: t('place.form.name'),
    type: t('place.details.type'),
    veganLevel: t('place.details.level'),
    address: t('place.details.address'),
    hours: t('place.details.hours'),
    website: t('place.details.website'),
    tags: t('place.details.tags'),
    photos: t('place.form.photoUrls'),
    location: t('place.details.location'),
    'location.lat': t('place.form.latitude'),
    'location.lng': t('place.form.longitude'),
  };
}

// ---- the submit form ---------------------------------------------------------------------------

type PlaceFormValues = Record<
  'name' | 'type' | 'veganLevel' | 'address' | 'hours' | 'website' | 'tags' | 'photos' | 'photoAlts' | 'lat' | 'lng',
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
  photoAlts: '',
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
        <label for="place-name">{t('place.form.name')}</label>
        <input id="place-name" name="name" required maxlength={120} value={values.name} />
      </div>
      <RequiredChoice
        id="place-type"
        name="type"
        label={t('place.details.type')}
        prompt={t('place.form.chooseType')}
        labels={placeTypeLabels()}
        value={values.type}
      />
      <RequiredChoice
        id="place-vegan-level"
        name="veganLevel"
        label={t('place.details.level')}
        prompt={t('place.form.chooseLevel')}
        labels={veganLevelLabels()}
        value={values.veganLevel}
      />
      <div>
        <label for="place-address">{t('place.details.address')}</label>
        <input id="place-address" name="address" required maxlength={300} value={values.address} />
      </div>
      <div>
        <label for="place-hours">
          {t('place.details.hours')} <span class="hint">{t('place.form.hoursHint')}</span>
        </label>
        <input id="place-hours" name="hours" maxlength={500} value={values.hours} />
      </div>
      <div>
        <label for="place-website">
          {t('place.details.website')} <span class="hint">{t('place.form.websiteHint')}</span>
        </label>
        <input id="place-website" name="website" type="url" required maxlength={2048} value={values.website} />
      </div>
      <div>
        <label for="place-tags">
          {t('place.details.tags')} <span class="hint">{t('place.form.tagsHint')}</span>
        </label>
        <input id="place-tags" name="tags" value={values.tags} />
      </div>
      <div>
        <label for="place-photos">
          {t('place.form.photoUrls')} <span class="hint">{t('place.form.photoUrlsHint')}</span>
        </label>
        <textarea id="place-photos" name="photos">
          {values.photos}
        </textarea>
      </div>
      <div>
        <label for="place-photo-files">
          {t('place.form.photoFiles')}{' '}
          <span class="hint">
            {t('place.form.photoFilesHint', { count: IMAGE_LIMITS.perPlaceForm, total: IMAGE_LIMITS.perPlace })}
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
      <div>
        <label for="place-photo-alts">
          {t('place.form.photoAlts')} <span class="hint">{t('place.form.photoAltsHint')}</span>
        </label>
        <textarea id="place-photo-alts" name="photoAlts" rows={2} maxlength={4000}>
          {values.photoAlts}
        </textarea>
      </div>
      <fieldset>
        <legend>{t('place.details.location')}</legend>
        <p class="hint" id="location-hint">
          {t('place.form.locationHint')}
          <span class="js-only" hidden>
            {' '}
            {t('place.form.locationPickHint')}
          </span>
        </p>
        <section id="picker-map" class="map small" aria-label={t('place.form.pickerLabel')} hidden />
        <CoordinateInput name="lat" label={t('place.form.latitude')} limit={90} value={values.lat} />
        <CoordinateInput name="lng" label={t('place.form.longitude')} limit={180} value={values.lng} />
      </fieldset>
      <p class="hint">{t('place.form.checked')}</p>
      <div>
        <button type="submit">{t('place.form.submit')}</button>
      </div>
    </form>
  );
}

function renderPlaceForm(c: Context<WebEnv>, values: PlaceFormValues, error?: string | null) {
  const { config } = c.get('web');
  return renderPage(
    c,
    {
      title: t('map.submitPlace'),
      scripts: ['/assets/vendor/leaflet/leaflet.js', '/assets/place-picker.js', '/assets/upload-progress.js'],
      styles: ['/assets/vendor/leaflet/leaflet.css'],
      pageData: {
        tileUrl: config.WEB_TILE_URL,
        attribution: config.WEB_TILE_ATTRIBUTION,
        markerLabel: t('place.form.markerLabel'),
      },
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
  if (lat === null) return t('place.form.latitudeInvalid');
  if (lng === null) return t('place.form.longitudeInvalid');
  if (!isPlaceType(values.type)) return t('place.form.typeMissing');
  if (!isVeganLevel(values.veganLevel)) return t('place.form.levelMissing');
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
    input.photos = [...(input.photos ?? []), ...(await uploadImages(c, files, 'place', altLines(values.photoAlts)))];
  } catch (error) {
    if (!(error instanceof ImageFormError)) throw error;
    c.status(400);
    return renderPlaceForm(c, values, error.message);
  }
  try {
    const place = await api(c).places.create.mutate(input);
    return redirectWithNotice(c, urls.place(place.slug), t('place.form.submitted', { name: place.name }));
  } catch (error) {
    const status = apiStatus(error);
    if (isSessionRejected(error) || status === undefined || status >= 500) throw error;
    c.status(formErrorStatus(error));
    return renderPlaceForm(
      c,
      values,
      nameFilesInMessage(formErrorMessage(error, placeFieldLabels()), 'photos', files, addresses),
    );
  }
};
