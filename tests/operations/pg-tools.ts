// PostgreSQL's client programs (pg_dump, pg_restore) for the backup tests: on PATH, else in the
// newest /usr/lib/postgresql/<version>/bin (Debian installs them there), run with the URL.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
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
