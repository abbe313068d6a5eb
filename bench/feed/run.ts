// The friends feed benchmark: autocannon on `GET /api/feed?scope=friends` as the reader with 500
// friends (cas_bench_feed, bench/feed/load.ts), against
//   api     the real API (createApp, NODE_ENV=production, silent log)
//   bare    Hono + postgres.js running the API's own statement (bench/feed/bare.ts)
//   naive   the same bare handler running `author IN (friends) ORDER BY id DESC LIMIT n`
//   floor   the same bare handler answering the page from memory after its first request: the
//           fixed cost of a request (HTTP, session lookup, JSON), the bound on what any plan saves
//   places  the real API's `GET /api/places?bbox=<city box>` on the places bench's 10k set,
//           the yardstick the feed's cost is compared with
// and api-deep, bare-deep, naive-deep: the same three on a deep page (the cursor after the
// reader's ~1,000th feed post, page ~51), where the inbox design and the naive plan part ways,
// in alternating rounds, so background load hits them alike. Prints a markdown table and writes
// bench/feed/results.json.
//
//   npm run bench:feed                          # 3 rounds × 10 s, 16 connections
//   npm run bench:feed -- --load                # (re)create the data set first (~2 min)
//   npm run bench:feed -- --rounds 5 --duration 10
//   npm run bench:feed -- --tiny                # CI's check: small sets of its own (~1,000 members), 1 s per target
import autocannon, { type Result } from 'autocannon';
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { benchArgs } from '../shared/args.js';
import { postgresCpuMs } from '../shared/cpu.js';
import { fmt, median, perRoundRatio, times } from '../shared/report.js';
import { boxGenerator, makeCities } from '../places/data.js';
import { databaseName, dropPlaces, loadPlacesInto, serverUrl, TINY_PLACES } from '../places/load.js';
import { checkNoFailedRequests, firstDifference, sanityOk, tiny, tinyDatabaseName } from '../shared/tiny.js';
import { FEED_DB, READER_HANDLE, TINY_SHAPE, feedDatabaseUrl, loadFeed } from './load.js';

const { rounds, duration, warmup, connections, options, flags } = benchArgs(
  { rounds: 3, duration: 10, warmup: 5 },
  { targets: 'api,bare,naive,floor,places,api-deep,bare-deep,naive-deep', depth: '1000' },
  ['load'],
  { depth: '100' },
);
// A tiny run loads small sets of its own (feed and places yardstick) and drops them at the end.
const feedDb = tiny ? tinyDatabaseName('feed') : FEED_DB;
const placesDb = tiny ? tinyDatabaseName('feed_places') : databaseName('10k');
if (tiny) {
  await loadFeed({ name: feedDb, shape: TINY_SHAPE, places: false });
  await loadPlacesInto(placesDb, TINY_PLACES, { naive: false });
} else if (flags.load) await loadFeed();
async function dropTinySets() {
  if (!tiny) return;
  const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${feedDb} with (force)`);
  await admin.end();
  await dropPlaces(placesDb);
}

type Server = 'api' | 'bare' | 'naive' | 'floor' | 'places';
type Target = Server | 'api-deep' | 'bare-deep' | 'naive-deep';
const targets = options.targets.split(',') as Target[];
/** The server a target runs on (a deep target is its server on the deep page). */
const serverOf = (target: Target) => target.replace(/-deep$/, '') as Server;
const isDeep = (target: Target) => target.endsWith('-deep');
/** Posts before the deep page (whole pages of 20). */
const depth = Math.max(20, Math.min(Math.round(Number(options.depth) / 20) * 20, 5000));
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
  ports: Record<Server, number>;
  token: string;
  cpu: () => Promise<number>;
  /** Stops the servers' process and waits until it is gone. */
  stop: () => Promise<void>;
}

function startServers(): Promise<Servers> {
  const child = fork(fileURLToPath(new URL('./servers.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      BENCH_FEED_DB_URL: feedDatabaseUrl(feedDb),
      BENCH_PLACES_DB_URL: `${serverUrl}/${placesDb}`,
      BENCH_READER_HANDLE: READER_HANDLE,
    },
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`servers exited with ${code}`)));
    child.once('message', (message) => {
      child.removeAllListeners('exit');
      const { ports, token } = message as { ports: Record<Server, number>; token: string };
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
      resolve({ ports, token, cpu, stop });
    });
  });
}

const cities = makeCities();
const feedPath = '/api/feed?scope=friends';

async function feedPage(servers: Servers, server: Server, path: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${servers.ports[server]}${path}`, {
    headers: { authorization: `Bearer ${servers.token}` },
  });
  if (res.status !== 200) throw new Error(`${server} answered ${res.status} on ${path}: ${await res.text()}`);
  return res.text();
}

/** The cursor after the reader's `depth`-th feed post, found by paging through the bare server. */
async function deepCursor(servers: Servers): Promise<string> {
  let cursor: string | null = null;
  for (let seen = 0; seen < depth; seen += 20) {
    const path: string = cursor ? `${feedPath}&cursor=${cursor}` : feedPath;
    const page = JSON.parse(await feedPage(servers, 'bare', path)) as { nextCursor: string | null };
    if (!page.nextCursor) throw new Error(`the reader's feed ends before post ${depth}`);
    cursor = page.nextCursor;
  }
  return cursor!;
}

/**
 * api, bare and naive must give byte-identical pages before they are timed: the first three
 * pages, and the deep page with the two after it.
 */
