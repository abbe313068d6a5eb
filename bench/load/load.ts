// Load: 50 connections for 60 s over a mix of public reads, authenticated reads and writes
// against a real server process on a fresh PostgreSQL database.
//   npm run bench:load   (BENCH_DURATION=60 BENCH_CONNECTIONS=50 BENCH_SERVER_URL=...)
// Pass: zero errors, zero timeouts, zero non-2xx. Prints a JSON summary (p50/p99 and rates).
//   npm run bench:load -- --tiny   CI's check: 2 s, 4 connections, 3 members and 10 places
import autocannon from 'autocannon';
import { sanityOk, tiny } from '../shared/tiny.js';
import { requestMix, startSeededServer } from './bench-server.js';

const duration = tiny ? 2 : Number(process.env.BENCH_DURATION ?? 60);
const connections = tiny ? 4 : Number(process.env.BENCH_CONNECTIONS ?? 50);

const seeded = await startSeededServer(tiny ? { members: 3, places: 10 } : {});
try {
  const mix = requestMix(seeded);
  console.log(`mix:\n  ${mix.describe.join('\n  ')}`);
  const result = await autocannon({
    url: seeded.server.url,
    connections,
    duration,
    requests: [{ setupRequest: mix.setupRequest }],
  });
  const summary = {
    when: new Date().toISOString(),
    durationSeconds: duration,
    connections,
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    latencyMs: {
      p50: result.latency.p50,
      p97_5: result.latency.p97_5,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count])),
    serverExited: seeded.server.exited(),
  };
  console.log(JSON.stringify(summary, null, 2));
  const ok = summary.errors === 0 && summary.timeouts === 0 && summary.non2xx === 0 && summary.serverExited === null;
  console.log(ok ? 'PASS: no errors, no timeouts, no non-2xx' : 'FAIL');
  if (ok) sanityOk(`load: ${summary.requests} requests of the mix, no error, timeout or non-2xx`);
  if (!ok) console.log(seeded.server.output().slice(-4000));
  process.exitCode = ok ? 0 : 1;
} finally {
  await seeded.close();
}
