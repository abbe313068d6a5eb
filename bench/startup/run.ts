// Start time and memory of the server as an operator runs it (issue #23): spawns the server as a
// child process and times spawn → first 200 from /healthz and from /readyz, then, after it has
// idled a few seconds, reads the resident memory (VmRSS, and the peak VmHWM) of the server's node
// process from /proc: the largest process of the spawned tree, so `npm start` measures the
// server, not npm. Three modes, each over N rounds:
//   pg-warm      PostgreSQL, a database of its own, migrated by one untimed start first
//   pglite-warm  the embedded database, an existing data directory (made by one untimed start)
//   pglite-cold  the embedded database, an empty data directory each round (initdb, PostGIS, migrations)
// Prints a Markdown table with the machine's load average (before and after) and core count.
//
//   npm run bench:startup                                   # 5 rounds of each mode (~3 min on a quiet machine)
//   npm run bench:startup -- --rounds 3 --modes pglite-warm
//   npm run bench:startup -- --command "node dist/server/main.js --web"   # another start command
//   npm run bench:startup -- --tiny                         # CI's check: one pg-warm and one pglite-cold start
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { freePort } from '../../tests/multiprocess/server-process.js';
import { serverUrl } from '../places/load.js';
import { fmt, median, saveResults } from '../shared/report.js';
import { benchSecrets } from '../shared/secrets.js';
import { sanityOk, tiny, tinyDatabaseName } from '../shared/tiny.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MODES = ['pg-warm', 'pglite-warm', 'pglite-cold'] as const;
type Mode = (typeof MODES)[number];

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    modes: { type: 'string', default: MODES.join(',') },
    idle: { type: 'string', default: '5' },
    // What `npm start` runs, spawned directly so signals and the pid are the server's.
    command: { type: 'string', default: 'node --import tsx server/main.ts --web' },
    tiny: { type: 'boolean', default: false },
  },
});
const rounds = tiny ? 1 : Math.min(Math.max(Number(values.rounds), 1), 20);
const idleSeconds = tiny ? 1 : Math.min(Math.max(Number(values.idle), 0), 60);
const modes = (tiny ? ['pg-warm', 'pglite-cold'] : values.modes.split(',')) as Mode[];
for (const mode of modes)
  if (!MODES.includes(mode)) throw new Error(`unknown mode ${mode}: one of ${MODES.join(', ')}`);
const command = values.command.split(/\s+/).filter(Boolean);
/** `node` is this process's node (the project's Node 24), not whatever is first on PATH. */
if (command[0] === 'node') command[0] = process.execPath;
/** A start slower than this is stuck, not slow (a cold embedded start on a loaded 2-core machine: ~1 min). */
const START_TIMEOUT_MS = 180_000;

interface Sample {
  mode: Mode;
  round: number;
  healthyMs: number;
  readyMs: number;
  rssMb: number;
  hwmMb: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** Every process under `pid` (itself included), from /proc's parent links. */
function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++)
    for (const [child, parent] of parents) if (parent === tree[i] && !tree.includes(child)) tree.push(child);
  return tree;
}

/** VmRSS and VmHWM (MB) of a process; zeros when it is gone. */
function memoryOf(pid: number): { rssMb: number; hwmMb: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
  } catch {
    return { rssMb: 0, hwmMb: 0 };
  }
}

/** The server's memory: the largest process of the tree (npm, a shell or tsx's parent are small). */
function serverMemory(pid: number): { rssMb: number; hwmMb: number } {
  return processTree(pid)
    .map(memoryOf)
    .reduce((a, b) => (b.rssMb > a.rssMb ? b : a), { rssMb: 0, hwmMb: 0 });
}

async function answers200(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false; // not listening yet
  }
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: () => string | null;
}

