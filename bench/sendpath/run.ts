// The message POST against the place list, the realtime bench's yard stick, for one or more
// checkouts of the server side by side (A/B), in alternating rounds: what a change to the send
// path buys, measured under the same background load. Each checkout (`--trees`, default this one)
// runs its own two server processes (production mode, as in bench/realtime) on its own copy of the
// 10k places set; autocannon spreads requests over both. Per round and checkout: POST
// /api/conversations/:id/messages, then GET /api/places (city boxes); the ratio is taken per round,
// then the median. `--senders 1` (default) is the realtime yard stick's worst case (one member,
// one conversation: a shared write-limit counter and membership row); more senders spread them.
//
//   npx tsx bench/sendpath/run.ts                                       # this checkout, 3 rounds × 6 s
//   npx tsx bench/sendpath/run.ts --trees /tmp/base,. --rounds 4        # A/B against another checkout
//   npx tsx bench/sendpath/run.ts --tiny                                # CI's check: own 2,000-place set, 1 s per route
//
// A checkout of another commit for A/B: `git archive <commit> | tar -x -C /tmp/base` and a
// node_modules symlink in it (its own bench/shared/server.ts starts its server).
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { newId } from '../../db/ids.js';
import { generateSecretToken, hashSecretToken } from '../../server/auth/tokens.js';
import type { ServerProcess } from '../../tests/multiprocess/server-process.js';
import { boxGenerator, makeCities } from '../places/data.js';
import { benchArgs } from '../shared/args.js';
import { copyOfPlaces10k, type PlacesCopy } from '../shared/places-copy.js';
import { fmt, median, loadFigures, saveResults } from '../shared/report.js';
import { serverErrors } from '../shared/server.js';
import { cpuMeter } from '../shared/cpu.js';
import { serverUrl } from '../places/load.js';
import { checkNoFailedRequests, sanityOk, tiny, tinyDatabaseName } from '../shared/tiny.js';

const { rounds, duration, warmup, connections, pool, options } = benchArgs(
  { rounds: 3, duration: 6, warmup: 2 },
  { trees: '.', senders: '1', label: '' },
);
const trees = options.trees.split(',').map((tree) => path.resolve(tree));
const senders = Math.max(1, Math.min(Number(options.senders), 1000));

interface Sender {
  token: string;
  conversationId: string;
}
interface Checkout {
  tree: string;
  places: PlacesCopy;
  servers: ServerProcess[];
  senders: Sender[];
}

