// Soak: a steady moderate load for 10 minutes (BENCH_SOAK_SECONDS) while sampling the server's
// RSS and its PostgreSQL pool (connections in pg_stat_activity) every 10 s. Flat is the goal:
// prints the samples and first-minute vs last-minute averages.
//   npm run bench:soak   (BENCH_SOAK_SECONDS=600 BENCH_CONNECTIONS=20 BENCH_SERVER_URL=...)
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { requestMix, startSeededServer } from '../load/bench-server.js';

const seconds = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SAMPLE_MS = 10_000;

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line?.match(/\d+/)?.[0] ?? 0) / 1024);
};

const seeded = await startSeededServer();
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
        serverExited: seeded.server.exited(),
      },
      null,
      2,
    ),
  );
} finally {
  await seeded.close();
}
