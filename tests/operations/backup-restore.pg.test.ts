// Backup and restore as docs/backups.md tells an operator to do it: a server writes a small
// community (members, sessions, encrypted messages, a group title, an uploaded photo, a place, a
// post); `pg_dump -Fc` dumps its database while it runs; the dump is restored into a new empty
// database owned by an unprivileged application role (PostGIS created by a superuser first,
// `pg_restore --no-owner --role`), the upload directory is copied; a new server, connecting as that
// role, with the same secrets
// (MESSAGE_KEYS, RATE_LIMIT_KEY_SECRET, VAPID keys) but an empty DATA_DIR of its own, starts on
// the restored database and serves everything. A server given other message keys and no copy of
// the uploads shows what is lost without them. PostgreSQL only (pg_dump, server processes).
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testDatabaseUrl } from '../setup/database.js';
import { http, startServer, type ServerProcess } from '../multiprocess/server-process.js';
import { clientIp, type Dataset, newSecrets, writeDataset } from './dataset.js';
import { expectDataset } from './expect-dataset.js';
import { databaseUrlFor, dropDatabase, pgRun, restoreAsApplicationRole } from './pg-tools.js';

const sourceUrl = testDatabaseUrl()!;
const serverUrl = inject('testDatabaseServerUrl')!;
/** Named after this file's database, so the run's teardown drops it should this file crash. */
const restoredName = `${new URL(sourceUrl).pathname.slice(1)}_restored`;
/** The application's own role on the restored database (no superuser, as in production). */
const role = `${restoredName}_app`;
const rolePassword = randomBytes(12).toString('hex');
const secrets = newSecrets();

let work: string;
const servers: ServerProcess[] = [];
let dataset: Dataset;
let dumpFile: string;
let restoredUrl: string;

/** A server with the deployment's secrets, its own DATA_DIR and the given upload directory. */
async function start(databaseUrl: string, name: string, env: Record<string, string> = {}) {
  const server = await startServer(databaseUrl, {
    ...secrets,
    TRUST_PROXY: '1',
    DATA_DIR: path.join(work, `${name}-data`),
    IMAGE_STORAGE_DIR: path.join(work, `${name}-images`),
    ...env,
  });
  servers.push(server);
  return server;
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'cas-backup-'));
  dumpFile = path.join(work, 'cas.dump');
  const original = await start(sourceUrl, 'original');
  dataset = await writeDataset(original.url, sourceUrl, { withImage: true });
  // Online: pg_dump reads one consistent snapshot while the server keeps serving.
  await pgRun('pg_dump', ['--format=custom', `--file=${dumpFile}`, `--dbname=${sourceUrl}`]);
  await original.stop();
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create role "${role}" login password '${rolePassword}'`);
    await admin.unsafe(`create database "${restoredName}" template template0 owner "${role}"`);
  } finally {
    await admin.end();
  }
  const superuserUrl = databaseUrlFor(serverUrl, restoredName);
  const postgis = postgres(superuserUrl, { max: 1, onnotice: () => {} });
  try {
    await postgis`create extension postgis`;
  } finally {
    await postgis.end();
  }
  await restoreAsApplicationRole(dumpFile, superuserUrl, role);
  const url = new URL(superuserUrl);
  url.username = role;
  url.password = rolePassword;
  restoredUrl = url.toString();
  // The upload directory goes with the dump (with S3, the bucket): copied as files.
  cpSync(path.join(work, 'original-images'), path.join(work, 'restored-images'), { recursive: true });
}, 240_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await dropDatabase(serverUrl, restoredName);
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop role if exists "${role}"`);
  } finally {
    await admin.end();
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('a pg_dump restored into a fresh database', () => {
  it('holds the schema, PostGIS and the migration journal, so the server applies no migration again', async () => {
    const sql = postgres(restoredUrl, { max: 1, onnotice: () => {} });
    const source = postgres(sourceUrl, { max: 1, onnotice: () => {} });
    try {
      const [postgis] = await sql`select extversion from pg_extension where extname = 'postgis'`;
      expect(postgis?.extversion).toBeTruthy();
      const journal = (db: postgres.Sql) => db`select hash, created_at from drizzle.__drizzle_migrations order by id`;
      expect(await journal(sql)).toEqual(await journal(source));
      const counts = (db: postgres.Sql) =>
        db`select (select count(*) from users)::int as users, (select count(*) from messages)::int as messages,
                  (select count(*) from places)::int as places`;
      expect(await counts(sql)).toEqual(await counts(source));
    } finally {
      await Promise.all([sql.end(), source.end()]);
    }
  });

  it('serves what the old server wrote: sign-in, old sessions, messages decrypted, the photo, places, posts', async () => {
    const restored = await start(restoredUrl, 'restored');
    await expectDataset(restored.url, dataset, secrets);
    expect(restored.output()).not.toMatch(/"level":(50|60)/);
  }, 120_000);

  it('without the same MESSAGE_KEYS messages do not open, and without the uploads the photo is gone', async () => {
    const other = newSecrets();
    const careless = await start(restoredUrl, 'careless', { MESSAGE_KEYS: other.MESSAGE_KEYS });
    const { bob } = dataset.members;
    const login = await http(careless.url, 'POST', '/api/auth/login', {
      ip: clientIp(),
      body: { email: bob.email, password: bob.password },
    });
    expect(login.status).toBe(200);
    const messages = await http(careless.url, 'GET', `/api/conversations/${dataset.direct.id}/messages`, {
      token: bob.token,
      ip: clientIp(),
    });
    expect(messages.status).toBe(200);
    expect(messages.body.items.length).toBeGreaterThan(0);
    expect(
      messages.body.items.every((m: { body: string; unreadable?: boolean }) => m.unreadable && m.body === ''),
    ).toBe(true);
    expect((await fetch(`${careless.url}/uploads/images/${dataset.imageKey}`)).status).toBe(404);
  }, 120_000);
});
