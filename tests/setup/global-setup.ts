// Once per test run: make a fresh database on the PostgreSQL server named by TEST_DATABASE_URL
// (or DATABASE_URL) and migrate it: the template every test file's own database is cloned from
// (database.ts). Afterwards drop it and whatever clones a crashed file left behind. Without a
// URL, a PostGIS container is started when a Docker engine answers (testcontainers); otherwise
// the tests use embedded PGlite (see database.ts).
import type { TestProject } from 'vitest/node';
import postgres from 'postgres';
import { openDatabase } from '../../db/client.js';
import { dockerAnswers } from './docker.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server's own URL (its maintenance database), for create/drop database; null on PGlite. */
    testDatabaseServerUrl: string | null;
    /** Name of the migrated template database on that server. */
    testTemplateDatabase: string | null;
  }
}

/** PostGIS image for the container path; TEST_POSTGIS_IMAGE overrides it. */
const POSTGIS_IMAGE = process.env.TEST_POSTGIS_IMAGE ?? 'postgis/postgis:15-3.4';

/** Starts a throw-away PostGIS server; returns its URL and how to stop it. */
async function startPostgisContainer(): Promise<{ url: string; stop: () => Promise<unknown> }> {
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const container = await new PostgreSqlContainer(POSTGIS_IMAGE).start();
  return { url: container.getConnectionUri(), stop: () => container.stop() };
}

export default async function setup(project: TestProject) {
  let serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  let stopContainer: (() => Promise<unknown>) | undefined;
  if (!serverUrl && (await dockerAnswers())) {
    const container = await startPostgisContainer();
    serverUrl = container.url;
    stopContainer = container.stop;
  }
  if (!serverUrl) {
    project.provide('testDatabaseServerUrl', null);
    project.provide('testTemplateDatabase', null);
    return;
  }
  const name = `cas_test_${Date.now()}_${process.pid}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  await database.migrate();
  // Nobody may stay connected to a template while it is cloned.
  await database.close();
  project.provide('testDatabaseServerUrl', serverUrl);
  project.provide('testTemplateDatabase', name);

  return async () => {
    if (!process.env.KEEP_TEST_DATABASE) {
      const left = await admin<{ datname: string }[]>`
        select datname from pg_database where datname = ${name} or datname like ${`${name}\\_%`}`;
      for (const { datname } of left) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    }
    await admin.end();
    await stopContainer?.();
  };
}
