// REST against native tRPC on the same procedure: autocannon on one real server process
// (server/main.ts, production, on a copy of the 10k places set), the same calls sent as
//   rest   GET /api/places?bbox=…            (our REST dispatcher, server/http/rest.ts)
//   trpc   GET /trpc/places.list?input=…     (tRPC's fetch adapter, as the typed client's httpLink sends it)
//   batch  GET /trpc/places.list?batch=1&…   (httpBatchLink with a batch of one)
// for city and continent boxes (bench/places/data.ts) and a cheap call (a place by slug, or the
// cached stats), in alternating rounds with the same connections and duration. Checks first that
// every transport answers the same output. Prints a Markdown table, writes bench/results/transport-*.json.
//
//   npm run bench:transport                                  # defaults: 3 rounds × 4 s, ~2.5 min
//   npm run bench:transport -- --rounds 2 --duration 3 --warmup 1   # a short check (~1 min)
//   npm run bench:transport -- --calls city,stats --transports rest,trpc
//   npm run bench:transport -- --tiny                        # CI's check: a small set of its own, 1 s per target
import autocannon, { type Result } from 'autocannon';
import postgres from 'postgres';
import { boxGenerator, makeCities } from '../places/data.js';
import { serverUrl } from '../places/load.js';
import { type CpuUse, cpuMeter } from '../shared/cpu.js';
import { copyOfPlaces10k } from '../shared/places-copy.js';
import { fmt, median, perRoundRatio, times, loadFigures, saveResults } from '../shared/report.js';
import { benchArgs } from '../shared/args.js';
import { serverErrors, startBenchServer } from '../shared/server.js';
import { checkNoFailedRequests, firstDifference, sanityOk, tiny, tinyDatabaseName } from '../shared/tiny.js';

import {
  type Call,
  placeGetCall,
  placeListCall,
  procedureOutput,
  requestPath,
  statsCall,
  type Transport,
} from './requests.js';

const { rounds, duration, warmup, connections, pool, options } = benchArgs(
  { rounds: 3, duration: 4, warmup: 2 },
  { calls: 'city,continent,slug', transports: 'rest,trpc,batch' },
);
const transports = options.transports.split(',') as Transport[];
type CallKind = 'city' | 'continent' | 'slug' | 'stats';
const callKinds = options.calls.split(',') as CallKind[];

const DATABASE = tiny ? tinyDatabaseName('transport') : 'cas_bench_transport';
const places = await copyOfPlaces10k(DATABASE);
const cities = makeCities();

/** A reproducible sequence of calls of one kind. */
function callSequence(kind: CallKind, seed: number): () => Call {
  switch (kind) {
    case 'city':
    case 'continent': {
      const nextBox = boxGenerator(cities, kind, seed);
      return () => placeListCall(nextBox());
    }
    case 'slug': {
      let i = seed;
      return () => placeGetCall(places.slugs[i++ % places.slugs.length]!);
    }
    case 'stats':
      return statsCall;
    default:
      throw new Error(`Unknown call kind "${kind}"; use city, continent, slug or stats.`);
  }
}

interface Sample {
  call: CallKind;
  transport: Transport;
  round: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU ms per request of the server process and of its PostgreSQL backends. */
  serverMs: number;
  postgresMs: number;
  cpu: CpuUse;
}

const server = await startBenchServer(places.url, pool);
const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });

/** Every transport must give the same output for the same call before their speed is compared. */
async function checkSameOutputs(kind: CallKind) {
  const next = callSequence(kind, 99);
  for (let i = 0; i < 20; i++) {
    const call = next();
    const outputs = await Promise.all(
      transports.map(async (transport) => {
        const res = await fetch(server.url + requestPath(transport, call));
        if (res.status !== 200) throw new Error(`${transport} ${requestPath(transport, call)}: ${res.status}`);
        return JSON.stringify(procedureOutput(transport, await res.json()));
      }),
    );
    if (outputs[0] === undefined) throw new Error(`${transports[0]} gave no output for ${call.procedure}`);
    for (const [j, output] of outputs.entries()) {
      const difference = firstDifference(outputs[0], output, [transports[0]!, transports[j]!]);
      if (difference)
        throw new Error(`transports disagree on ${call.procedure} ${JSON.stringify(call.input)}: ${difference}`);
    }
  }
  sanityOk(`transport ${kind}: ${transports.join(', ')} give the same output for 20 calls`);
}

function hit(transport: Transport, kind: CallKind, seconds: number, seed: number): Promise<Result> {
  const next = callSequence(kind, seed);
  return autocannon({
    url: server.url,
    connections,
    duration: seconds,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: requestPath(transport, next()) }) }],
  });
}

async function measure(kind: CallKind, transport: Transport, round: number): Promise<Sample> {
  const stop = await cpuMeter(admin, DATABASE, [server.child.pid!]);
  const result = await hit(transport, kind, duration, 1000 + round);
  const cpu = await stop();
  const count = result.requests.total || 1;
  return {
    call: kind,
    transport,
    round,
    ...loadFigures(result),
    serverMs: cpu.servers / count,
    postgresMs: cpu.postgres / count,
    cpu,
  };
}

