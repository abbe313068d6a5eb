// The servers under test, in a child process of run.ts (so autocannon's CPU is not counted
// against them): the real API on the feed data set, the bare handler running the API's friends
// feed statement, the bare handler running the naive plan, and the real API on the places
// bench's 10k set (the yardstick). Reports its ports and the reader's session token over IPC.
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { createApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { createDeps } from '../../server/deps.js';
import { createSession } from '../../server/auth/sessions.js';
import { BENCH_PUBLIC_URL, createFeedBareApp } from './bare.js';
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

const poolMax = Number(process.env.BENCH_POOL_MAX ?? 10);
const configFor = (url: string) =>
  loadConfig({
    DATABASE_URL: url,
    NODE_ENV: 'production',
    ...benchSecrets,
    LOG_LEVEL: 'silent',
    DATABASE_POOL_MAX: String(poolMax),
    PUBLIC_URL: BENCH_PUBLIC_URL,
  });

const feedUrl = process.env.BENCH_FEED_DB_URL!;
const placesUrl = process.env.BENCH_PLACES_DB_URL!;
const feedDeps = await createDeps(configFor(feedUrl));
const placesDeps = await createDeps(configFor(placesUrl));
const [reader] = await feedDeps.database.rows<{ id: string }>(
  sql`select id from users where handle = ${process.env.BENCH_READER_HANDLE!}`,
);
const { token } = await createSession(feedDeps.database.db, reader!.id, new Date(), 1);

const ports = {
  api: await listen(createApp(feedDeps).app.fetch as Fetch),
  bare: await listen(createFeedBareApp(feedUrl, 'design', poolMax).app.fetch as Fetch),
  naive: await listen(createFeedBareApp(feedUrl, 'naive', poolMax).app.fetch as Fetch),
  floor: await listen(createFeedBareApp(feedUrl, 'floor', poolMax).app.fetch as Fetch),
  places: await listen(createApp(placesDeps).app.fetch as Fetch),
};
process.send!({ ports, token });
process.on('message', (message) => {
  if (message === 'cpu') process.send!({ cpu: process.cpuUsage() });
});
process.on('disconnect', () => process.exit(0));
// Exit normally on SIGTERM (run.ts stops us so), so `--cpu-prof` can write its profile.
process.on('SIGTERM', () => process.exit(0));