async function checkSameAnswers(servers: Servers, deep: string) {
  const feedServers = [...new Set(targets.map(serverOf))].filter((t) => t !== 'places');
  for (const start of [null, deep]) {
    let cursor: string | null = start;
    for (let page = 0; page < 3; page++) {
      const path: string = cursor ? `${feedPath}&cursor=${cursor}` : feedPath;
      const bodies = await Promise.all(feedServers.map((server) => feedPage(servers, server, path)));
      for (const [j, body] of bodies.entries()) {
        const difference = firstDifference(bodies[0]!, body, [feedServers[0]!, feedServers[j]!]);
        if (difference) throw new Error(`${feedServers[0]} and ${feedServers[j]} disagree on ${path}: ${difference}`);
      }
      const parsed = JSON.parse(bodies[0]!) as { items: unknown[]; nextCursor: string | null };
      if (page === 0)
        console.error(
          `${start ? `deep page (after ${depth} posts)` : 'first page'}: ${parsed.items.length} posts, ${bodies[0]!.length} bytes`,
        );
      cursor = parsed.nextCursor;
    }
  }
  sanityOk(`feed: ${feedServers.join(', ')} answer byte-identical pages (first 3, and 3 after post ${depth})`);
}

function hit(servers: Servers, target: Target, seconds: number, seed: number, deep: string): Promise<Result> {
  const url = `http://127.0.0.1:${servers.ports[serverOf(target)]}`;
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
    url: `${url}${feedPath}${isDeep(target) ? `&cursor=${deep}` : ''}`,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${servers.token}` },
  });
}

const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });

async function measure(servers: Servers, target: Target, round: number, deep: string): Promise<Sample> {
  const database = target === 'places' ? placesDb : feedDb;
  const [node0, pg0] = [await servers.cpu(), await postgresCpuMs(admin, database)];
  const result = await hit(servers, target, duration, 1000 + round, deep);
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
const loadBefore = os.loadavg();
/** Load averages over 1, 5 and 15 minutes, as one string (the machine is shared: see Noise). */
const load = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' ');
const servers = await startServers().catch(async (error) => {
  await dropTinySets();
  throw error;
});
try {
  const deep = await deepCursor(servers);
  await checkSameAnswers(servers, deep);
  if (warmup) for (const target of targets) await hit(servers, target, warmup, 1, deep);
  for (let round = 1; round <= rounds; round++) {
    for (const target of round % 2 ? targets : [...targets].reverse()) {
      const s = await measure(servers, target, round, deep);
      samples.push(s);
      console.error(
        `round ${round} ${target}: ${fmt(s.rps)} req/s, p50 ${s.p50} ms, p99 ${s.p99} ms, ` +
          `CPU/request node ${s.nodeMs.toFixed(2)} ms + postgres ${s.pgMs.toFixed(2)} ms${s.errors ? `, ${s.errors} errors` : ''}`,
      );
    }
  }
} finally {
  await servers.stop();
  await admin.end();
  await dropTinySets();
}

// A tiny run measured nothing worth keeping: the checked-in results stay.
if (!tiny)
  writeFileSync(
    new URL('./results.json', import.meta.url),
    `${JSON.stringify({ at: new Date().toISOString(), loadAverage: { before: load(loadBefore), after: load(os.loadavg()) }, connections, duration, rounds, depth, samples }, null, 2)}\n`,
  );
const of = (t: Target) => samples.filter((s) => s.target === t);
const cpu = (s: Sample) => s.nodeMs + s.pgMs;
const inverseCpu = (s: Sample) => 1 / cpu(s);
const inversePg = (s: Sample) => 1 / s.pgMs;
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
console.log('\n| ratio (per round, then median) | req/s | CPU per request | PostgreSQL CPU alone |');
console.log('|---|--:|--:|--:|');
console.log(
  `| places page / friends feed (API): feed cost in places pages | ${ratio('places', 'api')} | ${ratio('api', 'places', cpu)} | |`,
);
console.log(`| API / bare | ${ratio('api', 'bare')} | ${ratio('bare', 'api', inverseCpu)} | |`);
console.log(
  `| bare / naive (design vs naive plan) | ${ratio('bare', 'naive')} | ${ratio('bare', 'naive', inverseCpu)} | ${ratio('bare', 'naive', inversePg)} |`,
);
console.log(
  `| floor / naive (the most any plan could gain per request) | ${ratio('floor', 'naive')} | ${ratio('floor', 'naive', inverseCpu)} | |`,
);
console.log(`| API / naive | ${ratio('api', 'naive')} | ${ratio('api', 'naive', inverseCpu)} | |`);
console.log(
  `| deep page (after ${depth} posts): places page / API feed | ${ratio('places', 'api-deep')} | ${ratio('api-deep', 'places', cpu)} | |`,
);
console.log(
  `| deep page: API / bare | ${ratio('api-deep', 'bare-deep')} | ${ratio('bare-deep', 'api-deep', inverseCpu)} | |`,
);
console.log(
  `| deep page: bare / naive (design vs naive plan) | ${ratio('bare-deep', 'naive-deep')} | ${ratio('bare-deep', 'naive-deep', inverseCpu)} | ${ratio('bare-deep', 'naive-deep', inversePg)} |`,
);
console.log(
  `| deep page: API / naive | ${ratio('api-deep', 'naive-deep')} | ${ratio('api-deep', 'naive-deep', inverseCpu)} | |`,
);
console.log(`\nload average (1, 5, 15 min): before ${load(loadBefore)}, after ${load(os.loadavg())}`);
checkNoFailedRequests('feed', samples);
process.exit(0);
