// Contract of db/drizzle-internals.ts: two hot paths run hand-written statements prepared through
// Drizzle's session internals, and the `postgres` driver carries a patch written for its 3.4.x
// source. If this fails after an upgrade: read drizzle-orm's changelog, re-check every item listed
// at the top of db/drizzle-internals.ts against the new sources (prepareQuery's arguments, what
// execute answers per driver), re-check scripts/patch-postgres-driver.mjs against the new driver
// (tests/faults/driver-closed-socket.pg.test.ts), then update PINNED_VERSIONS and the exact
// versions in package.json and package-lock.json together.
import { readFileSync, readdirSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { PINNED_VERSIONS, preparedObjectRows, preparedValueRows, sqlToQuery } from '../../db/drizzle-internals.js';
import { acquireTestDatabase } from '../setup/database.js';

const upgradeHint = 're-check db/drizzle-internals.ts against the new version (see the top of this test file)';
const root = new URL('../../', import.meta.url);
const json = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8'));
const manifest = json('package.json') as { dependencies: Record<string, string> };
const lock = json('package-lock.json') as { packages: Record<string, { dependencies?: Record<string, string> }> };

let database: Database;
let release: () => Promise<void>;
beforeAll(async () => {
  ({ database, release } = await acquireTestDatabase());
});
afterAll(async () => {
  await release?.();
});

const statement = sqlToQuery(
  sql`select ${sql.placeholder('word')}::text as some_word, ${sql.placeholder('n')}::int + 1 as next_number`,
);

describe('drizzle internals contract', () => {
  it('runs on exactly the pinned versions', () => {
    for (const [name, version] of Object.entries(PINNED_VERSIONS)) {
      const installed = (json(`node_modules/${name}/package.json`) as { version: string }).version;
      expect(installed, `${name} ${installed} is installed: ${upgradeHint}`).toBe(version);
      expect(manifest.dependencies[name], `package.json must pin ${name} exactly: ${upgradeHint}`).toBe(version);
      expect(lock.packages['']?.dependencies?.[name], `package-lock.json must pin ${name} too`).toBe(version);
    }
  });

  it('runs with the postgres driver patched', () => {
    const connection = readFileSync(new URL('node_modules/postgres/src/connection.js', root), 'utf8');
    expect(connection, 'scripts/patch-postgres-driver.mjs did not apply').toContain(
      'community-activism-service: closed-socket patch',
    );
  });

  it('answers object rows from a prepared statement, named or not, on the database and in a transaction', async () => {
    for (const name of [undefined, 'drizzle_internals_contract_objects']) {
      const prepared = preparedObjectRows<{ some_word: string; next_number: number }>(database.db, statement, name);
      expect(await prepared.execute({ word: 'oak', n: 1 }), upgradeHint).toEqual([
        { some_word: 'oak', next_number: 2 },
      ]);
      expect(await prepared.execute({ word: 'ash', n: 41 }), 'placeholders are filled per run').toEqual([
        { some_word: 'ash', next_number: 42 },
      ]);
    }
    const inTransaction = await database.db.transaction((tx) =>
      preparedObjectRows(tx, statement).execute({ word: 'elm', n: 0 }),
    );
    expect(inTransaction, upgradeHint).toEqual([{ some_word: 'elm', next_number: 1 }]);
  });

  it('answers value rows in select order, untouched by Drizzle', async () => {
    for (const name of [undefined, 'drizzle_internals_contract_values']) {
      const prepared = preparedValueRows(database.db, statement, name);
      expect(await prepared.execute({ word: 'yew', n: 6 }), upgradeHint).toEqual([['yew', 7]]);
    }
  });

  it('times every statement through queryWithCache: execute, prepared, in a transaction', async () => {
    const seen: number[] = [];
    const slow: string[] = [];
    database.queries.onDuration = (seconds) => seen.push(seconds);
    database.queries.slowQueryMs = 0.000_001;
    database.queries.onSlowQuery = (query) => slow.push(query.statement);
    try {
      await database.db.execute(sql`select 1 as one`);
      await preparedObjectRows(database.db, statement).execute({ word: 'fir', n: 1 });
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`select 2 as two`);
        expect(database.queries.pool().inUse, 'an open transaction holds a connection').toBe(1);
      });
    } finally {
      database.queries.onDuration = undefined;
      database.queries.slowQueryMs = 0;
      database.queries.onSlowQuery = undefined;
    }
    expect(seen.length, upgradeHint).toBe(3);
    expect(slow, upgradeHint).toEqual([
      'select ? as one',
      'select $1::text as some_word, $2::int + ? as',
      'select ? as two',
    ]);
    expect(database.queries.pool()).toMatchObject({ inUse: 0, waiting: 0 });
  });

  it('is the only module that touches the session internals', () => {
    const offenders: string[] = [];
    for (const folder of ['server/', 'db/', 'web/', 'scripts/']) {
      const dir = new URL(folder, root);
      for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
        if (!/\.tsx?$/.test(file) || `${folder}${file}` === 'db/drizzle-internals.ts') continue;
        const text = readFileSync(new URL(file, dir), 'utf8');
        if (/\._\.session\b|\['_'\]|prepareQuery\(/.test(text)) offenders.push(`${folder}${file}`);
      }
    }
    expect(offenders, 'route these through db/drizzle-internals.ts').toEqual([]);
  });
});
