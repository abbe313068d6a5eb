// One server process against two: the real server (server/main.ts, production) on a copy of the
// 10k places set, as two processes on two ports; autocannon drives the place list (city and
// continent boxes, bench/places/data.ts) at process A alone, then at A and B together with the same
// total connections (autocannon spreads its connections round-robin over the URLs it is given, so
// it is the load balancer and one latency histogram covers both). Rounds alternate 1 and 2
// processes. Reports req/s, p50/p99, the scaling factor (2-process req/s over 1-process req/s,
// per round, then the median) and where the CPU went: the servers, PostgreSQL, the load generator
// and everything else on the machine. Prints a Markdown table, writes bench/results/processes-*.json.
//
//   npm run bench:processes                                   # defaults: ~2 min
//   npm run bench:processes -- --rounds 2 --duration 3 --warmup 1   # a short check (~40 s)
//   npm run bench:processes -- --tiny                          # CI's check: a small set of its own, 1 s per target
import autocannon, { type Result } from 'autocannon';
import postgres from 'postgres';
import { type BoxKind, boxGenerator, makeCities } from '../places/data.js';
import { serverUrl } from '../places/load.js';
import { type CpuUse, cores, cpuMeter } from '../shared/cpu.js';
import { copyOfPlaces10k } from '../shared/places-copy.js';
import { fmt, median, perRoundRatio, times, loadFigures, saveResults } from '../shared/report.js';
import { benchArgs } from '../shared/args.js';
import { serverErrors, startBenchServer } from '../shared/server.js';
import { checkNoFailedRequests, firstDifference, sanityOk, tiny, tinyDatabaseName } from '../shared/tiny.js';

const { rounds, duration, warmup, connections, pool, options } = benchArgs(
  { rounds: 3, duration: 8, warmup: 3 },
  { kinds: 'city,continent' },
);
if (connections % 2) throw new Error('--connections must be even, to split evenly over two processes');
const kinds = options.kinds.split(',') as BoxKind[];
const processCounts = [1, 2] as const;
type Processes = (typeof processCounts)[number];

const DATABASE = tiny ? tinyDatabaseName('processes') : 'cas_bench_processes';
const places = await copyOfPlaces10k(DATABASE);
const cities = makeCities();
// Started one after the other: two at once would migrate the same database concurrently.
const servers = [await startBenchServer(places.url, pool)];
servers.push(await startBenchServer(places.url, pool));
const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });

interface Sample {
  kind: BoxKind;
  processes: Processes;
  round: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU ms per request: the server processes (together) and their PostgreSQL backends. */
  serverMs: number;
  postgresMs: number;
  cpu: CpuUse;
}

