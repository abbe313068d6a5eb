// A private PostgreSQL cluster for tests that stop, restart or kill the database: the shared
// server on 5432 serves every other test file, so it is never touched. Made with
// pg_createcluster (as root), dropped afterwards whatever happens; clusters left by killed runs
// (their owner pid gone) are dropped first. `cannotMakeCluster` says why a machine cannot.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { freePort } from '../multiprocess/server-process.js';

const run = promisify(execFile);
const VERSION = '15';

export const cannotMakeCluster: string | null =
  process.getuid?.() !== 0
    ? 'needs root to create a private PostgreSQL cluster'
    : !existsSync('/usr/bin/pg_createcluster') || !existsSync(`/usr/lib/postgresql/${VERSION}/bin/postgres`)
      ? `needs postgresql-common and PostgreSQL ${VERSION}`
      : null;

export interface PrivateCluster {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops (fast) and starts it again in one step. */
  restart(): Promise<void>;
  /** Drops the cluster (stopping it first); safe to call twice. */
  drop(): Promise<void>;
}

/** `prefix` names this file's clusters (letters only), so stale ones of other files are left alone. */
export async function createPrivateCluster(prefix: string): Promise<PrivateCluster> {
  const { stdout } = await run('pg_lsclusters', ['-h']);
  for (const line of stdout.split('\n')) {
    const [version, name] = line.trim().split(/\s+/);
    const pid = Number(new RegExp(`^${prefix}(\\d+)$`).exec(name ?? '')?.[1]);
    if (version !== VERSION || !pid || pid === process.pid) continue;
    let alive = true;
    try {
      process.kill(pid, 0);
    } catch {
      alive = false;
    }
    if (!alive) await run('pg_dropcluster', [VERSION, name!, '--stop']).catch(() => {});
  }
  const name = `${prefix}${process.pid}`;
  const port = await freePort();
  await run('pg_createcluster', [VERSION, name, '-p', String(port), '--start', '--', '--auth=trust']);
  const ctl = (action: 'start' | 'stop' | 'restart') =>
    run('pg_ctlcluster', [
      '--skip-systemctl-redirect',
      VERSION,
      name,
      action,
      ...(action === 'start' ? [] : ['-m', 'fast']),
    ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => void (await ctl('stop')),
    start: async () => void (await ctl('start')),
    restart: async () => void (await ctl('restart')),
    drop: async () => void (await run('pg_dropcluster', [VERSION, name, '--stop']).catch(() => {})),
  };
}
