// The first minutes of a process: `npm start` itself (signals reach node), the port checked
// before the slow embedded database, PGlite's progress lines, and an unreachable PostgreSQL
// retried with backoff and then named in one clear fatal line. Real processes; no database
// server needed (PGlite in temp directories, a refused port for "unreachable").
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../setup/wait.js';

const root = path.resolve(import.meta.dirname, '../..');
const spawned: number[] = [];
afterAll(() => {
  for (const pid of spawned) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
});

async function listeningServer(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

async function freePort(): Promise<number> {
  const { server, port } = await listeningServer();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs a command with the environment, collecting output; resolves with the exit code. */
function run(command: string, args: string[], env: Record<string, string>) {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', HOST: '127.0.0.1', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.push(child.pid!);
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => output };
}

/** Waits (90 s: PGlite initialises slowly on a loaded machine) for `predicate`; `what` describes it on timeout. */
async function waitUntil(predicate: () => boolean, what: () => string, ms = 90_000) {
  if (!(await eventually(predicate, { timeoutMs: ms, intervalMs: 100 })))
    throw new Error(`timed out waiting: ${what()}`);
}

describe('npm start', () => {
  // npm start runs the build (dist/), building it first when stale: built here, outside the waits below.
  beforeAll(() => {
    const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
  }, 300_000);

  it('says what it does while PGlite initialises, and SIGTERM to npm ends the server cleanly', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'cas-start-')), 'data');
    const port = await freePort();
    const webPort = await freePort();
    const npm = run('npm', ['start'], { DATA_DIR: dataDir, PORT: String(port), WEB_PORT: String(webPort) });
    await waitUntil(
      () => npm.output().includes('"msg":"web front end listening"'),
      () => npm.output(),
    );
    // npm start serves the web front end beside the API, pointed at it.
    expect(npm.output()).toContain(`"api":"http://127.0.0.1:${port}"`);
    expect(npm.output()).toContain(`creating the embedded database in ${dataDir} (first start takes ~10 s)`);
    // Links follow the port (PUBLIC_URL unset).
    expect(npm.output()).toContain(`"docs":"http://localhost:${port}/api/docs"`);

    // npm → node directly (the script execs the build, dist/), so npm's signal forwarding reaches the server.
    const children = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(npm.child.pid)], { encoding: 'utf8' });
    const node = children.split('\n').find((line) => line.includes('dist/server/main.js'));
    expect(node, children).toBeDefined();
    const nodePid = Number.parseInt(node!.trim(), 10);
    spawned.push(nodePid);

    // The magic link follows the web's port too: the web front end on WEB_PORT (MAGIC_LINK_URL
    // unset; without SMTP_URL the mail is written to the log).
    const api = `http://127.0.0.1:${port}`;
    const email = `start-${port}@example.org`;
    const register = await fetch(`${api}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'a long enough password', handle: `start_${port}` }),
    });
    expect(register.status).toBe(201);
    const ask = await fetch(`${api}/api/auth/magic-link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(ask.status).toBe(202);
    await waitUntil(
      () => npm.output().includes('/login/magic?token='),
      () => npm.output(),
      15_000,
    );
    expect(npm.output()).toContain(`http://localhost:${webPort}/login/magic?token=`);

    npm.child.kill('SIGTERM');
    const exit = await npm.exited;
    await waitUntil(
      () => !isAlive(nodePid),
      () => `node ${nodePid} still running`,
      15_000,
    );
    expect(npm.output()).toContain('"signal":"SIGTERM"');
    expect(npm.output()).toContain('"msg":"stopped"');
    expect(npm.output()).not.toContain('shutdown timeout reached');
    // npm reports the child's clean exit (0) or the signal it forwarded; never an error of ours.
    expect(exit.code === 0 || exit.signal === 'SIGTERM' || exit.code === 143, JSON.stringify(exit)).toBe(true);
    expect(existsSync(path.join(dataDir, 'cas.pid')), 'the data-dir lock is released').toBe(false);

    // The second start opens the existing database and says so.
    const again = run('npm', ['start'], { DATA_DIR: dataDir, PORT: String(port), WEB_PORT: String(webPort) });
    await waitUntil(
      () => again.output().includes('"msg":"listening"'),
      () => again.output(),
    );
    expect(again.output()).toContain(`opening the embedded database in ${dataDir}`);
    again.child.kill('SIGINT');
    await again.exited;
    expect(again.output()).toContain('"signal":"SIGINT"');
    expect(again.output()).toContain('"msg":"stopped"');
  }, 180_000);
});

describe('startup problems, named before anything slow happens', () => {
  it('a port in use fails in seconds, before the embedded database is created', async () => {
    const { server, port } = await listeningServer();
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'cas-port-')), 'data');
    try {
      const started = Date.now();
      const child = run(path.join(root, 'node_modules/.bin/tsx'), ['server/main.ts'], {
        DATA_DIR: dataDir,
        PORT: String(port),
      });
      const exit = await child.exited;
      expect(exit.code).toBe(1);
      expect(child.output()).toContain(`fatal: PORT ${port} on 127.0.0.1 is already in use`);
      expect(child.output()).not.toMatch(/\n\s+at /); // no stack trace
      expect(existsSync(dataDir)).toBe(false);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      server.close();
    }
  }, 60_000);

  it('DATABASE_URL that is not a PostgreSQL URL is named, without echoing it', async () => {
    const child = run(path.join(root, 'node_modules/.bin/tsx'), ['server/main.ts'], {
      DATABASE_URL: 'garbage-with-secret',
      PORT: String(await freePort()),
    });
    const exit = await child.exited;
    expect(exit.code).toBe(78);
    expect(child.output()).toMatch(/DATABASE_URL: must be a PostgreSQL URL/);
    expect(child.output()).not.toContain('garbage-with-secret');
    expect(child.output()).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('an unreachable PostgreSQL is retried with backoff, then one fatal line naming host:port (never the password)', async () => {
    const port = await freePort(); // nothing listens there: connection refused
    const child = run(path.join(root, 'node_modules/.bin/tsx'), ['server/main.ts'], {
      DATABASE_URL: `postgres://someone:s3cret-pw@127.0.0.1:${port}/cas`,
      DATABASE_STARTUP_TIMEOUT_SECONDS: '3',
      PORT: String(await freePort()),
    });
    const started = Date.now();
    const exit = await child.exited;
    const elapsed = Date.now() - started;
    expect(exit.code).toBe(1);
    const output = child.output();
    const retries = output.split('\n').filter((line) => line.includes('"msg":"database 127.0.0.1:'));
    expect(retries.length, output).toBeGreaterThanOrEqual(2);
    expect(retries[0]).toContain(`unreachable (ECONNREFUSED); retrying in 0.5 s`);
    expect(retries[1]).toContain('retrying in 1.0 s');
    expect(output).toContain(`fatal: The database at 127.0.0.1:${port}/cas (DATABASE_URL) was unreachable for 3 s`);
    expect(output).toContain('DATABASE_STARTUP_TIMEOUT_SECONDS');
    expect(output).not.toContain('s3cret-pw');
    expect(output).not.toMatch(/\n\s+at /);
    expect(elapsed).toBeGreaterThan(2500);
    expect(elapsed).toBeLessThan(20_000);
  }, 60_000);
});
