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
import { fmt, t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import { urls } from '../urls.js';
import { areaText, FilterForm, type MapFilters, NearForm, OtherMatches, placesHeading } from './map-forms.js';
import { areaName, findNear, type NearResults, parseBbox, readNear } from './map-search.js';
import {
  apiStatus,
  formErrorMessage,
  isPlaceType,
  isVeganLevel,
  placeTypeLabel,
  queryString,
  veganLevelLabel,
} from './places-shared.js';
import type { Page } from './page.js';

type Place = RouterOutputs['places']['list']['items'][number];

/** Markers per answer: the API's largest page. A denser area says "zoom in" rather than paging. */
const MAP_PAGE_SIZE = 100;

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

/** The list filters the API takes (the search that moved the map is not one of them). */
function listFilters(filters: MapFilters) {
  const { near: _near, ...rest } = filters;
  return rest;
}

function filterLabels() {
  return {
    bbox: t('map.filters.area'),
    q: t('map.filters.q'),
    type: t('map.filters.type'),
    veganLevel: t('map.filters.level'),
    cursor: t('map.filters.page'),
  };
}

/** What the map script needs about a place: where it is and how to name and link it. */
function markerData(place: Place) {
  return {
    slug: place.slug,
    name: place.name,
    type: placeTypeLabel(place.type),
    veganLevel: veganLevelLabel(place.veganLevel),
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
            · {placeTypeLabel(place.type)} · {veganLevelLabel(place.veganLevel)}
          </span>
          <br />
          <span class="muted">{place.address}</span>
        </li>
      ))}
    </ul>
  );
}

/** "3 places shown." (and "zoom in to see more" when the area holds more than one answer). */
function summary(count: number, more: boolean): string {
  if (count === 0) return t('map.list.none');
  return more ? t('map.list.shownMore', { count }) : t('map.list.shown', { count });
}

/** Texts the script shows, already in the viewer's language ({count} and {query} filled in there). */
function scriptTexts() {
  return {
    cluster: t('map.script.cluster', { count: '{count}' }),
    notFound: t('map.search.notFound', { query: '{query}' }),
    locating: t('map.script.locating'),
    locateFailed: t('map.script.locateFailed'),
    loadFailed: t('map.script.loadFailed'),
  };
}

export const mapPage: Page = async (c) => {
  const filters = readFilters(c);
  const { locale } = fmt();
  let results: NearResults | null = null;
  if (filters.near && !filters.bbox) {
    results = await findNear(c, filters.near, locale);
    // The most populous city of that name, else the first place of the service that matches.
    filters.bbox = results.cities[0]?.bbox ?? results.places[0]?.bbox;
  }
  const area = areaName(parseBbox(filters.bbox), locale);
  const cursor = c.req.query('cursor') || undefined;
  let places: Place[] = [];
  let nextCursor: string | null = null;
  let error: string | null = null;
  try {
    const page = await api(c).places.list.query({ ...listFilters(filters), cursor, limit: MAP_PAGE_SIZE });
    places = page.items;
    nextCursor = page.nextCursor;
  } catch (failure) {
    if (apiStatus(failure) !== 400) throw failure;
    error = formErrorMessage(failure, filterLabels());
    c.status(400);
  }
  const { config } = c.get('web');
  return renderPage(
    c,
    {
      title: t('map.title'),
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
        texts: scriptTexts(),
      },
    },
    <>
      <p class="actions">
        <a class="button" href={urls.placeNew()}>
          {t('map.submitPlace')}
        </a>
      </p>
      <NearForm near={filters.near} notFound={results !== null && !filters.bbox} />
      {results ? <OtherMatches results={results} shown={filters.bbox} /> : null}
      <FilterForm filters={filters} area={area} />
      <FormError message={error} />
      <section id="map" class="map" aria-label={t('map.mapLabel')} hidden />
      <h2 id="places-heading">{placesHeading(filters.bbox, area)}</h2>
      <p id="map-status" class="muted" role="status" aria-live="polite">
        {summary(places.length, false)}
      </p>
      <PlaceList places={places} />
      {nextCursor ? (
        <p>
          <a href={`${urls.map()}${queryString({ ...listFilters(filters), cursor: nextCursor })}`}>
            {t('map.list.more')}
          </a>
        </p>
      ) : null}
    </>,
  );
};

// The map script's data source: places in the box, as JSON, through the API, with the area's
// name and the count worded in the viewer's language. Same origin only (the browser's own
// cookie; no CORS), GET only, and nothing but what the list shows anyway.
export const mapPlacesJson: Page = async (c) => {
  const filters = readFilters(c);
  if (!filters.bbox) {
    return c.json(
      { error: { code: 'validation_failed', message: 'bbox is required: west,south,east,north in degrees.' } },
      400,
    );
  }
  try {
    const page = await api(c).places.list.query({ ...listFilters(filters), limit: MAP_PAGE_SIZE });
    const area = areaName(parseBbox(filters.bbox), fmt().locale);
    return c.json({
      items: page.items.map(markerData),
      nextCursor: page.nextCursor,
      area,
      heading: placesHeading(filters.bbox, area),
      areaText: areaText(filters.bbox, area),
      summary: summary(page.items.length, page.nextCursor !== null),
    });
  } catch (failure) {
    const status = apiStatus(failure);
    if (status === undefined || status === 401 || status >= 500) throw failure;
    const code = (failure as { data?: { code?: string } }).data?.code ?? 'error';
    // Field names as the endpoint takes them (bbox, type...), not the form's labels.
    return c.json({ error: { code, message: formErrorMessage(failure) } }, status as 400);
  }
};
