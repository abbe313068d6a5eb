// CPU profile of one server under load: forks servers.ts with --cpu-prof, drives `--target`
// (api by default) with city boxes for `--duration` seconds, writes a .cpuprofile to --dir.
//   npx tsx bench/places/profile.ts --target api --duration 10 --dir /tmp/prof
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { boxGenerator, makeCities, type BoxKind } from './data.js';
import { databaseUrl } from './load.js';

const { values: args } = parseArgs({
  options: {
    target: { type: 'string', default: 'api' },
    kind: { type: 'string', default: 'city' },
    duration: { type: 'string', default: '10' },
    dir: { type: 'string', default: '.' },
  },
});
const child = fork(fileURLToPath(new URL('./servers.ts', import.meta.url)), {
  execArgv: ['--import', 'tsx', '--cpu-prof', `--cpu-prof-dir=${args.dir}`],
  env: {
    ...process.env,
    NODE_ENV: 'production',
    BENCH_DB_URL: databaseUrl('10k'),
    BENCH_NAIVE_DB_URL: databaseUrl('10k', true),
  },
});
const ports = await new Promise<Record<string, number>>((resolve) =>
  child.once('message', (m) => resolve((m as { ports: Record<string, number> }).ports)),
);
const nextBox = boxGenerator(makeCities(), args.kind as BoxKind, 7);
const result = await autocannon({
  url: `http://127.0.0.1:${ports[args.target]}`,
  connections: 16,
  duration: Number(args.duration),
  requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/api/places?bbox=${nextBox()}` }) }],
});
console.log(`${result.requests.average} req/s`);
child.once('exit', () => process.exit(0));
child.disconnect();