async function post(base: string, route: string, token: string, body: unknown) {
  const res = await fetch(base + route, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST ${route}: ${res.status} ${text}`);
  return JSON.parse(text) as { _id: string };
}

/** Senders, each with a friend, in a one-to-one conversation made through the API. */
async function makeSenders(url: string, base: string): Promise<Sender[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const run = randomBytes(3).toString('hex');
  const result: Sender[] = [];
  try {
    for (let i = 0; i < senders; i++) {
      const pair = [0, 1].map((j) => ({ id: newId(), token: generateSecretToken(), n: `${run}${i}x${j}` }));
      await sql`insert into users ${sql(pair.map((m) => ({ id: m.id, email: `sp${m.n}@bench.test`, handle: `sp${m.n}` })))}`;
      await sql`insert into sessions ${sql(
        pair.map((m) => ({
          id: newId(),
          token_hash: Buffer.from(hashSecretToken(m.token)),
          user_id: m.id,
          expires_at: new Date(Date.now() + 86_400_000),
        })),
      )}`;
      const [a, b] = pair as [(typeof pair)[0], (typeof pair)[0]];
      await sql`insert into friendships ${sql([
        { user_id: a.id, friend_id: b.id },
        { user_id: b.id, friend_id: a.id },
      ])}`;
      const conversation = await post(base, '/api/conversations', a.token, { memberIds: [b.id] });
      result.push({ token: a.token, conversationId: conversation._id });
    }
  } finally {
    await sql.end();
  }
  return result;
}

async function startCheckout(tree: string, index: number): Promise<Checkout> {
  // A tiny run loads a small set of its own (copyOfPlaces10k in tiny mode) under a name of this
  // run, so it never drops the fixed-name copies of a full run going on beside it.
  const places = await copyOfPlaces10k(tiny ? tinyDatabaseName(`sendpath_${index}`) : `cas_bench_sendpath_${index}`);
  const servers: ServerProcess[] = [];
  try {
    // The checkout's own server starter, so its own server/main.ts runs.
    const { startBenchServer } = (await import(pathToFileURL(path.join(tree, 'bench/shared/server.ts')).href)) as {
      startBenchServer: (url: string, pool: number) => Promise<ServerProcess>;
    };
    servers.push(await startBenchServer(places.url, pool));
    servers.push(await startBenchServer(places.url, pool));
    return { tree, places, servers, senders: await makeSenders(places.url, servers[0]!.url) };
  } catch (error) {
    // Not yet in `checkouts`, so the cleanup at the end would not reach it.
    await Promise.all(servers.map((server) => server.stop()));
    await places.drop();
    throw error;
  }
}

/**
 * Before anything is timed: each sender's message POST answers 201 with the message as sent, on
 * either process, and reads back from the conversation (stored, and decrypted again).
 */
async function checkSend(checkout: Checkout) {
  for (const [i, sender] of checkout.senders.entries()) {
    const base = checkout.servers[i % checkout.servers.length]!.url;
    const body = `sanity ${i}`;
    const sent = (await post(base, `/api/conversations/${sender.conversationId}/messages`, sender.token, {
      body,
    })) as { _id: string; conversationId?: string; body?: string; unreadable?: boolean };
    if (sent.body !== body || sent.conversationId !== sender.conversationId || sent.unreadable)
      throw new Error(`message POST answered ${JSON.stringify(sent)}`);
    const res = await fetch(`${base}/api/conversations/${sender.conversationId}/messages`, {
      headers: { authorization: `Bearer ${sender.token}` },
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`GET messages: ${res.status} ${text}`);
    const read = (JSON.parse(text) as { items: { _id: string; body: string }[] }).items.find((m) => m._id === sent._id);
    if (read?.body !== body) throw new Error(`the message sent is not in the list as sent: ${text.slice(0, 300)}`);
  }
  sanityOk(
    `sendpath send ${checkout.tree}: ${checkout.senders.length} message POST(s) answered 201 with the message, read back`,
  );
}

/** Status codes of every message POST under load (warm-up and timed): all must be 201. */
const postStatuses: Record<string, number> = {};

async function messagePosts(checkout: Checkout, seconds: number) {
  let i = 0;
  const result = await autocannon({
    url: checkout.servers.map((s) => s.url) as unknown as string,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        body: JSON.stringify({ body: 'yardstick' }),
        setupRequest: (request) => {
          const sender = checkout.senders[i++ % checkout.senders.length]!;
          return {
            ...request,
            path: `/api/conversations/${sender.conversationId}/messages`,
            headers: { authorization: `Bearer ${sender.token}`, 'content-type': 'application/json' },
          };
        },
      },
    ],
  });
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {}))
    postStatuses[code] = (postStatuses[code] ?? 0) + count;
  return result;
}

const cities = makeCities();
function placeList(checkout: Checkout, seconds: number, seed: number) {
  const nextBox = boxGenerator(cities, 'city', seed);
  return autocannon({
    url: checkout.servers.map((s) => s.url) as unknown as string,
    connections,
    duration: seconds,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/api/places?bbox=${nextBox()}` }) }],
  });
}

type Run = Awaited<ReturnType<typeof autocannon>>;
const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });

/**
 * One autocannon run with the CPU it cost per request: the checkout's server processes (Node) and
 * the PostgreSQL backends of its database. CPU per request is far less sensitive than req/s to
 * what else the shared machine runs.
 */
async function measured(checkout: Checkout, run: () => Promise<Run>) {
  const pids = checkout.servers.map((s) => s.child.pid!);
  const stop = await cpuMeter(admin, checkout.places.name, pids);
  const r = await run();
  const cpu = await stop();
  const requests = r.requests.total || 1;
  return {
    ...loadFigures(r),
    nodeCpuMs: cpu.servers / requests,
    postgresCpuMs: cpu.postgres / requests,
    otherCores: cpu.other / cpu.wallMs,
  };
}
interface Sample {
  round: number;
  tree: string;
  post: Awaited<ReturnType<typeof measured>>;
  list: Awaited<ReturnType<typeof measured>>;
  ratio: number;
}

