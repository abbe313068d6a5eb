// The servers under test, in a child process of run.ts (so autocannon's own CPU use is not
// counted against them): the real API (createApp, production mode, silent log), the bare
// handler running the same SQL, and the bare handler running the naive SQL on a copy of the
// data set without the design's indexes. Reports its ports to the parent over IPC.
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { createDeps } from '../../server/deps.js';
import { createBareApp } from './bare.js';
import { benchSecrets } from '../shared/secrets.js';

type Fetch = (request: Request) => Response | Promise<Response>;

function listen(fetch: Fetch): Promise<number> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(info.port));
    server.on('error', (error) => {
      throw error;
    });
  });
}

const url = process.env.BENCH_DB_URL!;
const naiveUrl = process.env.BENCH_NAIVE_DB_URL!;
const poolMax = Number(process.env.BENCH_POOL_MAX ?? 10);

const config = loadConfig({
  DATABASE_URL: url,
  NODE_ENV: 'production',
  ...benchSecrets,
  LOG_LEVEL: 'silent',
  DATABASE_POOL_MAX: String(poolMax),
  PUBLIC_URL: 'http://127.0.0.1:3000',
});
const deps = await createDeps(config);
const { app } = createApp(deps);
const bare = createBareApp(url, 'design', config.PUBLIC_URL, poolMax);
const naive = createBareApp(
  naiveUrl,
  process.env.BENCH_NAIVE_PREPARED === '1' ? 'naive-prepared' : 'naive',
  config.PUBLIC_URL,
  poolMax,
);

const ports = {
  api: await listen(app.fetch as Fetch),
  bare: await listen(bare.app.fetch as Fetch),
  naive: await listen(naive.app.fetch as Fetch),
};
process.send!({ ports });
// The parent asks for this process's CPU time around each round (CPU per request is less
// sensitive to other load on the machine than requests per second).
process.on('message', (message) => {
  if (message === 'cpu') process.send!({ cpu: process.cpuUsage() });
});
process.on('disconnect', () => process.exit(0));
