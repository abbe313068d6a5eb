// Realtime delivery under load: two real server processes (production mode) on a copy of the 10k
// places set, joined by the PostgreSQL adapter; N socket.io clients (default 1,000, half on each
// process), one per member, in conversations of `--group` members. Messages are POSTed through
// the REST API at a steady `--rate` (alternating processes, a random member of a random
// conversation sending), and every member socket of that conversation must receive it.
// Reports delivery latency (from just before the POST to the receiving socket) p50/p99/max,
// lost deliveries, and the message POST req/s against the place list (city boxes) as the yard
// stick, both under autocannon with the sockets connected. Writes bench/results/realtime-*.json.
//
//   npm run bench:realtime                                    # defaults: 1,000 clients, 100 msg/s, 20 s (~2 min)
//   npm run bench:realtime -- --clients 200 --duration 5      # a short check
//   npm run bench:realtime -- --tiny                          # CI's check: 20 sockets, 10 msg/s for 1 s, own small set
//   BENCH_SLOW_TIMELINE=1 npm run bench:realtime -- …          # also lists every POST over 50 ms by its send time
// The npm script gives this process (the load generator, never the servers) a 64 MB semi-space:
// receiving 3,000 deliveries a second over 5,000 sockets, a smaller young generation promoted its
// short-lived objects, and its full collections stole the servers' CPU (bench/README.md).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { io, type Socket } from 'socket.io-client';
import { newId } from '../../db/ids.js';
import { generateSecretToken, hashSecretToken } from '../../server/auth/tokens.js';
import { boxGenerator, makeCities } from '../places/data.js';
import { benchArgs } from '../shared/args.js';
import { copyOfPlaces10k } from '../shared/places-copy.js';
import { freePort } from '../../tests/multiprocess/server-process.js';
import { fmt, loadFigures, saveResults } from '../shared/report.js';
import { serverErrors, startBenchServer } from '../shared/server.js';
import { checkNoFailedRequests, sanityOk, tiny, tinyDatabaseName } from '../shared/tiny.js';

const { duration, warmup, connections, pool, options } = benchArgs(
  { rounds: 1, duration: 20, warmup: 3 },
  { clients: '1000', rate: '100', group: '10', yardstick: '8', database: 'cas_bench_realtime' },
  [],
  { clients: '20', rate: '10', group: '10', yardstick: '1' },
);
const clients = Math.min(Number(options.clients), 5000);
const rate = Math.min(Number(options.rate), 1000);
const groupSize = Math.max(2, Math.min(Number(options.group), 50));
const yardstickSeconds = Math.min(Number(options.yardstick), 60);
if (clients % groupSize) throw new Error('--clients must be a multiple of --group');

// Its own name per run when several people bench on one PostgreSQL server (`--database`); a tiny
// run always makes its own.
const DATABASE = tiny ? tinyDatabaseName('realtime') : options.database;
if (!/^[a-z_][a-z0-9_]{0,62}$/.test(DATABASE)) throw new Error('--database: lower-case letters, digits and _');
/** The copy needs cas_bench_10k idle for a moment: another bench on it makes us wait and retry. */
async function copyWhenIdle() {
  for (let attempt = 1; ; attempt++) {
    try {
      return await copyOfPlaces10k(DATABASE);
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt === 30) throw error;
      console.error('cas_bench_10k is in use by another session; retrying in 10 s');
      await new Promise((r) => setTimeout(r, 10_000));
    }
  }
}
const places = await copyWhenIdle();
// One after the other: two at once would migrate the same database concurrently.
// Each server's own metrics (GET /metrics on a loopback port): its view of the POST's latency and
// its GC pauses, to tell the servers' share of the tail from the bench process's own.
const metricsPorts = [await freePort(), await freePort()];
const servers = [await startBenchServer(places.url, pool, { METRICS_PORT: String(metricsPorts[0]) })];
servers.push(await startBenchServer(places.url, pool, { METRICS_PORT: String(metricsPorts[1]) }));

/** POSTs of messages the servers answered within 25 and 50 ms, and their minor/major GC pause seconds. */
async function serverView() {
  const view = { posts: 0, within25: 0, within50: 0, minorGcSeconds: 0, majorGcSeconds: 0 };
  for (const port of metricsPorts) {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    for (const line of text.split('\n')) {
      const value = Number(line.slice(line.lastIndexOf(' ') + 1));
      if (line.includes('http_request_duration_seconds_bucket') && line.includes('messages",status="201"')) {
        if (line.includes('le="+Inf"')) view.posts += value;
        if (line.includes('le="0.025"')) view.within25 += value;
        if (line.includes('le="0.05"')) view.within50 += value;
      }
      if (line.startsWith('nodejs_gc_duration_seconds_sum{kind="minor"}')) view.minorGcSeconds += value;
      if (line.startsWith('nodejs_gc_duration_seconds_sum{kind="major"}')) view.majorGcSeconds += value;
    }
  }
  return view;
}
const sql = postgres(places.url, { max: 2, onnotice: () => {} });

