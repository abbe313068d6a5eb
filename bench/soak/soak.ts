// Soak: a steady moderate load for 10 minutes (BENCH_SOAK_SECONDS) while sampling the server's
// RSS and its PostgreSQL pool (connections in pg_stat_activity) every 10 s. Flat is the goal:
// prints the samples and first-minute vs last-minute averages. Fails (exit 1) if any request
// failed or the server died.
//   npm run bench:soak   (BENCH_SOAK_SECONDS=600 BENCH_CONNECTIONS=20 BENCH_SERVER_URL=...)
//   npm run bench:soak -- --tiny   CI's check: 3 s, 4 connections, a sample every second
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { requestMix, startSeededServer } from '../load/bench-server.js';
import { sanityOk, tiny } from '../shared/tiny.js';

const seconds = tiny ? 3 : Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const connections = tiny ? 4 : Number(process.env.BENCH_CONNECTIONS ?? 20);
const SAMPLE_MS = tiny ? 1_000 : 10_000;

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line?.match(/\d+/)?.[0] ?? 0) / 1024);
};

const seeded = await startSeededServer(tiny ? { members: 3, places: 10 } : {});
try {
  const pid = seeded.server.child.pid!;
  const samples: { second: number; rssMb: number; poolConnections: number }[] = [];
  const started = Date.now();
  const sample = async () => {
    const [row] = await seeded.sql<
      { n: number }[]
    >`select count(*)::int as n from pg_stat_activity where datname = ${seeded.databaseName} and application_name = 'community-activism'`;
    samples.push({ second: Math.round((Date.now() - started) / 1000), rssMb: rssMb(pid), poolConnections: row!.n });
    console.log(JSON.stringify(samples.at(-1)));
  };
  await sample();
  const timer = setInterval(() => void sample(), SAMPLE_MS);
  const mix = requestMix(seeded);
  const result = await autocannon({
    url: seeded.server.url,
    connections,
    duration: seconds,
    requests: [{ setupRequest: mix.setupRequest }],
  });
  clearInterval(timer);
  await sample();

  const avg = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));
  const first = samples.filter((s) => s.second <= 60);
  const last = samples.filter((s) => s.second >= seconds - 60);
  const failed = result.errors + result.timeouts + result.non2xx;
  const exited = seeded.server.exited();
  console.log(
    JSON.stringify(
      {
        when: new Date().toISOString(),
        seconds,
        connections,
        requests: result.requests.total,
        requestsPerSecond: Math.round(result.requests.average),
        latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
        errors: result.errors,
        timeouts: result.timeouts,
        non2xx: result.non2xx,
        rssMb: {
          firstMinute: avg(first.map((s) => s.rssMb)),
          lastMinute: avg(last.map((s) => s.rssMb)),
          max: Math.max(...samples.map((s) => s.rssMb)),
        },
        poolConnections: {
          firstMinute: avg(first.map((s) => s.poolConnections)),
          lastMinute: avg(last.map((s) => s.poolConnections)),
          max: Math.max(...samples.map((s) => s.poolConnections)),
        },
        serverExited: exited,
      },
      null,
      2,
    ),
  );
  if (failed || exited !== null) {
    console.log('FAIL');
    process.exitCode = 1;
  } else sanityOk(`soak: ${result.requests.total} requests, ${samples.length} samples, no failure`);
} finally {
  await seeded.close();
}
