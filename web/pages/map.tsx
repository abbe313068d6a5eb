// /app/map: approved places on a Leaflet map, loaded for the visible bounding box as the map
// moves (web/assets/map.js calls /app/map/places.json, a same-origin endpoint that asks the API
// through the typed client). Without JavaScript the page is a filter form and the list of places
// for the area entered (or everywhere), so nothing depends on the script.
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { FormError, renderPage } from '../server/layout.js';
import {
  apiStatus,
  formErrorMessage,
  isPlaceType,
  isVeganLevel,
  PLACE_TYPE_LABELS,
  queryString,
  VEGAN_LEVEL_LABELS,
} from './places-shared.js';
import type { Page } from './page.js';
import { urls } from '../urls.js';

type Place = RouterOutputs['places']['list']['items'][number];

/** Markers per answer: the API's largest page. A denser area says "zoom in" rather than paging. */
const MAP_PAGE_SIZE = 100;

interface MapFilters {
  bbox?: string;
  type?: keyof typeof PLACE_TYPE_LABELS;
  veganLevel?: keyof typeof VEGAN_LEVEL_LABELS;
  q?: string;
}

/** Filters from the query string; values no form can produce (an unknown type) are dropped. */
function readFilters(c: Context<WebEnv>): MapFilters {
  const bbox = c.req.query('bbox')?.trim();
  const type = c.req.query('type') ?? '';
  const veganLevel = c.req.query('veganLevel') ?? '';
  const q = c.req.query('q')?.trim();
  return {
    bbox: bbox || undefined,
    type: isPlaceType(type) ? type : undefined,
    veganLevel: isVeganLevel(veganLevel) ? veganLevel : undefined,
    q: q || undefined,
  };
}

const filterLabels = { bbox: 'Area', q: 'Search', type: 'Type', veganLevel: 'Vegan level', cursor: 'Page' };

/** What the map script needs about a place: where it is and how to name and link it. */
function markerData(place: Place) {
  return {
    slug: place.slug,
    name: place.name,
    type: PLACE_TYPE_LABELS[place.type],
    veganLevel: VEGAN_LEVEL_LABELS[place.veganLevel],
    address: place.address,
    location: place.location,
  };
}

function PlaceList({ places }: { places: Place[] }) {
  return (
    <ul id="place-list" class="plain">
      {places.map((place) => (
        <li class="card">
          <a href={urls.place(place.slug)}>{place.name}</a>
          <span class="muted">
            {' '}
            · {PLACE_TYPE_LABELS[place.type]} · {VEGAN_LEVEL_LABELS[place.veganLevel]}
          </span>
          <br />
          <span class="muted">{place.address}</span>
        </li>
      ))}
    </ul>
  );
}

function FilterForm({ filters }: { filters: MapFilters }) {
  return (
    <form method="get" action={urls.map()} class="filters" id="map-filters">
      <div>
        <label for="filter-q">Search</label>
        <input id="filter-q" name="q" type="search" value={filters.q ?? ''} maxlength={100} />
      </div>
      <div>
        <label for="filter-type">Type</label>
        <select id="filter-type" name="type">
          <option value="">Any type</option>
          {Object.entries(PLACE_TYPE_LABELS).map(([value, label]) => (
            <option value={value} selected={filters.type === value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for="filter-vegan-level">Vegan level</label>
        <select id="filter-vegan-level" name="veganLevel">
          <option value="">Any</option>
          {Object.entries(VEGAN_LEVEL_LABELS).map(([value, label]) => (
            <option value={value} selected={filters.veganLevel === value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for="filter-bbox">Area</label>
        <input
          id="filter-bbox"
          name="bbox"
          type="text"
          value={filters.bbox ?? ''}
          maxlength={200}
          aria-describedby="filter-bbox-hint"
        />
      </div>
      <div>
        <button type="submit">Show places</button>
      </div>
      <p id="filter-bbox-hint" class="hint wide">
        Area: west,south,east,north in degrees (e.g. 13.0,52.3,13.8,52.7), or empty for everywhere. The map fills it in
        as you move it.
      </p>
    </form>
  );
}

export const mapPage: Page = async (c) => {
  const filters = readFilters(c);
  const cursor = c.req.query('cursor') || undefined;
  let places: Place[] = [];
  let nextCursor: string | null = null;
  let error: string | null = null;
  try {
    const page = await api(c).places.list.query({ ...filters, cursor, limit: MAP_PAGE_SIZE });
    places = page.items;
    nextCursor = page.nextCursor;
  } catch (failure) {
    if (apiStatus(failure) !== 400) throw failure;
    error = formErrorMessage(failure, filterLabels);
    c.status(400);
  }
  const { config } = c.get('web');
  return renderPage(
    c,
    {
      title: 'Map',
      scripts: ['/assets/vendor/leaflet/leaflet.js', '/assets/map.js'],
      styles: ['/assets/vendor/leaflet/leaflet.css'],
      pageData: {
        tileUrl: config.WEB_TILE_URL,
        attribution: config.WEB_TILE_ATTRIBUTION,
        bbox: error ? null : (filters.bbox ?? null),
        filters: { type: filters.type ?? null, veganLevel: filters.veganLevel ?? null, q: filters.q ?? null },
        places: places.map(markerData),
      },
    },
    <>
      <p class="actions">
        <a class="button" href={urls.placeNew()}>
          Submit a place
        </a>
      </p>
      <FilterForm filters={filters} />
      <FormError message={error} />
      <section id="map" class="map" aria-label="Map of places" hidden />
      <h2 id="places-heading">Places in this area</h2>
      <p id="map-status" class="muted" role="status" aria-live="polite">
        {places.length === 0 ? 'No places found here.' : `${places.length} places shown.`}
      </p>
      <PlaceList places={places} />
      {nextCursor ? (
        <p>
          <a href={`${urls.map()}${queryString({ ...filters, cursor: nextCursor })}`}>More places</a>
        </p>
      ) : null}
    </>,
  );
};

// The map script's data source: places in the box, as JSON, through the API. Same origin only
// (the browser's own cookie; no CORS), GET only, and nothing but what the list shows anyway.
export const mapPlacesJson: Page = async (c) => {
  const filters = readFilters(c);
  if (!filters.bbox) {
    return c.json(
      { error: { code: 'validation_failed', message: 'bbox is required: west,south,east,north in degrees.' } },
      400,
    );
  }
  try {
    const page = await api(c).places.list.query({ ...filters, limit: MAP_PAGE_SIZE });
    return c.json({ items: page.items.map(markerData), nextCursor: page.nextCursor });
  } catch (failure) {
    const status = apiStatus(failure);
    if (status === undefined || status === 401 || status >= 500) throw failure;
    const code = (failure as { data?: { code?: string } }).data?.code ?? 'error';
    // Field names as the endpoint takes them (bbox, type...), not the form's labels.
    return c.json({ error: { code, message: formErrorMessage(failure) } }, status as 400);
  }
};
