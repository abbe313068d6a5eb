// Upgrades from every recorded release (tests/fixtures/migrations-v*, data-v*; recorded once per
// release by record-release-fixture.ts, see docs/upgrades.md): a fresh database gets the
// release's own migrations, then the data that release's server wrote through its API; HEAD's
// server starts on it, applies HEAD's migrations and must serve that data: members sign in with
// their passwords and keep their sessions, messages and the group's title decrypt, the place is
// listed, the post reads. Also: the released migrations are still in migrations/, byte for byte
// (migrations are forward-only: a released one is never edited). PostgreSQL only (server processes).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrationsFolder } from '../../db/client.js';
import { testDatabaseUrl } from '../setup/database.js';
import { startServer, type ServerProcess } from '../multiprocess/server-process.js';
import type { Dataset, DeploymentSecrets } from './dataset.js';
import { expectDataset } from './expect-dataset.js';
import { createEmptyDatabase, dropDatabase } from './pg-tools.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
const releases = readdirSync(fixtures)
  .filter((name) => name.startsWith('migrations-v'))
  .map((name) => name.slice('migrations-v'.length));
const serverUrl = inject('testDatabaseServerUrl')!;
const fileDatabase = new URL(testDatabaseUrl()!).pathname.slice(1);

interface Journal {
  entries: { idx: number; when: number; tag: string }[];
}
const journalOf = (folder: string): Journal =>
  JSON.parse(readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8'));

interface Recording {
  release: string;
  recordedAt: string;
  secrets: DeploymentSecrets;
  dataset: Dataset;
}

/** Every stored time moves by (now − recordedAt): the recording reads as written a moment ago, so nothing has expired. */
async function loadRecording(sql: postgres.Sql, dataSql: string, recordedAt: string) {
  await sql.unsafe(dataSql).simple();
  const columns = await sql<{ table: string; column: string }[]>`
    select table_name as table, column_name as column from information_schema.columns
    where table_schema = 'public' and data_type in ('timestamp with time zone', 'timestamp without time zone')`;
  await sql.begin(async (tx) => {
    // As when loading: triggers would count or fan out again what the recording already holds.
    await tx`set local session_replication_role = replica`;
    for (const { table, column } of columns) {
      await tx.unsafe(`update public."${table}" set "${column}" = "${column}" + (now() - $1::timestamptz)`, [
        recordedAt,
      ]);
    }
  });
}

it('finds at least the 0.1.0 release recorded', () => {
  expect(releases).toContain('0.1.0');
});

describe.each(releases)('upgrading from release %s', (release) => {
  const releaseMigrations = path.join(fixtures, `migrations-v${release}`);
  const recording: Recording = JSON.parse(readFileSync(path.join(fixtures, `data-v${release}/dataset.json`), 'utf8'));
  const name = `${fileDatabase}_v${release.replace(/\W/g, '_')}`;
  let databaseUrl: string;
  let work: string;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'cas-upgrade-'));
    databaseUrl = await createEmptyDatabase(serverUrl, name);
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      await migrate(drizzle({ client: sql, casing: 'snake_case' }), { migrationsFolder: releaseMigrations });
      await loadRecording(
        sql,
        readFileSync(path.join(fixtures, `data-v${release}/data.sql`), 'utf8'),
        recording.recordedAt,
      );
      const [row] = await sql<{ applied: number }[]>`
        select count(*)::int as applied from drizzle.__drizzle_migrations`;
      expect(row?.applied).toBe(journalOf(releaseMigrations).entries.length);
    } finally {
      await sql.end();
    }
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await dropDatabase(serverUrl, name);
    rmSync(work, { recursive: true, force: true });
  });

  it("keeps the release's migrations in migrations/ unchanged (forward-only)", () => {
    const head = journalOf(migrationsFolder).entries;
    for (const entry of journalOf(releaseMigrations).entries) {
      expect(head[entry.idx], `journal entry ${entry.idx}`).toEqual(entry);
      const released = readFileSync(path.join(releaseMigrations, `${entry.tag}.sql`), 'utf8');
      expect(readFileSync(path.join(migrationsFolder, `${entry.tag}.sql`), 'utf8'), entry.tag).toBe(released);
    }
  });

  it("starts on the release's database, applies HEAD's migrations, and serves what the release wrote", async () => {
    server = await startServer(databaseUrl, { ...recording.secrets, TRUST_PROXY: '1', DATA_DIR: work });
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      const applied = await sql<
        { created_at: string }[]
      >`select created_at from drizzle.__drizzle_migrations order by id`;
      expect(applied.map((row) => Number(row.created_at))).toEqual(
        journalOf(migrationsFolder).entries.map((e) => e.when),
      );
    } finally {
      await sql.end();
    }
    await expectDataset(server.url, recording.dataset, recording.secrets);
    expect(server.output()).not.toMatch(/"level":(50|60)/);
  }, 120_000);
});
