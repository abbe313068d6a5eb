// A private copy of the 10k places set (cas_bench_10k) for a benchmark that runs real server
// processes on it: the server migrates its database at start and runs its jobs, so it gets a copy
// made with `create database … template` (a file copy: rows, indexes, statistics and the
// visibility map as loaded), dropped again at the end. The set is loaded first if missing.
// In tiny mode (--tiny) the database is a small set loaded for this run alone instead.
import postgres from 'postgres';
import { databaseName, loadPlaces, loadPlacesInto, serverUrl, TINY_PLACES } from '../places/load.js';
import { tiny } from './tiny.js';

export interface PlacesCopy {
  name: string;
  url: string;
  /** Some approved slugs of the set, for get-by-slug requests. */
  slugs: string[];
  drop(): Promise<void>;
}

export async function copyOfPlaces10k(name: string): Promise<PlacesCopy> {
  const source = databaseName('10k');
  const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });
  try {
    if (tiny) {
      await loadPlacesInto(name, TINY_PLACES, { naive: false });
      return await opened(name);
    }
    const [exists] = await admin`select 1 from pg_database where datname = ${source}`;
    if (!exists) {
      console.error(`${source} is missing: loading it (npm run bench:places:load -- 10k)`);
      await loadPlaces('10k');
    }
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    // Fails if another session is connected to the source (e.g. a places bench running now).
    await admin.unsafe(`create database ${name} template ${source}`);
  } finally {
    await admin.end();
  }
  return opened(name);
}

async function opened(name: string): Promise<PlacesCopy> {
  const url = `${serverUrl}/${name}`;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const rows = await sql<{ slug: string }[]>`
    select slug from places where status = 'approved' order by md5(slug) limit 200`;
  await sql.end();
  return {
    name,
    url,
    slugs: rows.map((row) => row.slug),
    async drop() {
      const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
