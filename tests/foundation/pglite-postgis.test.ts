// The embedded database's lean PostGIS (db/pglite-postgis.ts) and memory settings (db/client.ts):
// what PostGIS does for this service still works (the extension, transforms through PROJ's data,
// geography on the spheroid), and what was cut stays cut (raster, topology and tiger are not
// offered; shared buffers 16 MB, not 128). The figures are in bench/README.md, "Start time and memory".
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client.js';
import { neededPostgisFile, untar } from '../../db/pglite-postgis.js';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: ':memory:' });
  await database.migrate(); // creates the postgis extension, as every embedded start does
}, 120_000);
afterAll(async () => {
  await database?.close();
});

describe('embedded PostGIS, lean', () => {
  it('answers what the service asks of PostGIS: the extension, PROJ transforms, geography', async () => {
    const [row] = await database.rows<{ version: string; x: number; y: number; metres: number }>(sql`
      select
        (select extversion from pg_extension where extname = 'postgis') as version,
        round(ST_X(ST_Transform(ST_SetSRID(ST_MakePoint(2.35, 48.85), 4326), 3857))::numeric, 1)::float8 as x,
        round(ST_Y(ST_Transform(ST_SetSRID(ST_MakePoint(2.35, 48.85), 4326), 3857))::numeric, 1)::float8 as y,
        round(ST_Distance(ST_MakePoint(2.35, 48.85)::geography, ST_MakePoint(2.36, 48.86)::geography)::numeric)::float8 as metres`);
    expect(row!.version).toMatch(/^3\./);
    expect(row!.x).toBeCloseTo(261600.8, 0);
    expect(row!.y).toBeCloseTo(6249447.8, 0);
    expect(row!.metres).toBe(1332);
  });

  it('offers neither raster, topology nor tiger (never created here), and keeps shared buffers at 16 MB', async () => {
    const offered = await database.rows<{ name: string }>(
      sql`select name from pg_available_extensions where name like 'postgis%' order by name`,
    );
    expect(offered.map((row) => row.name)).toEqual(['postgis']);
    const [settings] = await database.rows<{ shared_buffers: string }>(
      sql`select current_setting('shared_buffers') as shared_buffers`,
    );
    expect(settings!.shared_buffers).toBe('16MB');
  });
});

describe('the bundle filter', () => {
  it('keeps the library, the extension scripts and PROJ, and nothing else', () => {
    expect(neededPostgisFile('lib/postgresql/postgis-3.so')).toBe(true);
    expect(neededPostgisFile('share/postgresql/extension/postgis.control')).toBe(true);
    expect(neededPostgisFile('share/postgresql/extension/postgis--3.6.2.sql')).toBe(true);
    expect(neededPostgisFile('share/postgresql/extension/postgis--ANY--3.6.2.sql')).toBe(true);
    expect(neededPostgisFile('share/proj/proj.db')).toBe(true);
    expect(neededPostgisFile('lib/postgresql/postgis_raster-3.so')).toBe(false);
    expect(neededPostgisFile('lib/postgresql/postgis_topology-3.so')).toBe(false);
    expect(neededPostgisFile('share/postgresql/extension/postgis_raster.control')).toBe(false);
    expect(neededPostgisFile('share/postgresql/extension/postgis--unpackaged--3.6.2.sql')).toBe(false);
    expect(neededPostgisFile('share/postgresql/contrib/postgis-3.6/spatial_ref_sys.sql')).toBe(false);
  });

  it('reads ustar entries, with a prefix and a GNU long name', () => {
    const block = (fields: { name: string; size: number; type: string; prefix?: string }) => {
      const header = new Uint8Array(512);
      const put = (at: number, text: string) => header.set(new TextEncoder().encode(text), at);
      put(0, fields.name);
      put(124, `${fields.size.toString(8).padStart(11, '0')}\0`);
      put(156, fields.type);
      if (fields.prefix) put(345, fields.prefix);
      return header;
    };
    const padded = (text: string) => {
      const bytes = new Uint8Array(Math.ceil(text.length / 512) * 512);
      bytes.set(new TextEncoder().encode(text));
      return bytes;
    };
    const longName = `share/${'x'.repeat(120)}.sql`;
    const archive = new Uint8Array([
      ...block({ name: 'postgis.control', size: 3, type: '0', prefix: 'share/postgresql/extension' }),
      ...padded('abc'),
      ...block({ name: 'share/proj/', size: 0, type: '5' }),
      ...block({ name: '././@LongLink', size: longName.length, type: 'L' }),
      ...padded(longName),
      ...block({ name: 'truncated-name', size: 2, type: '0' }),
      ...padded('hi'),
      ...new Uint8Array(1024),
    ]);
    const files = untar(archive).map((file) => [file.name, new TextDecoder().decode(file.data)]);
    expect(files).toEqual([
      ['share/postgresql/extension/postgis.control', 'abc'],
      [longName, 'hi'],
    ]);
  });
});
