// Once per test run: make a fresh database on the PostgreSQL server named by TEST_DATABASE_URL
// (or DATABASE_URL), migrate it, hand its URL to the tests, and drop it afterwards. Without a
// URL, a PostGIS container is started when a Docker engine answers (testcontainers); otherwise
// the tests use embedded PGlite (see database.ts).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import postgres from 'postgres';
import { openDatabase } from '../../db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseUrl: string | null;
  }
}

/** PostGIS image for the container path; TEST_POSTGIS_IMAGE overrides it. */
const POSTGIS_IMAGE = process.env.TEST_POSTGIS_IMAGE ?? 'postgis/postgis:15-3.4';

async function dockerAnswers(): Promise<boolean> {
  if (process.env.TESTCONTAINERS === '0') return false;
  try {
    await promisify(execFile)('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 5000 });
    return true;
  } catch {
    return false; // no docker CLI, or only the client with no engine behind it
  }
}

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
    project.provide('testDatabaseUrl', null);
    return;
  }
  const name = `cas_test_${Date.now()}_${process.pid}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  await database.migrate();
  await database.close();
  project.provide('testDatabaseUrl', url.toString());

  return async () => {
    if (!process.env.KEEP_TEST_DATABASE) await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
    await stopContainer?.();
  };
}
