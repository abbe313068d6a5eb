// Records the upgrade fixture of a release, once, when that release is cut (docs/upgrades.md):
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx tests/operations/record-release-fixture.ts
// For version V (package.json) it writes
//   tests/fixtures/migrations-vV/   the migrations folder as released: *.sql and meta/_journal.json
//                                   (all drizzle's migrator reads; the schema snapshots are only
//                                   drizzle-kit's, for generating the next migration)
//   tests/fixtures/data-vV/data.sql what release V wrote: a data-only dump (INSERTs) of a database
//                                   that this release's own server filled through its API
//   tests/fixtures/data-vV/dataset.json what was written (members, passwords, sessions, message
//                                   texts, ids), when, and the test-only secrets it was written with
// tests/operations/upgrade.pg.test.ts then loads every recorded release into its own schema,
// migrates it to HEAD and reads it back. A recorded release is never recorded again: the script
// refuses to overwrite one.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import packageJson from '../../package.json' with { type: 'json' };
import { startServer } from '../multiprocess/server-process.js';
import { newSecrets, writeDataset } from './dataset.js';
import { createEmptyDatabase, dropDatabase, pgRun } from './pg-tools.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const version = packageJson.version;
const migrationsOut = path.join(root, 'tests/fixtures', `migrations-v${version}`);
const dataOut = path.join(root, 'tests/fixtures', `data-v${version}`);

/** pg_dump's plain output made loadable by any client: no psql meta-commands, no comments, triggers off while loading. */
function loadableDataSql(dump: string, release: string): string {
  const statements = dump
    .split('\n')
    .filter((line) => !line.startsWith('\\') && !line.startsWith('--') && line.trim() !== '');
  return [
    `-- Data written by release ${release}'s own server through its API (tests/operations/dataset.ts),`,
    `-- dumped with pg_dump --data-only --column-inserts. Recorded once; never edit or re-record.`,
    '-- Triggers are off while loading: the dump already holds what they wrote (feed entries, counters).',
    'SET session_replication_role = replica;',
    ...statements,
    'SET session_replication_role = DEFAULT;',
    '',
  ].join('\n');
}

async function main() {
  const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!serverUrl)
    throw new Error('Set TEST_DATABASE_URL to a PostgreSQL server with PostGIS (its maintenance database).');
  if (existsSync(migrationsOut) || existsSync(dataOut))
    throw new Error(`Release ${version} is already recorded (${migrationsOut}); bump package.json's version first.`);
  const name = `cas_release_fixture_${Date.now()}`;
  const databaseUrl = await createEmptyDatabase(serverUrl, name);
  const work = mkdtempSync(path.join(tmpdir(), 'cas-release-fixture-'));
  const secrets = newSecrets();
  try {
    // This release's server migrates the empty database and writes through its API.
    const server = await startServer(databaseUrl, { ...secrets, TRUST_PROXY: '1', DATA_DIR: work });
    let dataset: Awaited<ReturnType<typeof writeDataset>>;
    try {
      dataset = await writeDataset(server.url, databaseUrl, { withImage: false });
    } finally {
      await server.stop();
    }
    // The test moves every timestamp by (its now − this), so sessions and messages have not expired.
    const recordedAt = new Date().toISOString();
    const dump = await pgRun('pg_dump', [
      '--data-only',
      '--schema=public',
      '--exclude-table=public.spatial_ref_sys',
      '--column-inserts',
      '--no-owner',
      '--no-privileges',
      `--dbname=${databaseUrl}`,
    ]);
    mkdirSync(path.join(migrationsOut, 'meta'), { recursive: true });
    for (const file of readdirSync(path.join(root, 'migrations')).filter((f) => f.endsWith('.sql')))
      cpSync(path.join(root, 'migrations', file), path.join(migrationsOut, file));
    cpSync(path.join(root, 'migrations/meta/_journal.json'), path.join(migrationsOut, 'meta/_journal.json'));
    mkdirSync(dataOut, { recursive: true });
    writeFileSync(path.join(dataOut, 'data.sql'), loadableDataSql(dump, version));
    writeFileSync(
      path.join(dataOut, 'dataset.json'),
      `${JSON.stringify({ release: version, recordedAt, note: 'test-only secrets', secrets, dataset }, null, 2)}\n`,
    );
    process.stdout.write(`recorded release ${version}: ${migrationsOut}, ${dataOut}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
    await dropDatabase(serverUrl, name);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
