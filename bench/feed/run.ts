// The friends feed benchmark: autocannon on `GET /api/feed?scope=friends` as the reader with 500
// friends (cas_bench_feed, bench/feed/load.ts), against
//   api     the real API (createApp, NODE_ENV=production, silent log)
//   bare    Hono + postgres.js running the API's own statement (bench/feed/bare.ts)
//   naive   the same bare handler running `author IN (friends) ORDER BY id DESC LIMIT n`
//   places  the real API's `GET /api/places?bbox=<city box>` on the places bench's 10k set,
//           the yardstick the feed's cost is compared with
// in alternating rounds, so background load hits them alike. Prints a markdown table and writes
// bench/feed/results.json.
//
//   npm run bench:feed                          # 3 rounds × 10 s, 16 connections
//   npm run bench:feed -- --load                # (re)create the data set first (~2 min)
//   npm run bench:feed -- --rounds 5 --duration 10
import autocannon, { type Result } from 'autocannon';
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { benchArgs } from '../shared/args.js';
import { postgresCpuMs } from '../shared/cpu.js';
import { fmt, median, perRoundRatio, times } from '../shared/report.js';
import { boxGenerator, makeCities } from '../places/data.js';
import { databaseName as placesDatabase, databaseUrl as placesUrl, serverUrl } from '../places/load.js';
import { FEED_DB, READER_HANDLE, feedDatabaseUrl, loadFeed } from './load.js';

const { rounds, duration, warmup, connections, options, flags } = benchArgs(
  { rounds: 3, duration: 10, warmup: 5 },
  { targets: 'api,bare,naive,places' },
  ['load'],
);
if (flags.load) await loadFeed();

type Target = 'api' | 'bare' | 'naive' | 'places';
const targets = options.targets.split(',') as Target[];
interface Sample {
  target: Target;
  round: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  nodeMs: number;
  pgMs: number;
}

interface Servers {
  ports: Record<Target, number>;
  token: string;
  cpu: () => Promise<number>;
  stop: () => void;
}

function startServers(): Promise<Servers> {
  const child = fork(fileURLToPath(new URL('./servers.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      BENCH_FEED_DB_URL: feedDatabaseUrl(),
      BENCH_PLACES_DB_URL: placesUrl('10k'),
      BENCH_READER_HANDLE: READER_HANDLE,
    },
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`servers exited with ${code}`)));
    child.once('message', (message) => {
      child.removeAllListeners('exit');
      const { ports, token } = message as { ports: Record<Target, number>; token: string };
      const cpu = () =>
        new Promise<number>((done) => {
          child.once('message', (reply) => {
            const { user, system } = (reply as { cpu: NodeJS.CpuUsage }).cpu;
            done((user + system) / 1000);
          });
          child.send('cpu');
        });
      resolve({ ports, token, cpu, stop: () => child.kill('SIGTERM') });
    });
  });
}

const cities = makeCities();
const feedPath = '/api/feed?scope=friends';

/** api, bare and naive must give byte-identical pages (first three pages) before they are timed. */
async function checkSameAnswers(servers: Servers) {
  const feedTargets = targets.filter((t) => t !== 'places');
  let cursor: string | null = null;
  for (let page = 0; page < 3; page++) {
    const path: string = cursor ? `${feedPath}&cursor=${cursor}` : feedPath;
    const bodies = await Promise.all(
      feedTargets.map(async (t) => {
        const res = await fetch(`http://127.0.0.1:${servers.ports[t]}${path}`, {
          headers: { authorization: `Bearer ${servers.token}` },
        });
        if (res.status !== 200) throw new Error(`${t} answered ${res.status} on ${path}: ${await res.text()}`);
        return res.text();
      }),
    );
    if (bodies.some((body) => body !== bodies[0])) throw new Error(`servers disagree on ${path}`);
    const parsed = JSON.parse(bodies[0]!) as { items: unknown[]; nextCursor: string | null };
    if (page === 0) console.error(`first page: ${parsed.items.length} posts, ${bodies[0]!.length} bytes`);
    cursor = parsed.nextCursor;
  }
}

