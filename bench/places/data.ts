// Synthetic but realistic place data for the bounding-box benchmark, and the random query boxes.
// Everything is driven by a seeded PRNG, so a data set and a query sequence are reproducible.
//
// Shape: a few hundred cities on land-ish boxes with Zipf-distributed sizes (a handful of huge
// cities, a long tail of small towns); 90% of places lie within a few km of a city centre
// (radius grows with city size, heavy-tailed distance), 10% are spread uniformly over the land.
import { placeTypes, type PlaceType } from '../../db/schema/places.js';
import { slugify } from '../../server/shared/slug.js';
import type { PlaceRow as ListRow } from '../../server/domains/places/place-row.js';

/** mulberry32: small, fast, good enough for test data. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(rand: Rand, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
/** Standard normal (Box–Muller). */
const normal = (rand: Rand) => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());

/** [west, south, east, north, weight]: rough land masses where people (and places) are. */
const LAND: readonly [number, number, number, number, number][] = [
  [-124, 32, -115, 49, 3], // US west coast
  [-100, 29, -70, 47, 8], // US east and centre, Canada south
  [-106, 15, -88, 25, 3], // Mexico, Central America
  [-75, -35, -40, 5, 5], // South America
  [-9, 37, 30, 60, 10], // Europe
  [-15, -30, 40, 15, 3], // Africa
  [35, 25, 60, 40, 2], // Middle East
  [68, 8, 90, 30, 5], // India
  [100, 20, 140, 45, 6], // East Asia
  [115, -38, 153, -20, 3], // Australia
  [166, -46, 178.5, -35, 1], // New Zealand
  [177, -19, 180, -16, 0.3], // Fiji, west of the antimeridian
  [-180, -19, -178, -16, 0.2], // Fiji, east of it
];

/** A few real cities so the data reads naturally; the rest are generated. */
const REAL_CITIES: readonly [string, number, number][] = [
  ['Berlin', 13.405, 52.52],
  ['London', -0.1276, 51.5072],
  ['Paris', 2.3522, 48.8566],
  ['New York', -74.006, 40.7128],
  ['Los Angeles', -118.2437, 34.0522],
  ['Toronto', -79.3832, 43.6532],
  ['Mexico City', -99.1332, 19.4326],
  ['São Paulo', -46.6333, -23.5505],
  ['Buenos Aires', -58.3816, -34.6037],
  ['Lagos', 3.3792, 6.5244],
  ['Nairobi', 36.8219, -1.2921],
  ['Mumbai', 72.8777, 19.076],
  ['Delhi', 77.1025, 28.7041],
  ['Bangkok', 100.5018, 13.7563],
  ['Tokyo', 139.6917, 35.6895],
  ['Seoul', 126.978, 37.5665],
  ['Shanghai', 121.4737, 31.2304],
  ['Sydney', 151.2093, -33.8688],
  ['Melbourne', 144.9631, -37.8136],
  ['Auckland', 174.7633, -36.8485],
  ['Amsterdam', 4.9041, 52.3676],
  ['Barcelona', 2.1734, 41.3851],
  ['Tel Aviv', 34.7818, 32.0853],
  ['Portland', -122.6765, 45.5152],
  ['Austin', -97.7431, 30.2672],
  ['Suva', 178.4419, -18.1416],
];

const SYLLABLES = [
  'al',
  'ber',
  'cas',
  'dor',
  'el',
  'fen',
  'gar',
  'hol',
  'is',
  'jun',
  'kel',
  'lor',
  'mar',
  'nor',
  'or',
  'pel',
  'quin',
  'ros',
  'sal',
  'tor',
  'ul',
  'ven',
  'wes',
  'yar',
  'zel',
];
const SUFFIXES = ['ton', 'burg', 'ville', 'field', 'ford', 'haven', 'mouth', 'stad', 'polis', ' City', 'dale', 'port'];

export interface City {
  name: string;
  lng: number;
  lat: number;
  /** Share of the clustered places that belong to this city (sums to 1). */
  share: number;
  /** Typical distance of a place from the centre, in km. */
  radiusKm: number;
}

