// The database a test file uses: the run's fresh PostgreSQL database when one was provided,
// otherwise one embedded PGlite shared by every file of the run (files run in one worker).
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../db/client.js';

const globalKey = Symbol.for('cas.test.pglite');
type GlobalWithPglite = typeof globalThis & { [globalKey]?: Promise<Database> };

export function testDatabaseUrl(): string | null {
  return inject('testDatabaseUrl');
}

/** Opens a database handle for one test file. Call `release` in afterAll. */
export async function acquireTestDatabase(): Promise<{ database: Database; release: () => Promise<void> }> {
  const url = testDatabaseUrl();
  if (url) {
    const database = await openDatabase({ url, poolMax: 5 });
    return { database, release: () => database.close() };
  }
  const g = globalThis as GlobalWithPglite;
  g[globalKey] ??= (async () => {
    const database = await openDatabase({ dataDir: ':memory:' });
    await database.migrate();
    return database;
  })();
  // Shared across files; the worker's exit closes it.
  return { database: await g[globalKey], release: async () => {} };
}