const samples: Sample[] = [];
const started = performance.now();
try {
  for (const kind of callKinds) {
    await checkSameOutputs(kind);
    if (warmup) for (const transport of transports) await hit(transport, kind, warmup, 1); // JIT, caches, pool
    for (let round = 1; round <= rounds; round++) {
      for (const transport of round % 2 ? transports : [...transports].reverse()) {
        const s = await measure(kind, transport, round);
        samples.push(s);
        console.error(
          `${kind} round ${round} ${transport}: ${fmt(s.rps)} req/s, p50 ${s.p50} ms, p99 ${s.p99} ms, ` +
            `CPU/request server ${s.serverMs.toFixed(2)} ms + postgres ${s.postgresMs.toFixed(2)} ms, ` +
            `other load ${(s.cpu.other / s.cpu.wallMs).toFixed(2)} cores${s.errors ? `, ${s.errors} ERRORS` : ''}`,
        );
      }
    }
  }
} finally {
  await server.stop();
  await admin.end();
  await places.drop();
}
const errors = serverErrors(server.output());
if (errors.length) console.error(`server errors:\n${errors.join('\n')}`);

const of = (kind: CallKind, transport: Transport) =>
  samples.filter((s) => s.call === kind && s.transport === transport);
const summaries = callKinds.map((kind) => ({
  call: kind,
  transports: Object.fromEntries(
    transports.map((transport) => {
      const xs = of(kind, transport);
      return [
        transport,
        {
          rps: median(xs.map((s) => s.rps)),
          p50: median(xs.map((s) => s.p50)),
          p99: median(xs.map((s) => s.p99)),
          serverMs: median(xs.map((s) => s.serverMs)),
          errors: xs.reduce((sum, s) => sum + s.errors, 0),
        },
      ];
    }),
  ),
  restOverTrpc: perRoundRatio(of(kind, 'rest'), of(kind, 'trpc')),
  restOverBatch: perRoundRatio(of(kind, 'rest'), of(kind, 'batch')),
  // Server CPU per request is far less sensitive to other work on the machine than req/s.
  trpcCpuOverRest: perRoundRatio(of(kind, 'trpc'), of(kind, 'rest'), (s) => s.serverMs),
  batchCpuOverRest: perRoundRatio(of(kind, 'batch'), of(kind, 'rest'), (s) => s.serverMs),
}));
const otherCores = median(samples.map((s) => s.cpu.other / s.cpu.wallMs));
const file = saveResults('transport', {
  command: process.argv.slice(2).join(' '),
  connections,
  duration,
  warmup,
  rounds,
  seconds: Math.round((performance.now() - started) / 1000),
  otherCoresMedian: otherCores,
  summaries,
  samples,
});

const label: Record<CallKind, string> = {
  city: 'places.list, city box',
  continent: 'places.list, continent box',
  slug: 'places.get by slug',
  stats: 'stats.get (cached)',
};
const name: Record<Transport, string> = { rest: 'REST', trpc: 'tRPC', batch: 'tRPC batch' };
console.log(
  `\n${connections} connections, ${rounds} alternating rounds × ${duration} s after ${warmup} s warm-up per transport; ` +
    `medians over rounds, ratios per round then the median; latency in ms; CPU = server process CPU ms per request; ` +
    `other work on the machine: median ${otherCores.toFixed(2)} cores. Results: ${file}\n`,
);
const ratios = [
  ...(transports.includes('rest') && transports.includes('trpc') ? ['REST/tRPC req/s', 'tRPC/REST CPU'] : []),
  ...(transports.includes('rest') && transports.includes('batch') ? ['REST/batch req/s', 'batch/REST CPU'] : []),
];
console.log(
  `| call | ${transports.map((t) => `${name[t]} req/s | p50 | p99 | CPU`).join(' | ')} | ${ratios.join(' | ')} |`,
);
console.log(`|---|${transports.map(() => '--:|--:|--:|--:').join('|')}|${ratios.map(() => '--:').join('|')}|`);
for (const s of summaries) {
  const cells = transports.map((t) => {
    const r = s.transports[t]!;
    return `${fmt(r.rps)} | ${r.p50} | ${r.p99} | ${r.serverMs.toFixed(2)}${r.errors ? ` (${r.errors} errors)` : ''}`;
  });
  const ratioCells = [
    ...(ratios.includes('REST/tRPC req/s') ? [times(s.restOverTrpc), times(s.trpcCpuOverRest)] : []),
    ...(ratios.includes('REST/batch req/s') ? [times(s.restOverBatch), times(s.batchCpuOverRest)] : []),
  ];
  console.log(`| ${label[s.call]} | ${cells.join(' | ')} | ${ratioCells.join(' | ')} |`);
}
checkNoFailedRequests('transport', samples);
process.exit(0);
