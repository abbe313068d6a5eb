// The map page's two forms: the search that moves the map (a city or a place by name; "Near me"
// appears when the script runs) and the filters over the places of the area shown. The area is
// shown by name; its numeric box travels as a hidden field, for the API only.
import { t } from '../server/i18n.js';
import { urls } from '../urls.js';
import { NEAR_MAX_LENGTH, type NearResults } from './map-search.js';
import { PLACE_TYPES, placeTypeLabel, queryString, VEGAN_LEVELS, veganLevelLabel } from './places-shared.js';

export interface MapFilters {
  bbox?: string;
  type?: (typeof PLACE_TYPES)[number];
  veganLevel?: (typeof VEGAN_LEVELS)[number];
  q?: string;
  /** A city or place name to go to (only without a box: once the map moved, the box wins). */
  near?: string;
}

export function NearForm({ near, notFound }: { near?: string; notFound: boolean }) {
  return (
    <form method="get" action={urls.map()} class="filters" id="map-search">
      <div class="wide">
        <label for="map-near">{t('map.search.label')}</label>
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
        <button type="submit">{t('map.search.submit')}</button>
      </div>
      <div>
        <button type="button" id="map-locate" class="secondary" hidden>
          {t('map.search.nearMe')}
        </button>
      </div>
      <p id="map-near-hint" class="hint wide">
        {t('map.search.privacy')}
        <span id="map-locate-hint" hidden>
          {' '}
          {t('map.search.nearMePrivacy')}
        </span>
      </p>
      {notFound ? (
        <p class="notice wide" role="status">
          {t('map.search.notFound', { query: near ?? '' })}
        </p>
      ) : null}
    </form>
  );
}

/** The other cities and places a search found: each a link that moves the map there. */
export function OtherMatches({ results, shown }: { results: NearResults; shown: string | undefined }) {
  const cities = results.cities.filter((city) => city.bbox !== shown);
  if (cities.length === 0 && results.places.length === 0) return null;
  return (
    <section aria-labelledby="map-matches-heading" id="map-matches">
      <h2 id="map-matches-heading">{t('map.search.otherMatches')}</h2>
      <ul class="plain">
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

/** "Area: around Berlin, Germany." and its like, for the page and for the script's answers. */
export function areaText(bbox: string | undefined, area: string | null): string {
  if (!bbox) return t('map.area.everywhere');
  return area ? t('map.area.around', { area }) : t('map.area.shown');
}

/** The heading over the list: "Places around Berlin, Germany". */
export function placesHeading(bbox: string | undefined, area: string | null): string {
  if (area) return t('map.list.around', { area });
  return bbox ? t('map.list.here') : t('map.list.everywhere');
}

export function FilterForm({ filters, area }: { filters: MapFilters; area: string | null }) {
  return (
    <form method="get" action={urls.map()} class="filters" id="map-filters">
      <input type="hidden" id="filter-bbox" name="bbox" value={filters.bbox ?? ''} />
      <div>
        <label for="filter-q">{t('map.filters.q')}</label>
        <input id="filter-q" name="q" type="search" value={filters.q ?? ''} maxlength={100} />
      </div>
      <div>
        <label for="filter-type">{t('map.filters.type')}</label>
        <select id="filter-type" name="type">
          <option value="">{t('map.filters.anyType')}</option>
          {PLACE_TYPES.map((value) => (
            <option value={value} selected={filters.type === value}>
              {placeTypeLabel(value)}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for="filter-vegan-level">{t('map.filters.level')}</label>
        <select id="filter-vegan-level" name="veganLevel">
          <option value="">{t('map.filters.anyLevel')}</option>
          {VEGAN_LEVELS.map((value) => (
            <option value={value} selected={filters.veganLevel === value}>
              {veganLevelLabel(value)}
            </option>
          ))}
        </select>
      </div>
      <div>
        <button type="submit">{t('map.filters.submit')}</button>
      </div>
      <p class="hint wide" id="map-area">
        <span id="map-area-text">{areaText(filters.bbox, area)}</span>
        {filters.bbox ? (
          <>
            {' '}
            <a
              href={`${urls.map()}${queryString({ type: filters.type, veganLevel: filters.veganLevel, q: filters.q })}`}
            >
              {t('map.area.showEverywhere')}
            </a>
          </>
        ) : null}
      </p>
    </form>
  );
}
