// Every benchmark end to end in its tiny mode (`--tiny`: a small data set, a second or two per
// target), so a change of shape in the API breaks CI instead of the next benchmark run (the
// places bench once stopped on its own sanity check for weeks because nothing ran it). Each
// bench runs as a child process, with a bounded time, and must exit 0, print the sanity lines it
// is listed with (bench/shared/tiny.ts: sanityOk), drop the databases it made and leave no
// process behind. PostgreSQL only (*.pg.test.ts): the benches create and drop databases.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { describe, expect, inject, it } from 'vitest';
import { eventually } from '../setup/wait.js';

interface TinyBench {
  name: string;
  /** Run as `node --import tsx <script> --tiny` from the repository root. */
  script: string;
  /** Sanity lines it must print ("sanity ok: <check>…"), each given by how it starts. */
  checks: string[];
}

/** Adding a benchmark to CI is one entry here (and `--tiny` in the bench: bench/README.md). */
const tinyBenches: TinyBench[] = [
  {
    name: 'places',
    script: 'bench/places/run.ts',
    checks: ['places city boxes: api, bare, naive answer byte-identical', 'places continent boxes:', 'places:'],
  },
  {
    name: 'feed',
    script: 'bench/feed/run.ts',
    checks: ['feed: api, bare, naive, floor answer byte-identical', 'feed:'],
  },
  {
    name: 'blocks',
    script: 'bench/feed/blocks.ts',
    checks: ['blocks: the page is the same', 'blocks: the checks are per-row probes', 'blocks: ratio'],
  },
  {
    name: 'transport',
    script: 'bench/transport/run.ts',
    checks: ['transport city:', 'transport continent:', 'transport slug:', 'transport:'],
  },
  { name: 'processes', script: 'bench/processes/run.ts', checks: ['processes city boxes:', 'processes:'] },
  { name: 'realtime', script: 'bench/realtime/run.ts', checks: ['realtime: ', 'realtime yard stick:'] },
  {
    name: 'sendpath',
    script: 'bench/sendpath/run.ts',
    checks: ['sendpath send ', 'sendpath POSTs: all ', 'sendpath:'],
  },
  { name: 'events', script: 'bench/events.ts', checks: ['events:'] },
  { name: 'load', script: 'bench/load/load.ts', checks: ['load:'] },
  { name: 'soak', script: 'bench/soak/soak.ts', checks: ['soak:'] },
  {
    name: 'startup',
    script: 'bench/startup/run.ts',
    checks: ['startup pg-warm: 1 starts healthy', 'startup pglite-cold: 1 starts healthy', 'startup:'],
  },
];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** A tiny run takes 15–45 s on a loaded 2-core machine; past this it is stuck, not slow. */
const BENCH_TIMEOUT_MS = 150_000;
/** Two at a time: each bench has servers, a load generator and PostgreSQL to share the cores. */
const PARALLEL = 2;

let free = PARALLEL;
const waiting: (() => void)[] = [];
async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (free > 0) free -= 1;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else free += 1;
  }
}

/** Whether any process of the group (the bench and every server it started) is still alive. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function runTiny(bench: TinyBench, serverUrl: string, run: string) {
  const origin = new URL(serverUrl);
  origin.pathname = '';
  // Its own process group (detached), so a bench that hangs is killed with every server it started.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', bench.script, '--tiny'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      BENCH_PG_URL: origin.toString().replace(/\/+$/, ''),
      BENCH_SERVER_URL: serverUrl,
      BENCH_TINY_RUN: run,
    },
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    process.kill(-child.pid!, 'SIGKILL');
  }, BENCH_TIMEOUT_MS);
  const code = await new Promise<number | string>((resolve) =>
    child.on('close', (exitCode, signal) => resolve(exitCode ?? String(signal))),
  );
  clearTimeout(timer);
  // The bench kills its servers on the way out; give the signals a moment to land.
  await eventually(() => !groupAlive(child.pid!), { timeoutMs: 10_000, intervalMs: 100 });
  const leftProcesses = groupAlive(child.pid!);
  if (leftProcesses) process.kill(-child.pid!, 'SIGKILL');
  return { code, output, timedOut, leftProcesses };
}

/** Drops whatever databases a run left behind (there should be none) and answers their names. */
async function dropLeftDatabases(serverUrl: string, run: string): Promise<string[]> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    const left = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like ${`cas_bench_tiny_${run}\\_%`}`;
    for (const { datname } of left) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    return left.map((row) => row.datname);
  } finally {
    await admin.end();
  }
}

describe.concurrent('benchmarks in tiny mode (PostgreSQL)', () => {
  const serverUrl = inject('testDatabaseServerUrl');

  for (const bench of tinyBenches) {
    it.skipIf(!serverUrl)(`${bench.name} runs, checks its answers, and cleans up`, { timeout: 600_000 }, async () => {
      const run = randomBytes(4).toString('hex');
      const result = await slot(() => runTiny(bench, serverUrl!, run));
      const leftDatabases = await dropLeftDatabases(serverUrl!, run);
      const tail = result.output.slice(-3000);
      expect(result.timedOut, `${bench.name} ran past ${BENCH_TIMEOUT_MS / 1000} s:\n${tail}`).toBe(false);
      expect(result.code, `${bench.name} failed:\n${tail}`).toBe(0);
      const printed = result.output
        .split('\n')
        .filter((line) => line.startsWith('sanity ok: '))
        .map((line) => line.slice('sanity ok: '.length));
      for (const check of bench.checks)
        expect(
          printed.some((line) => line.startsWith(check)),
          `${bench.name} never said "${check}…":\n${tail}`,
        ).toBe(true);
      expect(leftDatabases, `${bench.name} left databases behind`).toEqual([]);
      expect(result.leftProcesses, `${bench.name} left processes running`).toBe(false);
    });
  }
});