// The timed POSTs go through node:http, not fetch: every fetch builds a WHATWG Request whose
// abort signal undici registers in a FinalizationRegistry, which V8's young-generation collector
// keeps alive, so each one was promoted and this process ran a full collection every second or
// two, on the same two cores as the servers (bench/README.md, "The bench's own collections").
// Idle sockets are closed before the server's 5 s keep-alive timeout would close them under a request.
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: 4000 });

/** POSTs a message; resolves to the status (0 when the request failed), the body read and dropped. */
function postMessage(url: string, token: string, body: string): Promise<number> {
  const payload = JSON.stringify({ body });
  return new Promise((resolve) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent: keepAlive,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(0));
      },
    );
    request.on('error', () => resolve(0));
    request.end(payload);
  });
}

/** A full GC of this (the bench's) process, never of the servers. */
function collectBenchGarbage() {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

interface Member {
  id: string;
  token: string;
}
interface Conversation {
  id: string;
  members: Member[];
}

/** Members and their sessions straight into the database (registering 1,000 through the API would meet its per-address limits). */
async function makeMembers(count: number): Promise<Member[]> {
  const run = randomBytes(3).toString('hex');
  const members = Array.from({ length: count }, () => ({ id: newId(), token: generateSecretToken() }));
  for (let i = 0; i < count; i += 500) {
    const slice = members.slice(i, i + 500);
    await sql`insert into users ${sql(slice.map((m, j) => ({ id: m.id, email: `rt${run}${i + j}@bench.test`, handle: `rt${run}${i + j}` })))}`;
    await sql`insert into sessions ${sql(
      slice.map((m) => ({
        id: newId(),
        token_hash: Buffer.from(hashSecretToken(m.token)),
        user_id: m.id,
        expires_at: new Date(Date.now() + 86_400_000),
      })),
    )}`;
  }
  return members;
}

async function post(base: string, path: string, token: string, body: unknown) {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as { _id: string };
}

/** Conversations of `groupSize` through the API: the first member is friends with the others. */
async function makeConversations(members: Member[]): Promise<Conversation[]> {
  const conversations: Conversation[] = [];
  for (let i = 0; i < members.length; i += groupSize) {
    const group = members.slice(i, i + groupSize);
    const [owner, ...others] = group as [Member, ...Member[]];
    await sql`insert into friendships ${sql(
      others.flatMap((o) => [
        { user_id: owner.id, friend_id: o.id },
        { user_id: o.id, friend_id: owner.id },
      ]),
    )}`;
    const created = await post(servers[(i / groupSize) % 2]!.url, '/api/conversations', owner.token, {
      memberIds: others.map((o) => o.id),
    });
    conversations.push({ id: created._id, members: group });
  }
  return conversations;
}

interface Sent {
  at: number;
  recipients: number;
  /** When the POST answered, and with what (0: network error). */
  answeredAt?: number;
  status?: number;
  deliveries: number[];
}
const sent = new Map<string, Sent>();
let unexpected = 0;

function connect(base: string, member: Member): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(`${base}/messages`, {
      auth: { token: member.token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      timeout: 20_000,
    });
    socket.on('message.created', (payload: { message: { body: string } }) => {
      const entry = sent.get(payload.message.body);
      if (entry === undefined) return void unexpected++;
      entry.deliveries.push(performance.now());
    });
    socket.once('ready', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : Number.NaN;

const sockets: Socket[] = [];
let result: Record<string, unknown> = {};
try {
  console.error(`setting up ${clients} members in ${clients / groupSize} conversations of ${groupSize}…`);
  const members = await makeMembers(clients);
  const conversations = await makeConversations(members);
  const started = performance.now();
  for (let i = 0; i < members.length; i += 50)
    sockets.push(...(await Promise.all(members.slice(i, i + 50).map((m, j) => connect(servers[(i + j) % 2]!.url, m)))));
  console.error(`${sockets.length} sockets ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  /** Posts `count` messages at `rate` per second on a fixed schedule (not waiting for answers). */
  async function steady(seconds: number, label: string, lateDeliveriesMs = 3000) {
    const count = Math.round(seconds * rate);
    const interval = 1000 / rate;
    const begin = performance.now();
    const posts: Promise<unknown>[] = [];
    const entries: Sent[] = [];
    for (let i = 0; i < count; i++) {
      const due = begin + i * interval;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const conversation = conversations[Math.floor(Math.random() * conversations.length)]!;
      const sender = conversation.members[Math.floor(Math.random() * conversation.members.length)]!;
      const body = `${label}-${i}`;
      const entry: Sent = { at: performance.now(), recipients: conversation.members.length, deliveries: [] };
      sent.set(body, entry);
      entries.push(entry);
      posts.push(
        postMessage(`${servers[i % 2]!.url}/api/conversations/${conversation.id}/messages`, sender.token, body).then(
          (status) => {
            entry.status = status;
            entry.answeredAt = performance.now();
          },
        ),
      );
    }
    const achieved = count / ((performance.now() - begin) / 1000);
    await Promise.all(posts);
    await new Promise((r) => setTimeout(r, lateDeliveriesMs)); // late deliveries still count
    return { count, achieved, entries };
  }

  // Straight from the warm-up into the timed run: a pause between them would let the servers go
  // idle, and V8 starts a full collection on an idle heap that then finishes inside the run.
  await steady(warmup, 'warmup', 0);
  // This process holds 5,000 socket.io clients (a heap of a few hundred MB): a full collection of
  // its own, with its marking threads on the same two cores, slowed every server at the same
  // moment ~1.4 s into nearly every run (bench/README.md, "The bench's own collections"). Collect
  // before the timed window, so what is measured is the servers.
  collectBenchGarbage();
  const serversBefore = await serverView();
  // The bench process's own event-loop delay while it sends and receives: it adds to every
  // latency measured here (5,000 sockets share this one process's loop).
  const benchLoop = monitorEventLoopDelay({ resolution: 1 });
  benchLoop.enable();
  const run = await steady(duration, 'run');
  benchLoop.disable();
  const serversAfter = await serverView();
  const servers_ = Object.fromEntries(
    Object.entries(serversAfter).map(([k, v]) => [k, v - serversBefore[k as keyof typeof serversBefore]]),
  ) as typeof serversAfter;
  const ok = run.entries.filter((e) => e.status === 201);
  const failed = run.entries.filter((e) => e.status !== 201);
  const statuses: Record<string, number> = {};
  for (const e of failed) statuses[String(e.status)] = (statuses[String(e.status)] ?? 0) + 1;
  const expected = ok.reduce((n, e) => n + e.recipients, 0);
  const received = ok.reduce((n, e) => n + Math.min(e.deliveries.length, e.recipients), 0);
  const extra = run.entries.reduce((n, e) => n + Math.max(0, e.deliveries.length - e.recipients), 0);
  const sorted = ok.flatMap((e) => e.deliveries.map((d) => d - e.at)).sort((a, b) => a - b);
  const postLatency = ok.map((e) => e.answeredAt! - e.at).sort((a, b) => a - b);
  if (process.env.BENCH_SLOW_TIMELINE) {
    const t0 = run.entries[0]!.at;
    const slow = ok
      .filter((e) => e.answeredAt! - e.at > 50)
      .map((e) => `${((e.at - t0) / 1000).toFixed(2)}s:${(e.answeredAt! - e.at).toFixed(0)}`);
    console.error(
      `run began ${new Date(Date.now() - (performance.now() - t0)).toISOString()}; slow POSTs (${slow.length}): ${slow.join(' ')}`,
    );
  }
  // Delivery measured from the POST's answer: what the fan-out adds once the API has committed
  // (negative: the socket had it before the HTTP answer arrived).
  const afterAnswer = ok.flatMap((e) => e.deliveries.map((d) => d - e.answeredAt!)).sort((a, b) => a - b);
  const delivery = {
    messages: run.count,
    achievedRate: run.achieved,
    failedPosts: failed.length,
    failedStatuses: statuses,
    deliveredDespiteFailedPost: failed.reduce((n, e) => n + e.deliveries.length, 0),
    expectedDeliveries: expected,
    received,
    lost: expected - received,
    duplicates: extra,
    strays: unexpected,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    postP50: percentile(postLatency, 50),
    postP99: percentile(postLatency, 99),
    afterAnswerP50: percentile(afterAnswer, 50),
    afterAnswerP99: percentile(afterAnswer, 99),
    benchLoopDelayP99Ms: benchLoop.percentile(99) / 1e6,
    benchLoopDelayMaxMs: benchLoop.max / 1e6,
    serverPostsWithin25Ms: servers_.within25 / servers_.posts,
    serverPostsWithin50Ms: servers_.within50 / servers_.posts,
    serverMinorGcMs: servers_.minorGcSeconds * 1000,
    serverMajorGcMs: servers_.majorGcSeconds * 1000,
  };
  console.error(
    `delivery: ${run.count} messages at ${run.achieved.toFixed(1)}/s (${failed.length} POSTs failed: ${JSON.stringify(statuses)}), ` +
      `${received}/${expected} deliveries, p50 ${delivery.p50.toFixed(1)} ms, p99 ${delivery.p99.toFixed(1)} ms; ` +
      `POST p50 ${delivery.postP50.toFixed(1)} p99 ${delivery.postP99.toFixed(1)} ms; after the answer p50 ` +
      `${delivery.afterAnswerP50.toFixed(1)} p99 ${delivery.afterAnswerP99.toFixed(1)} ms`,
  );
  console.error(
    `servers' own view: ${(delivery.serverPostsWithin25Ms * 100).toFixed(1)}% of POSTs answered within 25 ms, ` +
      `${(delivery.serverPostsWithin50Ms * 100).toFixed(2)}% within 50 ms; GC pauses minor ${delivery.serverMinorGcMs.toFixed(0)} ms, ` +
      `major ${delivery.serverMajorGcMs.toFixed(0)} ms (both servers, during the run); bench process loop delay p99 ` +
      `${delivery.benchLoopDelayP99Ms.toFixed(1)} ms, max ${delivery.benchLoopDelayMaxMs.toFixed(1)} ms`,
  );

  // The yard stick: message POSTs against the place list, same connections, both processes,
  // sockets connected (each POST fans out to its conversation's sockets).
  const urls = servers.map((s) => s.url) as unknown as string;
  const target = conversations[0]!;
  const cities = makeCities();
  const nextBox = boxGenerator(cities, 'city', 7);
  const posts = await autocannon({
    url: urls,
    connections,
    duration: yardstickSeconds,
    requests: [
      {
        method: 'POST',
        path: `/api/conversations/${target.id}/messages`,
        headers: { authorization: `Bearer ${target.members[0]!.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ body: 'yardstick' }),
      },
    ],
  });
  const list = await autocannon({
    url: urls,
    connections,
    duration: yardstickSeconds,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/api/places?bbox=${nextBox()}` }) }],
  });
  const yardstick = {
    messagePost: loadFigures(posts),
    placeList: loadFigures(list),
  };
  result = { delivery, yardstick };

  const file = saveResults('realtime', {
    command: process.argv.slice(2).join(' '),
    clients,
    groupSize,
    rate,
    duration,
    warmup,
    connections,
    ...result,
  });
  console.log(
    `\n${clients} sockets (half on each of 2 processes), conversations of ${groupSize}, ${rate} msg/s for ${duration} s ` +
      `after ${warmup} s warm-up; latency from just before the POST to the receiving socket. Results: ${file}\n`,
  );
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  console.log(
    '| messages | rate | failed POSTs | deliveries | lost | p50 | p99 | max | POST p50 / p99 | after the answer p50 / p99 |',
  );
  console.log('|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  console.log(
    `| ${run.count} | ${run.achieved.toFixed(1)}/s | ${failed.length} | ${received}/${expected} | ${delivery.lost} | ` +
      `${ms(delivery.p50)} | ${ms(delivery.p99)} | ${ms(delivery.max)} | ${ms(delivery.postP50)} / ${ms(delivery.postP99)} | ` +
      `${ms(delivery.afterAnswerP50)} / ${ms(delivery.afterAnswerP99)} |`,
  );
  console.log(`\nYard stick (${connections} connections over both processes, ${yardstickSeconds} s each):\n`);
  console.log('| route | req/s | p50 | p99 | errors |');
  console.log('|---|--:|--:|--:|--:|');
  for (const [name, r] of [
    ['POST /api/conversations/:id/messages', yardstick.messagePost],
    ['GET /api/places (city boxes)', yardstick.placeList],
  ] as const)
    console.log(`| ${name} | ${fmt(r.rps)} | ${r.p50} | ${r.p99} | ${r.errors} |`);
  console.log(`\nmessage POST / place list: ${(yardstick.messagePost.rps / yardstick.placeList.rps).toFixed(2)}×`);
  // Every accepted message reached every member's socket, once, and nothing else arrived.
  if (failed.length || delivery.lost || delivery.duplicates || delivery.strays || !run.count)
    throw new Error(
      `delivery: ${run.count} messages, ${failed.length} POSTs failed, ${delivery.lost} lost, ` +
        `${delivery.duplicates} duplicates, ${delivery.strays} strays`,
    );
  sanityOk(`realtime: ${received}/${expected} deliveries of ${run.count} messages, none lost, duplicated or stray`);
  checkNoFailedRequests('realtime yard stick', [yardstick.messagePost, yardstick.placeList]);
} finally {
  for (const socket of sockets) socket.close();
  await Promise.all(servers.map((server) => server.stop()));
  await sql.end();
  await places.drop();
}
for (const server of servers) {
  const errors = serverErrors(server.output());
  if (errors.length) console.error(`server errors:\n${errors.join('\n')}`);
}
process.exit(0);