const checkouts: Checkout[] = [];
const samples: Sample[] = [];
try {
  for (const [index, tree] of trees.entries()) checkouts.push(await startCheckout(tree, index));
  for (const checkout of checkouts) {
    await checkSend(checkout);
    if (warmup) {
      await messagePosts(checkout, warmup);
      await placeList(checkout, warmup, 1);
    }
  }
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...checkouts].reverse() : checkouts;
    for (const checkout of order) {
      const post = await measured(checkout, () => messagePosts(checkout, duration));
      const list = await measured(checkout, () => placeList(checkout, duration, 7 + round));
      samples.push({ round, tree: checkout.tree, post, list, ratio: post.rps / list.rps });
      console.error(
        `round ${round + 1} ${checkout.tree}: POST ${fmt(post.rps)}/s (p99 ${post.p99} ms, ${post.errors} errors, ` +
          `CPU ms node ${post.nodeCpuMs.toFixed(2)} + pg ${post.postgresCpuMs.toFixed(2)}), ` +
          `list ${fmt(list.rps)}/s (p99 ${list.p99} ms, CPU ms node ${list.nodeCpuMs.toFixed(2)} + pg ${list.postgresCpuMs.toFixed(2)}): ` +
          `${(post.rps / list.rps).toFixed(2)}×; other work on the machine ${post.otherCores.toFixed(1)} cores`,
      );
    }
  }
  const file = saveResults('sendpath', {
    label: options.label,
    command: process.argv.slice(2).join(' '),
    senders,
    connections,
    duration,
    samples,
  });
  console.log(
    `\n${rounds} alternating rounds × ${duration} s per route, ${connections} connections over two processes per checkout, ${senders} sender(s). Results: ${file}\n`,
  );
  console.log(
    '| checkout | POST req/s | POST p50 / p99 | POST CPU ms node + pg | list req/s | list p50 / p99 | list CPU ms node + pg | POST / list req/s (median of rounds) | POST / list CPU | errors |',
  );
  console.log('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const checkout of checkouts) {
    const own = samples.filter((s) => s.tree === checkout.tree);
    const m = (f: (s: Sample) => number) => median(own.map(f));
    console.log(
      `| ${checkout.tree} | ${fmt(m((s) => s.post.rps))} | ${m((s) => s.post.p50)} / ${m((s) => s.post.p99)} | ` +
        `${m((s) => s.post.nodeCpuMs).toFixed(2)} + ${m((s) => s.post.postgresCpuMs).toFixed(2)} | ` +
        `${fmt(m((s) => s.list.rps))} | ${m((s) => s.list.p50)} / ${m((s) => s.list.p99)} | ` +
        `${m((s) => s.list.nodeCpuMs).toFixed(2)} + ${m((s) => s.list.postgresCpuMs).toFixed(2)} | ` +
        `${m((s) => s.ratio).toFixed(2)}× | ${m((s) => (s.list.nodeCpuMs + s.list.postgresCpuMs) / (s.post.nodeCpuMs + s.post.postgresCpuMs)).toFixed(2)}× | ${own.reduce((n, s) => n + s.post.errors + s.list.errors, 0)} |`,
    );
  }
  // After the table, so its numbers are not lost: every POST under load created a message, and
  // no request of either route failed.
  const created = postStatuses['201'] ?? 0;
  const others = Object.entries(postStatuses).filter(([code]) => code !== '201');
  if (!created || others.length)
    throw new Error(
      `message POSTs under load: ${created} answered 201, others ${JSON.stringify(Object.fromEntries(others))}`,
    );
  sanityOk(`sendpath POSTs: all ${created} message POSTs under load answered 201`);
  checkNoFailedRequests(
    'sendpath',
    samples.flatMap((s) => [s.post, s.list]),
  );
} finally {
  for (const checkout of checkouts) {
    await Promise.all(checkout.servers.map((server) => server.stop()));
    await checkout.places.drop();
  }
  await admin.end();
}
for (const checkout of checkouts)
  for (const server of checkout.servers) {
    const errors = serverErrors(server.output());
    if (errors.length) console.error(`server errors (${checkout.tree}):\n${errors.join('\n')}`);
  }
process.exit(0);
