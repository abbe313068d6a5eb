// PostgreSQL's client programs (pg_dump, pg_restore) for the backup tests: on PATH, else in the
// newest /usr/lib/postgresql/<version>/bin (Debian installs them there), run with the URL.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';

const run = promisify(execFile);

export function pgTool(name: 'pg_dump' | 'pg_restore'): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const candidate = path.join(root, version, 'bin', name);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`${name} not found on PATH or in ${root}/*/bin (install postgresql-client)`);
}

/** Runs a PostgreSQL client program; throws with its stderr when it fails. */
export async function pgRun(name: 'pg_dump' | 'pg_restore', args: string[]): Promise<string> {
  try {
    const { stdout } = await run(pgTool(name), args, { maxBuffer: 256 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`${name} ${args.join(' ')} failed: ${stderr ?? String(error)}`);
  }
}

/** The URL of database `name` on the server of `url`. */
export function databaseUrlFor(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Creates an empty database (from template0, as `createdb -T template0` does). */
export async function createEmptyDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}" template template0`);
  } finally {
    await admin.end();
  }
  return databaseUrlFor(serverUrl, name);
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end();
  }
}

/**
 * Restores a `pg_dump -Fc` file as docs/backups.md says, into a database that the application's
 * role owns and where a superuser already created PostGIS: the two entries only the extension's
 * owner may restore (its comment; spatial_ref_sys, which holds no rows of ours) are left out.
 */
export async function restoreAsApplicationRole(dumpFile: string, url: string, role: string): Promise<void> {
  const listing = await pgRun('pg_restore', ['--list', dumpFile]);
  const listFile = `${dumpFile}.list`;
  writeFileSync(
    listFile,
    listing
      .split('\n')
      .filter((line) => !/COMMENT - EXTENSION postgis|TABLE DATA public spatial_ref_sys/.test(line))
      .join('\n'),
  );
  await pgRun('pg_restore', [
    '--no-owner',
    `--role=${role}`,
    '--exit-on-error',
    `--use-list=${listFile}`,
    `--dbname=${url}`,
    dumpFile,
  ]);
}
