// /app/map: approved places on a Leaflet map, loaded for the visible bounding box as the map
// moves (web/assets/map.js calls /app/map/places.json, a same-origin endpoint that asks the API
// through the typed client), clustered at low zoom. A search by city or place name moves the map
// (?near=Berlin; the script asks /app/map/search.json). The area is named after its largest city
// ("Berlin, Germany"); the numeric box stays a hidden field for the API. Without JavaScript the
// page is the search, the filters and the list of places, so nothing depends on the script.
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
import { areaName, findNear, type NearResults, NEAR_MAX_LENGTH, parseBbox, readNear } from './map-search.js';

type Place = RouterOutputs['places']['list']['items'][number];

/** Markers per answer: the API's largest page. A denser area says "zoom in" rather than paging. */
const MAP_PAGE_SIZE = 100;

interface MapFilters {
  bbox?: string;
  type?: keyof typeof PLACE_TYPE_LABELS;
  veganLevel?: keyof typeof VEGAN_LEVEL_LABELS;
  q?: string;
  /** A city or place name to go to (only without a box: once the map moved, the box wins). */
  near?: string;
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
    near: readNear(c.req.query('near')) ?? undefined,
  };
}

/** The viewer's locale for country names (the i18n runtime's, once it lands). */
function viewerLocale(_c: Context<WebEnv>): string {
  return 'en';
}

const filterLabels = { bbox: 'Area', q: 'Name or tag', type: 'Type', veganLevel: 'Vegan level', cursor: 'Page' };

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

function NearForm({ near, notFound }: { near?: string; notFound: boolean }) {
  return (
    <form method="get" action={urls.map()} class="filters" id="map-search" role="search">
      <div class="wide">
        <label for="map-near">City or place name</label>
        <input
          id="map-near"
          name="near"
          type="search"
          value={near ?? ''}
          maxlength={NEAR_MAX_LENGTH}
          autocomplete="off"
          aria-describedby="map-near-hint"
        />
      </div>
      <div>
        <button type="submit">Find</button>
      </div>
      <div>
        <button type="button" id="map-locate" class="secondary" hidden>
          Near me
        </button>
      </div>
      <p id="map-near-hint" class="hint wide">
        Cities are looked up on this server, from a list of the world&rsquo;s towns: your search goes to no one else.
        <span id="map-locate-hint" hidden>
          {' '}
          &ldquo;Near me&rdquo; asks your browser for your position and only moves the map; the position itself is not
          sent, only the map area, as when you move the map.
        </span>
      </p>
      {notFound ? (
        <p class="notice wide" role="status">
          No city or place called &ldquo;{near}&rdquo; was found.
        </p>
      ) : null}
    </form>
  );
}

/** The other cities and places a search found: each a link that moves the map there. */
function OtherMatches({ results, shown }: { results: NearResults; shown: string | undefined }) {
  const cities = results.cities.filter((city) => city.bbox !== shown);
  if (cities.length === 0 && results.places.length === 0) return null;
  return (
    <section aria-labelledby="map-matches-heading" id="map-matches">
      <h2 id="map-matches-heading">Other matches</h2>
      <ul class="plain inline-list">
        {cities.map((city) => (
          <li>
            <a href={`${urls.map()}${queryString({ bbox: city.bbox })}`}>{city.label}</a>
          </li>
        ))}
        {results.places.map((place) => (
          <li>
            <a href={urls.place(place.slug)}>{place.name}</a> <span class="muted">{place.address}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function FilterForm({ filters, area }: { filters: MapFilters; area: string | null }) {
  return (
    <form method="get" action={urls.map()} class="filters" id="map-filters">
      <input type="hidden" id="filter-bbox" name="bbox" value={filters.bbox ?? ''} />
      <div>
        <label for="filter-q">Name or tag</label>
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
        <button type="submit">Show places</button>
      </div>
      <p class="hint wide" id="map-area">
        {areaText(filters.bbox, area)}
        {filters.bbox ? (
          <>
            {' '}
            <a href={`${urls.map()}${queryString({ type: filters.type, veganLevel: filters.veganLevel, q: filters.q })}`}>
              Show everywhere
            </a>
          </>
        ) : null}
      </p>
    </form>
  );
}

function areaText(bbox: string | undefined, area: string | null): string {
  if (!bbox) return 'Area: everywhere.';
  return area ? `Area: around ${area}.` : 'Area: the part of the map shown.';
}

export const mapPage: Page = async (c) => {
  const filters = readFilters(c);
  const locale = viewerLocale(c);
  let results: NearResults | null = null;
  if (filters.near && !filters.bbox) {
    results = await findNear(c, filters.near, locale);
    // The most populous city of that name, else the first place of the service that matches.
    filters.bbox = results.cities[0]?.bbox ?? results.places[0]?.bbox;
  }
  const box = parseBbox(filters.bbox);
  const area = areaName(box, locale);
  const cursor = c.req.query('cursor') || undefined;
  let places: Place[] = [];
  let nextCursor: string | null = null;
  let error: string | null = null;
  try {
    const { near: _near, ...listFilters } = filters;
    const page = await api(c).places.list.query({ ...listFilters, cursor, limit: MAP_PAGE_SIZE });
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
      scripts: [
        '/assets/vendor/leaflet/leaflet.js',
        '/assets/vendor/leaflet.markercluster/leaflet.markercluster.js',
        '/assets/map.js',
      ],
      styles: [
        '/assets/vendor/leaflet/leaflet.css',
        '/assets/vendor/leaflet.markercluster/MarkerCluster.css',
        '/assets/vendor/leaflet.markercluster/MarkerCluster.Default.css',
      ],
      pageData: {
        tileUrl: config.WEB_TILE_URL,
        attribution: config.WEB_TILE_ATTRIBUTION,
        bbox: error ? null : (filters.bbox ?? null),
        filters: { type: filters.type ?? null, veganLevel: filters.veganLevel ?? null, q: filters.q ?? null },
        places: places.map(markerData),
        locale,
      },
    },
    <>
      <p class="actions">
        <a class="button" href={urls.placeNew()}>
          Submit a place
        </a>
      </p>
      <NearForm near={filters.near} notFound={results !== null && !filters.bbox} />
      {results ? <OtherMatches results={results} shown={filters.bbox} /> : null}
      <FilterForm filters={filters} area={area} />
      <FormError message={error} />
      <section id="map" class="map" aria-label="Map of places" hidden />
      <h2 id="places-heading">{area ? `Places around ${area}` : filters.bbox ? 'Places in this area' : 'Places'}</h2>
      <p id="map-status" class="muted" role="status" aria-live="polite">
        {places.length === 0 ? 'No places found here.' : `${places.length} places shown.`}
      </p>
      <PlaceList places={places} />
      {nextCursor ? (
        <p>
          <a href={`${urls.map()}${queryString({ ...filters, near: undefined, cursor: nextCursor })}`}>More places</a>
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
    const { near: _near, ...listFilters } = filters;
    const page = await api(c).places.list.query({ ...listFilters, limit: MAP_PAGE_SIZE });
    const area = areaName(parseBbox(filters.bbox), viewerLocale(c));
    return c.json({ items: page.items.map(markerData), nextCursor: page.nextCursor, area });
  } catch (failure) {
    const status = apiStatus(failure);
    if (status === undefined || status === 401 || status >= 500) throw failure;
    const code = (failure as { data?: { code?: string } }).data?.code ?? 'error';
    // Field names as the endpoint takes them (bbox, type...), not the form's labels.
    return c.json({ error: { code, message: formErrorMessage(failure) } }, status as 400);
  }
};