function hit(processes: Processes, kind: BoxKind, seconds: number, seed: number): Promise<Result> {
  const nextBox = boxGenerator(cities, kind, seed);
  const urls = servers.slice(0, processes).map((server) => server.url);
  return autocannon({
    // autocannon takes an array of URLs (connection i goes to url i mod n); its types here say string.
    url: urls as unknown as string,
    connections,
    duration: seconds,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/api/places?bbox=${nextBox()}` }) }],
  });
}

async function measure(kind: BoxKind, processes: Processes, round: number): Promise<Sample> {
  const stop = await cpuMeter(
    admin,
    DATABASE,
    servers.map((server) => server.child.pid!),
  );
  const result = await hit(processes, kind, duration, 1000 + round);
  const cpu = await stop();
  const count = result.requests.total || 1;
  return {
    kind,
    processes,
    round,
    ...loadFigures(result),
    serverMs: cpu.servers / count,
    postgresMs: cpu.postgres / count,
    cpu,
  };
}

/** Both processes answer, and answer alike, before anything is timed. */
async function checkBothAnswer(kind: BoxKind) {
  const nextBox = boxGenerator(cities, kind, 99);
  for (let i = 0; i < 10; i++) {
    const path = `/api/places?bbox=${nextBox()}`;
    const bodies = await Promise.all(servers.map(async (server) => (await fetch(server.url + path)).text()));
    if (!bodies[0]?.startsWith('{"items"')) throw new Error(`process A did not answer a list on ${path}: ${bodies[0]}`);
    const difference = firstDifference(bodies[0], bodies[1]!, ['A', 'B']);
    if (difference) throw new Error(`processes disagree on ${path}: ${difference}`);
  }
  sanityOk(`processes ${kind} boxes: both processes answer the same list for 10 boxes`);
}

const samples: Sample[] = [];
const started = performance.now();
try {
  for (const kind of kinds) {
    await checkBothAnswer(kind);
    if (warmup) for (const processes of processCounts) await hit(processes, kind, warmup, 1); // JIT, caches, pools
    for (let round = 1; round <= rounds; round++) {
      for (const processes of round % 2 ? processCounts : [...processCounts].reverse()) {
        const s = await measure(kind, processes, round);
        samples.push(s);
        const c = (ms: number) => cores(ms, s.cpu.wallMs).toFixed(2);
        console.error(
          `${kind} round ${round} ${processes} process${processes > 1 ? 'es' : ''}: ${fmt(s.rps)} req/s, ` +
            `p50 ${s.p50} ms, p99 ${s.p99} ms; cores busy: servers ${c(s.cpu.servers)}, postgres ${c(s.cpu.postgres)}, ` +
            `autocannon ${c(s.cpu.loadGenerator)}, other ${c(s.cpu.other)}${s.errors ? `; ${s.errors} ERRORS` : ''}`,
        );
      }
    }
  }
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  await admin.end();
  await places.drop();
}
for (const server of servers) {
  const errors = serverErrors(server.output());
  if (errors.length) console.error(`server errors:\n${errors.join('\n')}`);
}

const of = (kind: BoxKind, processes: Processes) => samples.filter((s) => s.kind === kind && s.processes === processes);
const coresOf = (xs: Sample[], part: keyof Omit<CpuUse, 'wallMs'>) =>
  median(xs.map((s) => cores(s.cpu[part], s.cpu.wallMs)));
interface Row {
  rps: number;
  p50: number;
  p99: number;
  serverMs: number;
  postgresMs: number;
  cores: Record<keyof Omit<CpuUse, 'wallMs'>, number>;
  errors: number;
}
function row(xs: Sample[]): Row {
  return {
    rps: median(xs.map((s) => s.rps)),
    p50: median(xs.map((s) => s.p50)),
    p99: median(xs.map((s) => s.p99)),
    serverMs: median(xs.map((s) => s.serverMs)),
    postgresMs: median(xs.map((s) => s.postgresMs)),
    cores: {
      servers: coresOf(xs, 'servers'),
      postgres: coresOf(xs, 'postgres'),
      loadGenerator: coresOf(xs, 'loadGenerator'),
      other: coresOf(xs, 'other'),
    },
    errors: xs.reduce((sum, s) => sum + s.errors, 0),
  };
}
const summaries = kinds.map((kind) => ({
  kind,
  processes: { 1: row(of(kind, 1)), 2: row(of(kind, 2)) } as Record<Processes, Row>,
  scaling: perRoundRatio(of(kind, 2), of(kind, 1)),
}));
const file = saveResults('processes', {
  command: process.argv.slice(2).join(' '),
  connections,
  duration,
  warmup,
  rounds,
  seconds: Math.round((performance.now() - started) / 1000),
  summaries,
  samples,
});

console.log(
  `\n${connections} connections in total (2 processes: ${connections / 2} each), ${rounds} alternating rounds × ${duration} s ` +
    `after ${warmup} s warm-up; medians over rounds; latency in ms; CPU = CPU ms per request (the server processes together + their PostgreSQL backends); ` +
    `cores = cores kept busy (servers / PostgreSQL / autocannon / other work on the machine). Results: ${file}\n`,
);
console.log('| boxes | processes | req/s | p50 | p99 | CPU server + PostgreSQL | cores busy | scaling (2/1) |');
console.log('|---|--:|--:|--:|--:|--:|---|--:|');
for (const s of summaries) {
  for (const processes of processCounts) {
    const r = s.processes[processes];
    const c = r.cores;
    console.log(
      `| ${s.kind} | ${processes} | ${fmt(r.rps)} | ${r.p50} | ${r.p99} | ${r.serverMs.toFixed(2)} + ${r.postgresMs.toFixed(2)} | ` +
        `${[c.servers, c.postgres, c.loadGenerator, c.other].map((n) => n.toFixed(2)).join(' / ')} | ` +
        `${processes === 2 ? `**${times(s.scaling)}**` : ''}${r.errors ? ` (${r.errors} errors)` : ''} |`,
    );
  }
}
checkNoFailedRequests('processes', samples);
process.exit(0);