function spawnServer(env: Record<string, string>): Started {
  const child = spawn(command[0]!, command.slice(1), {
    cwd: root,
    detached: true, // its own process group: stopped with whatever it started
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  let exit: string | null = null;
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  child.on('exit', (code, signal) => (exit = String(code ?? signal)));
  return { child, output: () => output, exited: () => exit };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

async function stop(started: Started) {
  if (started.exited() !== null) return;
  const done = new Promise<void>((resolve) => started.child.once('exit', () => resolve()));
  killGroup(started.child, 'SIGTERM');
  const timer = setTimeout(() => killGroup(started.child, 'SIGKILL'), 15_000);
  await done;
  clearTimeout(timer);
  // npm or a shell may exit before the server it started; wait for the whole group.
  for (let i = 0; i < 150; i++) {
    try {
      process.kill(-started.child.pid!, 0);
    } catch {
      return;
    }
    await sleep(100);
  }
  killGroup(started.child, 'SIGKILL');
}

const running = new Set<Started>();
process.on('exit', () => {
  for (const started of running) killGroup(started.child, 'SIGKILL');
});

/** One start: spawn → /healthz 200 → /readyz 200 → idle → memory → SIGTERM. */
async function startOnce(env: Record<string, string>): Promise<Omit<Sample, 'mode' | 'round'>> {
  const port = await freePort();
  const webPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const startedAt = performance.now();
  const started = spawnServer({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    WEB_PORT: String(webPort),
    PUBLIC_URL: base,
    ...benchSecrets,
    ...env,
  });
  running.add(started);
  try {
    let healthyMs = Number.NaN;
    let readyMs = Number.NaN;
    while (Number.isNaN(readyMs)) {
      if (started.exited() !== null)
        throw new Error(`server exited (${started.exited()}) while starting:\n${started.output()}`);
      if (performance.now() - startedAt > START_TIMEOUT_MS)
        throw new Error(`server not ready after ${START_TIMEOUT_MS} ms:\n${started.output()}`);
      if (Number.isNaN(healthyMs) && (await answers200(`${base}/healthz`))) healthyMs = performance.now() - startedAt;
      if (!Number.isNaN(healthyMs) && (await answers200(`${base}/readyz`))) readyMs = performance.now() - startedAt;
      else await sleep(20);
    }
    await sleep(idleSeconds * 1000);
    const memory = serverMemory(started.child.pid!);
    return { healthyMs, readyMs, ...memory };
  } finally {
    await stop(started);
    running.delete(started);
  }
}

async function withPostgresDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const name = tiny ? tinyDatabaseName('startup') : 'cas_bench_startup';
  const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });
  try {
    // A fresh database each run: the first (untimed) start migrates it.
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.unsafe(`create database "${name}"`);
    return await work(`${serverUrl}/${name}`);
  } finally {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

function withDataDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cas-bench-startup-'));
  return work(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

async function measure(mode: Mode): Promise<Sample[]> {
  const samples: Sample[] = [];
  const record = (round: number, sample: Omit<Sample, 'mode' | 'round'>) => {
    samples.push({ mode, round, ...sample });
    console.error(
      `${mode} round ${round}: healthy ${fmt(sample.healthyMs)} ms, ready ${fmt(sample.readyMs)} ms, ` +
        `RSS ${fmt(sample.rssMb)} MB (peak ${fmt(sample.hwmMb)} MB), load ${loadavg()}`,
    );
  };
  if (mode === 'pg-warm') {
    await withPostgresDatabase(async (url) => {
      // Migrates, not timed (in tiny mode the timed start migrates: its figures mean nothing anyway).
      if (!tiny) await startOnce({ DATABASE_URL: url });
      for (let round = 1; round <= rounds; round++) record(round, await startOnce({ DATABASE_URL: url }));
    });
  } else if (mode === 'pglite-warm') {
    await withDataDir(async (dir) => {
      await startOnce({ DATA_DIR: dir }); // creates and migrates: not timed
      for (let round = 1; round <= rounds; round++) record(round, await startOnce({ DATA_DIR: dir }));
    });
  } else {
    for (let round = 1; round <= rounds; round++)
      await withDataDir(async (dir) => record(round, await startOnce({ DATA_DIR: dir })));
  }
  return samples;
}

const loadBefore = loadavg();
const all: Sample[] = [];
for (const mode of modes) {
  const samples = await measure(mode);
  all.push(...samples);
  const ok = samples.every((s) => Number.isFinite(s.healthyMs) && Number.isFinite(s.readyMs) && s.rssMb > 0);
  if (!ok) throw new Error(`${mode}: a start gave no timing or no memory figure`);
  sanityOk(`startup ${mode}: ${samples.length} starts healthy and ready, memory read`);
}
const loadAfter = loadavg();

const range = (xs: number[]) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;
console.log(
  `\nStart time and memory: \`${values.command}\`, ${rounds} round(s), idle ${idleSeconds} s before the memory reading`,
);
console.log(`load average (1, 5, 15 min) ${loadBefore} before, ${loadAfter} after; ${cpus().length} cores\n`);
console.log(
  '| mode | healthy ms, median (min–max) | ready ms, median | RSS idle MB, median (min–max) | peak RSS MB, median |',
);
console.log('|---|---|---|---|---|');
for (const mode of modes) {
  const samples = all.filter((s) => s.mode === mode);
  const healthy = samples.map((s) => s.healthyMs);
  const rss = samples.map((s) => s.rssMb);
  console.log(
    `| ${mode} | ${fmt(median(healthy))} (${range(healthy)}) | ${fmt(median(samples.map((s) => s.readyMs)))} | ` +
      `${fmt(median(rss))} (${range(rss)}) | ${fmt(median(samples.map((s) => s.hwmMb)))} |`,
  );
}
const file = saveResults('startup', {
  command: values.command,
  rounds,
  idleSeconds,
  loadBefore,
  loadAfter,
  samples: all,
});
console.log(`\nresults: ${file}`);
sanityOk('startup: every mode measured');
