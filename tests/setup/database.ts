// The database a test file uses. Every file gets database state of its own, so a test can
// assert totals exactly (GET /api/stats counts every member of the database it runs on):
// - PostgreSQL: the run's migrated template database is cloned for each file
//   (`create database ... template ...`, a file copy, no migrations) and dropped after it; files run
//   in parallel workers, each on its own clone.
// - PGlite: one embedded instance serves the whole run (it costs seconds and ~1 GB to start),
//   files run one after another, and every table is emptied before each file starts.
// file-database.ts (a vitest setup file) makes and drops it around every test file.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import postgres from 'postgres';
import { openDatabase, type Database } from '../../db/client.js';

const globalKey = Symbol.for('cas.test.pglite');
type GlobalWithPglite = typeof globalThis & { [globalKey]?: Promise<Database> };

/** The server's maintenance URL and the template's name, or null when the run uses PGlite. */
function runDatabase(): { serverUrl: string; template: string } | null {
  const serverUrl = inject('testDatabaseServerUrl');
  const template = inject('testTemplateDatabase');
  return serverUrl && template ? { serverUrl, template } : null;
}

function urlFor(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Module state is per test file on PostgreSQL (vitest isolates files there), so is this name. */
const fileDatabaseName = (() => {
  const run = runDatabase();
  return run ? `${run.template}_f${randomBytes(4).toString('hex')}` : null;
})();

/** The URL of this test file's own PostgreSQL database (null on PGlite); it exists from the file's first hook on. */
export function testDatabaseUrl(): string | null {
  const run = runDatabase();
  return run && fileDatabaseName ? urlFor(run.serverUrl, fileDatabaseName) : null;
}

/** A connection to the server's maintenance database, for create/drop database. Never to the template: a clone needs it idle. */
export function adminConnection() {
  const run = runDatabase();
  if (!run) throw new Error('adminConnection: the run uses PGlite');
  return postgres(run.serverUrl, { max: 1, onnotice: () => {} });
}

/** Creates database `name` as a copy of the run's migrated template. */
export async function cloneTemplate(admin: postgres.Sql, name: string): Promise<string> {
  const run = runDatabase()!;
  await admin.unsafe(`create database "${name}" template "${run.template}"`);
  return urlFor(run.serverUrl, name);
}

async function sharedPglite(): Promise<Database> {
  const g = globalThis as GlobalWithPglite;
  g[globalKey] ??= (async () => {
    const database = await openDatabase({ dataDir: ':memory:' });
    await database.migrate();
    return database;
  })();
  return g[globalKey];
}

/** Empties every application table (PostGIS's reference table and the migration journal stay). */
async function truncateAll(database: Database) {
  const { sql } = await import('drizzle-orm');
  const tables = await database.rows<{ name: string }>(sql`
    select quote_ident(tablename) as name from pg_tables
    where schemaname = 'public' and tablename <> 'spatial_ref_sys'`);
  if (tables.length) await database.rows(sql.raw(`truncate ${tables.map((t) => t.name).join(', ')} cascade`));
}

/** Called before the first hook of every test file (file-database.ts). */
export async function prepareFileDatabase(): Promise<void> {
  if (fileDatabaseName) {
    const admin = adminConnection();
    try {
      await cloneTemplate(admin, fileDatabaseName);
    } finally {
      await admin.end();
    }
    return;
  }
  // Before the first file that opens it, the instance does not exist yet: nothing to empty.
  const g = globalThis as GlobalWithPglite;
  if (g[globalKey]) await truncateAll(await g[globalKey]);
}

/** Called after the last hook of every test file (file-database.ts). */
export async function dropFileDatabase(): Promise<void> {
  if (!fileDatabaseName || process.env.KEEP_TEST_DATABASE) return;
  const admin = adminConnection();
  try {
    await admin.unsafe(`drop database if exists "${fileDatabaseName}" with (force)`);
  } finally {
    await admin.end();
  }
}

/** Opens a database handle for one test file. Call `release` in afterAll. */
export async function acquireTestDatabase(): Promise<{ database: Database; release: () => Promise<void> }> {
  const url = testDatabaseUrl();
  if (url) {
    const database = await openDatabase({ url, poolMax: 5 });
    return { database, release: () => database.close() };
  }
  // Shared across files; the worker's exit closes it.
  return { database: await sharedPglite(), release: async () => {} };
}
