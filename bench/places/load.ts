// Bulk loader: (re)creates a benchmark database, migrates it, and COPYs N approved places into it.
//
//   npm run bench:places:load -- 10k        # database cas_bench_10k
//   npm run bench:places:load -- 1m         # database cas_bench_1m
//   npm run bench:places:load -- 1m --refresh   # no reload: apply new migrations, analyze, remake the naive copy
//   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432 (default) names the server.
//
// Secondary indexes are dropped before the COPY and rebuilt after it (much faster than
// maintaining them row by row; the unique slug index is rebuilt too, which re-checks it); the
// primary key stays. Ids are UUIDv7 made in creation order, so the heap is in id order, as it is
// for a real table that grows. A copy `<name>_naive` without the bbox design's indexes is made
// from the loaded database, for the "naive plan" side of the benchmark.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import postgres from 'postgres';
import { openDatabase } from '../../db/client.js';
import { newId } from '../../db/ids.js';
import { makeCities, placeGenerator, type PlaceRow } from './data.js';

export const SIZES = { '10k': 10_000, '1m': 1_000_000 } as const;
export type SizeName = keyof typeof SIZES;
export const serverUrl = (process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/+$/, '');
export const databaseName = (size: SizeName) => `cas_bench_${size}`;
export const databaseUrl = (size: SizeName, naive = false) =>
  `${serverUrl}/${databaseName(size)}${naive ? '_naive' : ''}`;

/** Indexes added by the bbox design (migrations/*_places_bbox_index.sql); the naive copy drops them. */
export const DESIGN_INDEXES = ['places_bbox_cell_idx', 'places_approved_id_cover', 'places_bbox_cover'];

const COLUMNS =
  'id, slug, name, type, vegan_level, address, hours, website, tags, photos, location, status, created_at, reviewed_at';

/** COPY text format: our generated strings hold no tab, newline or backslash. */
const textArray = (items: string[]) => `{${items.map((item) => `"${item}"`).join(',')}}`;

function copyLine(row: PlaceRow, id: string, createdAt: Date): string {
  const reviewedAt = new Date(createdAt.getTime() + 86_400_000).toISOString();
  return [
    id,
    row.slug,
    row.name,
    row.type,
    row.veganLevel,
    row.address,
    row.hours ?? '\\N',
    row.website,
    textArray(row.tags),
    textArray(row.photos),
    `SRID=4326;POINT(${row.lng} ${row.lat})`,
    'approved',
    createdAt.toISOString(),
    reviewedAt,
  ].join('\t');
}

/** Lines in batches of ~1,000 rows; created_at spreads evenly over the last three years. */
async function* copyChunks(count: number) {
  const next = placeGenerator(makeCities(), 42);
  const span = 3 * 365 * 86_400_000;
  const start = Date.now() - span;
  let batch: string[] = [];
  for (let i = 0; i < count; i++) {
    const at = Math.floor(start + (span * i) / count);
    batch.push(copyLine(next(i), newId(at), new Date(at)));
    if (batch.length === 1000) {
      yield `${batch.join('\n')}\n`;
      batch = [];
    }
  }
  if (batch.length) yield `${batch.join('\n')}\n`;
}

export async function loadPlaces(size: SizeName): Promise<void> {
  await loadPlacesInto(databaseName(size), SIZES[size]);
}

/** Places tiny mode (--tiny, bench/shared/tiny.ts): enough for every box kind to find something. */
export const TINY_PLACES = 2_000;

/** (Re)creates database `name` with `count` places, then its `<name>_naive` copy. */
export async function loadPlacesInto(name: string, count: number, { naive = true } = {}): Promise<void> {
  const url = `${serverUrl}/${name}`;
  const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  await admin.end();

  const database = await openDatabase({ url, poolMax: 1 });
  await database.migrate();
  await database.close();

  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const timings: Record<string, number> = {};
  const timed = async (label: string, work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    timings[label] = Math.round(performance.now() - started);
  };
  try {
    await sql`set maintenance_work_mem = '512MB'`;
    const indexes = await sql<{ indexname: string; indexdef: string }[]>`
      select indexname, indexdef from pg_indexes
      where schemaname = 'public' and tablename = 'places'
        and indexname not in (select conname from pg_constraint)`;
    for (const index of indexes) await sql.unsafe(`drop index ${index.indexname}`);

    await timed('copy', async () => {
      const writable = await sql.unsafe(`copy places (${COLUMNS}) from stdin`).writable();
      await pipeline(Readable.from(copyChunks(count)), writable);
    });
    await timed('indexes', async () => {
      for (const index of indexes) await sql.unsafe(index.indexdef);
    });
    await timed('vacuum analyze', () => sql`vacuum (analyze) places`);
    const [stats] = await sql<{ rows: number; size: string }[]>`
      select count(*)::int as rows, pg_size_pretty(pg_total_relation_size('places')) as size from places`;
    const total = Object.values(timings).reduce((a, b) => a + b, 0);
    console.log(
      `${name}: ${stats!.rows} places, ${stats!.size} with indexes; ` +
        `${Object.entries(timings)
          .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`)
          .join(', ')}; total ${(total / 1000).toFixed(1)} s ` +
        `(${indexes.length} secondary indexes rebuilt: ${indexes.map((i) => i.indexname).join(', ')})`,
    );
  } finally {
    await sql.end();
  }
  if (naive) await makeNaiveCopy(name);
}

/** Drops a set and its naive copy (what a tiny run loaded for itself). */
export async function dropPlaces(name: string): Promise<void> {
  const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name}_naive with (force)`);
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}

async function makeNaiveCopy(name: string): Promise<void> {
  const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name}_naive with (force)`);
  await admin.unsafe(`create database ${name}_naive template ${name}`);
  await admin.end();
  const copy = postgres(`${serverUrl}/${name}_naive`, { max: 1, onnotice: () => {} });
  for (const index of DESIGN_INDEXES) await copy.unsafe(`drop index if exists ${index}`);
  await copy`vacuum (analyze) places`;
  await copy.end();
  console.log(`${name}_naive: copy without ${DESIGN_INDEXES.join(', ')}`);
}

/** After a new migration: migrate the loaded set, re-analyze it and remake its naive copy. */
export async function refreshPlaces(size: SizeName): Promise<void> {
  const database = await openDatabase({ url: databaseUrl(size), poolMax: 1 });
  await database.migrate();
  await database.close();
  const sql = postgres(databaseUrl(size), { max: 1, onnotice: () => {} });
  await sql`vacuum (analyze) places`;
  await sql.end();
  await makeNaiveCopy(databaseName(size));
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const refresh = process.argv.includes('--refresh');
  const requested = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
  const sizes = (requested.length ? requested : ['10k']) as SizeName[];
  for (const size of sizes) {
    if (!(size in SIZES)) throw new Error(`Unknown size "${size}"; use ${Object.keys(SIZES).join(' or ')}.`);
    await (refresh ? refreshPlaces(size) : loadPlaces(size));
  }
}