function hit(servers: Servers, target: Target, seconds: number, seed: number): Promise<Result> {
  const url = `http://127.0.0.1:${servers.ports[target]}`;
  if (target === 'places') {
    const nextBox = boxGenerator(cities, 'city', seed);
    return autocannon({
      url,
      connections,
      duration: seconds,
      requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/api/places?bbox=${nextBox()}` }) }],
    });
  }
  return autocannon({
    url: `${url}${feedPath}`,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${servers.token}` },
  });
}

const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });

async function measure(servers: Servers, target: Target, round: number): Promise<Sample> {
  const database = target === 'places' ? placesDatabase('10k') : FEED_DB;
  const [node0, pg0] = [await servers.cpu(), await postgresCpuMs(admin, database)];
  const result = await hit(servers, target, duration, 1000 + round);
  const [node1, pg1] = [await servers.cpu(), await postgresCpuMs(admin, database)];
  let pg = 0;
  for (const [pid, ms] of pg1) pg += ms - (pg0.get(pid) ?? 0);
  const count = result.requests.total || 1;
  return {
    target,
    round,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    nodeMs: (node1 - node0) / count,
    pgMs: pg / count,
  };
}

const samples: Sample[] = [];
const servers = await startServers();
try {
  await checkSameAnswers(servers);
  for (const target of targets) await hit(servers, target, warmup, 1);
  for (let round = 1; round <= rounds; round++) {
    for (const target of round % 2 ? targets : [...targets].reverse()) {
      const s = await measure(servers, target, round);
      samples.push(s);
      console.error(
        `round ${round} ${target}: ${fmt(s.rps)} req/s, p50 ${s.p50} ms, p99 ${s.p99} ms, ` +
          `CPU/request node ${s.nodeMs.toFixed(2)} ms + postgres ${s.pgMs.toFixed(2)} ms${s.errors ? `, ${s.errors} errors` : ''}`,
      );
    }
  }
} finally {
  servers.stop();
  await admin.end();
}

writeFileSync(
  new URL('./results.json', import.meta.url),
  `${JSON.stringify({ at: new Date().toISOString(), connections, duration, rounds, samples }, null, 2)}\n`,
);
const of = (t: Target) => samples.filter((s) => s.target === t);
const cpu = (s: Sample) => s.nodeMs + s.pgMs;
const inverseCpu = (s: Sample) => 1 / cpu(s);
console.log(`\n${connections} connections, ${rounds} rounds × ${duration} s, medians over rounds; latency in ms;`);
console.log('CPU = CPU ms per request, server process + PostgreSQL backends\n');
console.log('| target | req/s | p50 | p99 | CPU | errors |');
console.log('|---|--:|--:|--:|--:|--:|');
for (const t of targets) {
  const xs = of(t);
  if (!xs.length) continue;
  console.log(
    `| ${t} | ${fmt(median(xs.map((s) => s.rps)))} | ${median(xs.map((s) => s.p50))} | ${median(xs.map((s) => s.p99))} | ${median(xs.map(cpu)).toFixed(2)} | ${xs.reduce((a, s) => a + s.errors, 0)} |`,
  );
}
const ratio = (a: Target, b: Target, value?: (s: Sample) => number) =>
  of(a).length && of(b).length ? times(perRoundRatio(of(a), of(b), value)) : '–';
console.log('\n| ratio (per round, then median) | req/s | CPU per request |');
console.log('|---|--:|--:|');
console.log(
  `| places page / friends feed (API): feed cost in places pages | ${ratio('places', 'api')} | ${ratio('api', 'places', cpu)} |`,
);
console.log(`| API / bare | ${ratio('api', 'bare')} | ${ratio('bare', 'api', inverseCpu)} |`);
console.log(
  `| bare / naive (design vs naive plan) | ${ratio('bare', 'naive')} | ${ratio('bare', 'naive', inverseCpu)} |`,
);
console.log(`| API / naive | ${ratio('api', 'naive')} | ${ratio('api', 'naive', inverseCpu)} |`);
process.exit(0);