function randomLandPoint(rand: Rand): [number, number] {
  const total = LAND.reduce((sum, [w, s, e, n, weight]) => sum + (e - w) * (n - s) * weight, 0);
  let r = rand() * total;
  for (const [w, s, e, n, weight] of LAND) {
    r -= (e - w) * (n - s) * weight;
    if (r <= 0) return [w + rand() * (e - w), s + rand() * (n - s)];
  }
  const [w, s, e, n] = LAND[0]!;
  return [w + rand() * (e - w), s + rand() * (n - s)];
}

export function makeCities(count = 300, seed = 1): City[] {
  const rand = rng(seed);
  const raw = Array.from({ length: count }, (_, i) => {
    const real = REAL_CITIES[i];
    const [lng, lat] = real ? [real[1], real[2]] : randomLandPoint(rand);
    const name = real ? real[0] : capitalize(pick(rand, SYLLABLES) + pick(rand, SYLLABLES) + pick(rand, SUFFIXES));
    return { name, lng, lat };
  });
  // Zipf sizes (exponent 0.8): the real cities take the top ranks, in list order.
  const weights = raw.map((_, rank) => 1 / (rank + 1) ** 0.8);
  const total = weights.reduce((a, b) => a + b, 0);
  return raw.map((city, i) => {
    const share = weights[i]! / total;
    return { ...city, share, radiusKm: 1.5 + 60 * Math.sqrt(share) };
  });
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const ADJECTIVES = [
  'Green',
  'Golden',
  'Sunny',
  'Little',
  'Wild',
  'Happy',
  'Humble',
  'Rooted',
  'Leafy',
  'Blue',
  'Fresh',
  'Kind',
  'Good',
  'Urban',
  'Radical',
  'Gentle',
  'Bright',
  'Sprouting',
  'Purple',
  'Honest',
];
const NOUNS = [
  'Lentil',
  'Sprout',
  'Fig',
  'Oat',
  'Carrot',
  'Bean',
  'Kale',
  'Almond',
  'Tofu',
  'Mango',
  'Olive',
  'Radish',
  'Seed',
  'Garden',
  'Harvest',
  'Orchard',
  'Basil',
  'Pumpkin',
  'Walnut',
  'Clover',
];
const TYPE_WORDS: Record<PlaceType, readonly string[]> = {
  restaurant: ['Kitchen', 'Bistro', 'Diner', 'Eatery', 'Table', 'Canteen'],
  cafe: ['Café', 'Coffee', 'Bakery', 'Tea Room', 'Juice Bar'],
  grocery: ['Market', 'Grocer', 'Pantry', 'Food Co-op', 'Deli'],
  shop: ['Shoes', 'Boutique', 'Store', 'Bookshop', 'Cosmetics'],
  organization: ['Collective', 'Network', 'Alliance', 'Society', 'Action'],
  venue: ['Hall', 'Stage', 'Club', 'Loft', 'Studio'],
  sanctuary: ['Sanctuary', 'Farm Sanctuary', 'Animal Refuge', 'Rescue Farm'],
};
const TYPE_WEIGHTS: Record<PlaceType, number> = {
  restaurant: 35,
  cafe: 20,
  grocery: 15,
  shop: 12,
  organization: 8,
  venue: 5,
  sanctuary: 5,
};
const TAGS = [
  'gluten-free',
  'raw',
  'organic',
  'zero-waste',
  'wifi',
  'outdoor-seating',
  'dog-friendly',
  'delivery',
  'takeaway',
  'brunch',
  'soy-free',
  'nut-free',
  'wheelchair-access',
  'kids',
  'live-music',
  'fair-trade',
  'local',
  'bulk',
];
const STREETS = [
  'Main',
  'Oak',
  'Station',
  'Market',
  'Mill',
  'Church',
  'River',
  'Park',
  'Garden',
  'High',
  'Bridge',
  'Lake',
  'Harbour',
  'Castle',
  'Linden',
];
const STREET_KINDS = ['Street', 'Road', 'Avenue', 'Lane', 'Square', 'Way'];
const HOURS = ['Mon–Fri 9–17', 'Daily 8–20', 'Tue–Sun 11–22', 'Mon–Sat 10–19', 'Thu–Sun 17–23'];

function weightedType(rand: Rand): PlaceType {
  let r = rand() * 100;
  for (const type of placeTypes) {
    r -= TYPE_WEIGHTS[type];
    if (r <= 0) return type;
  }
  return 'restaurant';
}

/** A generated place: the list query's row without what the loader assigns (id, status, created_at). */
export type PlaceRow = Omit<ListRow, 'id' | 'status' | 'createdAt' | 'reviewCount' | 'ratingSum'>;

const KM_PER_DEG_LAT = 111.32;
const clampLat = (lat: number) => Math.max(-89.9, Math.min(89.9, lat));
/** Wraps a longitude into -180..180. */
export const wrapLng = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180;

/** Generates places one by one; slugs are unique within one generator. */
export function placeGenerator(cities: City[], seed: number) {
  const rand = rng(seed);
  const cumulative: number[] = [];
  cities.reduce((sum, city, i) => (cumulative[i] = sum + city.share), 0);
  const cityFor = (r: number) => {
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    return cities[lo]!;
  };
  const slugCounts = new Map<string, number>();

  return (serial: number): PlaceRow => {
    let city: City;
    let lng: number;
    let lat: number;
    if (rand() < 0.9) {
      city = cityFor(rand());
      // Heavy-tailed distance: most places near the centre, some in the outskirts.
      const distanceKm = city.radiusKm * Math.abs(normal(rand)) * (rand() < 0.85 ? 0.5 : 2);
      const angle = rand() * 2 * Math.PI;
      lat = clampLat(city.lat + (distanceKm * Math.sin(angle)) / KM_PER_DEG_LAT);
      lng = wrapLng(
        city.lng + (distanceKm * Math.cos(angle)) / (KM_PER_DEG_LAT * Math.cos((city.lat * Math.PI) / 180)),
      );
    } else {
      [lng, lat] = randomLandPoint(rand);
      city = cityFor(rand());
    }
    const type = weightedType(rand);
    const name = `${pick(rand, ADJECTIVES)} ${pick(rand, NOUNS)} ${pick(rand, TYPE_WORDS[type])}`;
    const base = slugify(`${name} ${city.name}`);
    const seen = (slugCounts.get(base) ?? 0) + 1;
    slugCounts.set(base, seen);
    const slug = seen === 1 ? base : `${base}-${seen}`;
    const tags = [...new Set(Array.from({ length: Math.floor(rand() * 5) }, () => pick(rand, TAGS)))];
    const photos = Array.from(
      { length: Math.floor(rand() * 3) },
      (_, i) => `https://img.example.org/places/${serial}/${i + 1}.jpg`,
    );
    return {
      slug,
      name,
      type,
      veganLevel: rand() < 0.4 ? 'full' : 'options',
      address: `${1 + Math.floor(rand() * 300)} ${pick(rand, STREETS)} ${pick(rand, STREET_KINDS)}, ${city.name}`,
      hours: rand() < 0.7 ? pick(rand, HOURS) : null,
      website: `https://${slug}.example.org/`,
      tags,
      photos,
      lng: Math.round(lng * 1e6) / 1e6,
      lat: Math.round(lat * 1e6) / 1e6,
    };
  };
}

export type BoxKind = 'city' | 'continent';

/**
 * A random query box: "city" is 0.2° square around a random city (centre jittered, every city
 * equally likely, so small towns count as much as capitals); "continent" is 30° square centred
 * within ±15° of a random city. Boxes past ±180° wrap, so some cross the antimeridian.
 */
export function boxGenerator(cities: City[], kind: BoxKind, seed: number) {
  const rand = rng(seed);
  const size = kind === 'city' ? 0.2 : 30;
  const jitter = kind === 'city' ? 0.05 : 15;
  return (): string => {
    const city = pick(rand, cities);
    const cx = city.lng + normal(rand) * jitter;
    const cy = Math.max(-90 + size / 2, Math.min(90 - size / 2, city.lat + normal(rand) * jitter));
    const round = (n: number) => Math.round(n * 1e4) / 1e4;
    return [wrapLng(cx - size / 2), cy - size / 2, wrapLng(cx + size / 2), cy + size / 2].map(round).join(',');
  };
}
