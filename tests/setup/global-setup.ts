// Once per test run: make a fresh database on the PostgreSQL server named by TEST_DATABASE_URL
// (or DATABASE_URL), migrate it, hand its URL to the tests, and drop it afterwards. Without a
// URL the tests use embedded PGlite (see database.ts).
import type { TestProject } from 'vitest/node';
import postgres from 'postgres';
import { openDatabase } from '../../db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseUrl: string | null;
  }
}

export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
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
    if (process.env.KEEP_TEST_DATABASE) return;
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  };
}
