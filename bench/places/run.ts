// The bounding-box benchmark: autocannon on `GET /api/places?bbox=…` against
//   api    the real API (createApp, NODE_ENV=production, LOG_LEVEL=silent) on cas_bench_<size>
//   bare   Hono + postgres.js running the same SQL on the same database
//   naive  Hono + postgres.js running the original query on cas_bench_<size>_naive (no design indexes)
// with random city-sized (0.2°) and continent-sized (30°) boxes, in alternating rounds so that
// background load on the machine hits all three alike. Prints a markdown table and writes
// bench/places/results-<size>.json.
//
//   npm run bench:places                       # both sizes, 3 rounds × 10 s, 16 connections
//   npm run bench:places -- --sizes 10k --rounds 2 --duration 5 --connections 10
//   npm run bench:places -- --tiny             # CI's check: 2,000 places in a throw-away database, 1 s per target
import autocannon, { type Result } from 'autocannon';
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { parseArgs } from 'node:util';
import { boxGenerator, makeCities, type BoxKind } from './data.js';
import { databaseName, dropPlaces, loadPlacesInto, serverUrl, SIZES, TINY_PLACES, type SizeName } from './load.js';
import { checkNoFailedRequests, firstDifference, sanityOk, tiny, tinyDatabaseName } from '../shared/tiny.js';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10k,1m' },
    kinds: { type: 'string', default: 'city,continent' },
    targets: { type: 'string', default: 'api,bare,naive' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    tiny: { type: 'boolean', default: false },
  },
});

type Target = 'api' | 'bare' | 'naive';
/** A loaded set: one of SIZES, or this tiny run's own. */
type SetName = SizeName | 'tiny';
interface Sample {
  size: SetName;
  kind: BoxKind;
  target: Target;
  round: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU milliseconds per request: the servers' Node process, and the PostgreSQL backends serving them. */
  nodeMs: number;
  pgMs: number;
}

const sizes: SetName[] = tiny ? ['tiny'] : (args.sizes.split(',') as SizeName[]);
const kinds = args.kinds.split(',') as BoxKind[];
const targets = args.targets.split(',') as Target[];
const rounds = tiny ? 1 : Number(args.rounds);
const duration = tiny ? 1 : Number(args.duration);
const warmup = tiny ? 0 : 5;
const connections = tiny ? 4 : Number(args.connections);
/** The database of a set (its naive copy is `<name>_naive`); a tiny run loads its own. */
const nameOf = (size: SetName) => (size === 'tiny' ? tinyDatabaseName('places') : databaseName(size));
const cities = makeCities();

interface Servers {
  ports: Record<Target, number>;
  /** CPU time used so far by the servers' process, in ms. */
  cpu: () => Promise<number>;
  /** Stops the servers' process and waits until it is gone (it holds connections to the databases). */
  stop: () => Promise<void>;
}

function startServers(name: string): Promise<Servers> {
  const child = fork(fileURLToPath(new URL('./servers.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      BENCH_DB_URL: `${serverUrl}/${name}`,
      BENCH_NAIVE_DB_URL: `${serverUrl}/${name}_naive`,
    },
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`servers exited with ${code}`)));
    child.once('message', (message) => {
      child.removeAllListeners('exit');
      const cpu = () =>
        new Promise<number>((done) => {
          child.once('message', (reply) => {
            const { user, system } = (reply as { cpu: NodeJS.CpuUsage }).cpu;
            done((user + system) / 1000);
          });
          child.send('cpu');
        });
      const stop = () =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGTERM');
        });
      resolve({ ports: (message as { ports: Record<Target, number> }).ports, cpu, stop });
    });
  });
}

/**
 * The three servers must agree byte for byte on what a box contains before their speed is
 * compared; when they do not, the error names the first field that differs.
 */
async function checkSameAnswers(ports: Record<Target, number>, kind: BoxKind) {
  const nextBox = boxGenerator(cities, kind, 99);
  let places = 0;
  for (let i = 0; i < 20; i++) {
    const path = `/api/places?bbox=${nextBox()}`;
    const bodies = await Promise.all(
      targets.map(async (t) => (await fetch(`http://127.0.0.1:${ports[t]}${path}`)).text()),
    );
    for (const [j, body] of bodies.entries()) {
      const difference = firstDifference(bodies[0]!, body, [targets[0]!, targets[j]!]);
      if (difference) throw new Error(`${targets[0]} and ${targets[j]} disagree on ${path}: ${difference}`);
    }
    places += (JSON.parse(bodies[0]!) as { items: unknown[] }).items.length;
  }
  // Twenty empty pages would prove nothing about the fields.
  if (places === 0) throw new Error(`no ${kind} box found a place: the check compared empty pages`);
  sanityOk(`places ${kind} boxes: ${targets.join(', ')} answer byte-identical bodies (${places} places in 20 pages)`);
}

async function hit(port: number, kind: BoxKind, seconds: number, seed: number): Promise<Result> {
  const nextBox = boxGenerator(cities, kind, seed);
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/api/places?bbox=${nextBox()}` }) }],
  });
}

const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });
const TICK_MS = 10; // /proc/<pid>/stat counts CPU in clock ticks of 1/100 s

/** CPU time (ms) of every backend connected to a database, by pid; read from /proc (same machine). */
async function backendCpu(database: string): Promise<Map<number, number>> {
  const rows = await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${database}`;
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * TICK_MS);
    } catch {
      // The backend ended between the two reads.
    }
  }
  return cpu;
}

function cpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

async function measure(servers: Servers, size: SetName, target: Target, kind: BoxKind, round: number): Promise<Sample> {
  const database = nameOf(size) + (target === 'naive' ? '_naive' : '');
  const [node0, pg0] = [await servers.cpu(), await backendCpu(database)];
  const result = await hit(servers.ports[target], kind, duration, 1000 + round);
  const [node1, pg1] = [await servers.cpu(), await backendCpu(database)];
  const count = result.requests.total || 1;
  return {
    size,
    kind,
    target,
    round,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    nodeMs: (node1 - node0) / count,
    pgMs: cpuDelta(pg0, pg1) / count,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (n: number) => (n >= 100 ? Math.round(n).toString() : n.toFixed(1));

function summarize(samples: Sample[], size: SetName, kind: BoxKind) {
  const of = (target: Target) => samples.filter((s) => s.size === size && s.kind === kind && s.target === target);
  const row = (target: Target) => {
    const xs = of(target);
    return xs.length
      ? {
          rps: median(xs.map((s) => s.rps)),
          p50: median(xs.map((s) => s.p50)),
          p99: median(xs.map((s) => s.p99)),
          cpu: median(xs.map((s) => s.nodeMs + s.pgMs)),
          errors: xs.reduce((a, s) => a + s.errors, 0),
        }
      : null;
  };
  // Ratios per round (the rounds alternate, so each pair shared the same background load), then the median.
  const ratio = (a: Target, b: Target) => {
    const pairs = of(a)
      .map((s) => s.rps / (of(b).find((t) => t.round === s.round)?.rps ?? NaN))
      .filter(Number.isFinite);
    return pairs.length ? median(pairs) : null;
  };
  return {
    size,
    kind,
    api: row('api'),
    bare: row('bare'),
    naive: row('naive'),
    apiOverBare: ratio('api', 'bare'),
    bareOverNaive: ratio('bare', 'naive'),
    apiOverNaive: ratio('api', 'naive'),
  };
}

const samples: Sample[] = [];
const summaries: ReturnType<typeof summarize>[] = [];
for (const size of sizes) {
  if (size !== 'tiny' && !(size in SIZES)) throw new Error(`Unknown size ${size}`);
  if (size === 'tiny') await loadPlacesInto(nameOf(size), TINY_PLACES);
  const servers = await startServers(nameOf(size)).catch(async (error) => {
    if (size === 'tiny') await dropPlaces(nameOf(size));
    throw error;
  });
  const { ports, stop } = servers;
  try {
    for (const kind of kinds) {
      await checkSameAnswers(ports, kind);
      if (warmup) for (const target of targets) await hit(ports[target], kind, warmup, 1); // warm the JIT and the caches
      for (let round = 1; round <= rounds; round++) {
        for (const target of round % 2 ? targets : [...targets].reverse()) {
          const sample = await measure(servers, size, target, kind, round);
          samples.push(sample);
          console.error(
            `${size} ${kind} round ${round} ${target}: ${fmt(sample.rps)} req/s, p50 ${sample.p50} ms, p99 ${sample.p99} ms, ` +
              `CPU/request node ${sample.nodeMs.toFixed(2)} ms + postgres ${sample.pgMs.toFixed(2)} ms${sample.errors ? `, ${sample.errors} errors` : ''}`,
          );
        }
      }
      summaries.push(summarize(samples, size, kind));
    }
  } finally {
    await stop();
    if (size === 'tiny') await dropPlaces(nameOf(size));
  }
  if (size === 'tiny') continue; // nothing measured worth keeping
  writeFileSync(
    new URL(`./results-${size}.json`, import.meta.url),
    JSON.stringify(
      { at: new Date().toISOString(), connections, duration, rounds, samples: samples.filter((s) => s.size === size) },
      null,
      2,
    ),
  );
}

const cell = (r: { rps: number; p50: number; p99: number; cpu: number } | null) =>
  r ? `${fmt(r.rps)} | ${r.p50} | ${r.p99} | ${r.cpu.toFixed(2)}` : '– | – | – | –';
const x = (r: number | null) => (r === null ? '–' : `${r.toFixed(2)}×`);
console.log(`\n${connections} connections, ${rounds} rounds × ${duration} s, medians over rounds; latency in ms\n`);
console.log('CPU = CPU ms per request, server process + PostgreSQL backends\n');
console.log(
  '| set | boxes | API req/s | p50 | p99 | CPU | bare req/s | p50 | p99 | CPU | naive req/s | p50 | p99 | CPU | API/bare | bare/naive | API/naive |',
);
console.log('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
for (const s of summaries) {
  console.log(
    `| ${s.size} | ${s.kind} | ${cell(s.api)} | ${cell(s.bare)} | ${cell(s.naive)} | ${x(s.apiOverBare)} | ${x(s.bareOverNaive)} | ${x(s.apiOverNaive)} |`,
  );
}
await admin.end();
checkNoFailedRequests('places', samples);
process.exit(0);
