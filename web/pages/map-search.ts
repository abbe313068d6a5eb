// Finding a spot on the map by name, and naming the area the map shows. Cities come from the
// offline gazetteer (web/server/gazetteer.ts, in this process: no third-party geocoder learns what
// a member looked for); the service's own places come from the API's text search. Used by the map
// page (?near=, without JavaScript) and by its script (GET /app/map/search.json).
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { fmt } from '../server/i18n.js';
import { type BoundingBox, boxAround, type City, cityNamingArea, searchCities } from '../server/gazetteer.js';
import { apiStatus } from './places-shared.js';
import type { Page } from './page.js';

type Place = RouterOutputs['places']['list']['items'][number];

export const NEAR_MAX_LENGTH = 100;
const CITY_RESULTS = 5;
const PLACE_RESULTS = 5;

export interface CityMatch {
  /** "Berlin, Germany": the country named in the viewer's language. */
  label: string;
  lng: number;
  lat: number;
  /** "west,south,east,north", the box the map shows for it. */
  bbox: string;
}

export interface PlaceMatch {
  name: string;
  slug: string;
  address: string;
  bbox: string;
}

export interface NearResults {
  cities: CityMatch[];
  places: PlaceMatch[];
}

export function bboxText(box: BoundingBox): string {
  return [box.west, box.south, box.east, box.north].join(',');
}

/** "west,south,east,north" → numbers, or null for anything else (the API judges the ranges). */
export function parseBbox(text: string | undefined): BoundingBox | null {
  const parts = (text ?? '').split(',').map((part) => Number(part.trim()));
  if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n))) return null;
  const [west, south, east, north] = parts as [number, number, number, number];
  if (Math.abs(west) > 180 || Math.abs(east) > 180 || Math.abs(south) > 90 || Math.abs(north) > 90) return null;
  if (south > north) return null;
  return { west, south, east, north };
}

function countryName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function cityLabel(city: City, locale: string): string {
  return `${city.name}, ${countryName(city.country, locale)}`;
}

/** A small box around one place: the map zooms to the street around it. */
function boxAroundPlace(place: Place): string {
  const { lng, lat } = place.location;
  const d = 0.01;
  return bboxText({
    west: Math.max(-180, lng - d),
    south: Math.max(-90, lat - d),
    east: Math.min(180, lng + d),
    north: Math.min(90, lat + d),
  });
}

/** Cities by population, then the service's approved places whose name, address or tags match. */
export async function findNear(c: Context<WebEnv>, query: string, locale: string): Promise<NearResults> {
  const cities = searchCities(query, CITY_RESULTS).map((city) => ({
    label: cityLabel(city, locale),
    lng: city.lng,
    lat: city.lat,
    bbox: bboxText(boxAround(city)),
  }));
  let places: Place[] = [];
  try {
    places = (await api(c).places.list.query({ q: query, limit: PLACE_RESULTS })).items;
  } catch (failure) {
    // A query the API's text search refuses (punctuation only) finds no place; anything else is real.
    if (apiStatus(failure) !== 400) throw failure;
  }
  return {
    cities,
    places: places.map((place) => ({
      name: place.name,
      slug: place.slug,
      address: place.address,
      bbox: boxAroundPlace(place),
    })),
  };
}

/** The name of the area a box shows ("Berlin, Germany"), or null for a box too large for one city. */
export function areaName(box: BoundingBox | null, locale: string): string | null {
  if (!box) return null;
  const city = cityNamingArea(box);
  return city ? cityLabel(city, locale) : null;
}

/** The query of a search, or null when it is empty or too long to be a name. */
export function readNear(value: string | undefined): string | null {
  const near = value?.trim();
  if (!near || near.length > NEAR_MAX_LENGTH) return null;
  return near;
}

// GET /app/map/search.json?q=Berlin: what the map script's search box shows. Same origin only
// (the browser's own cookie), and nothing the map page does not show anyway.
export const mapSearchJson: Page = async (c) => {
  const query = readNear(c.req.query('q'));
  if (!query) {
    return c.json(
      { error: { code: 'validation_failed', message: `q is required: a name of 1–${NEAR_MAX_LENGTH} characters.` } },
      400,
    );
  }
  return c.json(await findNear(c, query, fmt().locale));
};
