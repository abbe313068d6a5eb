// Opens the database: PostgreSQL through postgres.js when a URL is given, otherwise embedded
// PGlite with PostGIS in a data directory. Both expose the same Drizzle API and run the same
// migrations; the few driver differences are smoothed over here and nowhere else.
import { ADVISORY_LOCKS } from './advisory-locks.js';
import { fileURLToPath } from 'node:url';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.js';
import { AlwaysUpHealth, DatabaseHealth } from './health.js';
import { timeStatements } from './drizzle-internals.js';
import { QueryObserver } from './query-observer.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A Drizzle transaction handle; services accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'postgres' | 'pglite';
  /** Runs raw SQL and returns its rows, whatever the driver. */
  rows<T = Record<string, unknown>>(query: SQL, executor?: DbOrTx): Promise<T[]>;
  /** Resolves when the database answers `select 1` within the timeout; rejects otherwise. */
  ping(timeoutMs: number): Promise<void>;
  /** Known reachability: requests answer 503 at once while it is down (db/health.ts). */
  health: DatabaseHealth;
  /** Every statement's timing and the pool's use (slow-query trace, metrics): db/query-observer.ts. */
  queries: QueryObserver;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = fileURLToPath(new URL('../migrations', import.meta.url));

export interface OpenOptions {
  url?: string;
  dataDir?: string;
  poolMax?: number;
  statementTimeoutMs?: number;
  connectTimeoutSeconds?: number;
  /** Progress lines while PGlite starts (it takes seconds, ~10 s the first time). */
  onProgress?: (message: string) => void;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  return options.url
    ? openPostgres(options.url, options)
    : openPglite(options.dataDir ?? './.data', options.onProgress ?? (() => {}));
}

/** Another live process has the PGlite data directory open (PGlite itself does not notice). */
export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${pid} (probably the server). ` +
        'PGlite belongs to one process: stop that process first, or use DATABASE_URL (PostgreSQL). ' +
        `If no such process is running, delete ${path.join(dataDir, PGLITE_LOCK_FILE)}.`,
    );
  }
}

const PGLITE_LOCK_FILE = 'cas.pid';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Two processes opening one PGlite directory both succeed and then corrupt it, so we keep a pid
 * file inside it. A file naming a dead process (a crash) or ourselves (pid reuse in a container
 * restart) is stale and taken over. Returns the release function.
 */
function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, PGLITE_LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder))
        throw new DataDirInUseError(dataDir, holder);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock ${file}.`);
}

/**
 * The application's Drizzle instance over `client`, with `queries` as its logger (which times its
 * statements) and its top-level transactions counted (each holds a connection).
 */
function observedDrizzle(make: (logger: QueryObserver) => Db, queries: QueryObserver): Db {
  timeStatements();
  const db = make(queries);
  const transaction = db.transaction.bind(db);
  db.transaction = (run, config) => queries.inTransaction(() => transaction(run, config));
  return db;
}

function rowsOf<T>(result: unknown): T[] {
  // postgres.js returns an array; PGlite returns { rows }.
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`${what} timed out after ${ms} ms`), { code: 'ETIMEDOUT' })),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** One lock id for "migrations are running", so N processes starting together migrate once. */
const MIGRATION_LOCK_ID = ADVISORY_LOCKS.migrations;

async function openPostgres(url: string, options: OpenOptions): Promise<Database> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const client = postgres(url, {
    max: options.poolMax ?? 10,
    connect_timeout: options.connectTimeoutSeconds ?? 5,
    idle_timeout: 30,
    onnotice: () => {},
    connection: { statement_timeout: options.statementTimeoutMs ?? 5000, application_name: 'community-activism' },
  });
  const queries = new QueryObserver(options.poolMax ?? 10, client);
  const db = observedDrizzle(
    (logger) => drizzle({ client, schema, casing: 'snake_case', logger }) as unknown as Db,
    queries,
  );
  const ping = async (timeoutMs: number) => {
    await withTimeout(client`select 1`.execute(), timeoutMs, 'database ping');
  };
  const health = new DatabaseHealth(ping);
  return {
    db,
    kind: 'postgres',
    rows: async (query, executor = db) => rowsOf(await executor.execute(query)),
    ping,
    health,
    queries,
    migrate: async () => {
      const { migrate } = await import('drizzle-orm/postgres-js/migrator');
      // A dedicated single connection holds the advisory lock for the whole run.
      const lockClient = postgres(url, {
        max: 1,
        onnotice: () => {},
        connect_timeout: options.connectTimeoutSeconds ?? 5,
      });
      try {
        await lockClient`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
        await migrate(drizzle({ client: lockClient, casing: 'snake_case' }), { migrationsFolder });
        await lockClient`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
      } finally {
        await lockClient.end({ timeout: 5 });
      }
    },
    close: () => {
      health.stop();
      return client.end({ timeout: 5 });
    },
  };
}

/**
 * PostgreSQL's shared buffers in the embedded database. PGlite leaves PostgreSQL's default
 * (128 MB), which it touches whole at start: 128 MB of the process's memory for a cache of
 * pages the operating system caches anyway (PGlite reads the data directory through the file
 * system). 16 MB keeps ~110 MB off an idle server (bench/README.md, "Start time and memory").
 * Passed at start, so an existing data directory gets it too; its postgresql.conf is not touched.
 */
const PGLITE_SHARED_BUFFERS = '16MB';

async function openPglite(dataDir: string, onProgress: (message: string) => void): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  // PostGIS without raster, topology and tiger (never created here): db/pglite-postgis.ts.
  const { postgis } = await import('./pglite-postgis.js');
  const { drizzle } = await import('drizzle-orm/pglite');
  const options = {
    extensions: { postgis },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  };
  let client: InstanceType<typeof PGlite>;
  let unlock = () => {};
  if (dataDir === ':memory:') {
    client = await PGlite.create(options);
  } else {
    const absolute = path.resolve(dataDir);
    const fresh = !existsSync(path.join(absolute, 'PG_VERSION'));
    mkdirSync(absolute, { recursive: true });
    unlock = lockDataDir(absolute);
    onProgress(
      fresh
        ? `creating the embedded database in ${dataDir} (first start takes ~10 s)`
        : `opening the embedded database in ${dataDir} (takes a few seconds)`,
    );
    try {
      client = await PGlite.create(absolute, options);
    } catch (error) {
      unlock();
      throw error;
    }
  }
  // One connection: PGlite runs one statement at a time.
  const queries = new QueryObserver(1, client);
  const db = observedDrizzle(
    (logger) => drizzle({ client, schema, casing: 'snake_case', logger }) as unknown as Db,
    queries,
  );
  return {
    db,
    kind: 'pglite',
    queries,
    rows: async (query, executor = db) => rowsOf(await executor.execute(query)),
    ping: async (timeoutMs) => {
      await withTimeout(client.query('select 1'), timeoutMs, 'database ping');
    },
    health: new AlwaysUpHealth(),
    migrate: async () => {
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(drizzle({ client, casing: 'snake_case' }), { migrationsFolder });
    },
    close: async () => {
      try {
        await client.close();
      } finally {
        unlock();
      }
    },
  };
}

export { sql };
