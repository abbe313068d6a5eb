// Event list under the visibility rules at scale: 100,000 events, 10,000 groves, 1,000
// organizations, 20,000 members (3 groves and ~10 friends each), 300,000 RSVPs, and 10,000
// approved places for the reference query (a city box of 10k places, as in bench/places). Builds a fresh PostgreSQL database (BENCH_SERVER_URL,
// default postgres://postgres@127.0.0.1:5432/postgres), seeds it with generate_series, then
// times each query through the real app (createApp + app.request, no sockets) and reports
// milliseconds and the ratio to the places list query, then compares the list with a plain app
// that applies visibility after sorting (bench/events-naive.ts), and times what each per-row
// lookup of the page costs (bench/events-parts.ts). Run: npx tsx bench/events.ts
// (KEEP_BENCH_DATABASE=1 keeps the database for EXPLAIN; every run seeds a fresh one).
// `--tiny` (CI's check): 1/100 of the data and 5 requests per query, in a throw-away database.
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { createApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { createDeps } from '../server/deps.js';
import { createSession } from '../server/auth/sessions.js';
import { benchSecrets } from './shared/secrets.js';
import { sanityOk, tiny, tinyDatabaseName } from './shared/tiny.js';
import { compareWithSortThenFilter } from './events-naive.js';
import { comparePageParts } from './events-parts.js';

const serverUrl = process.env.BENCH_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const FULL = { users: 20_000, groves: 10_000, orgs: 1_000, events: 100_000, places: 10_000, rsvps: 300_000 };
const N = tiny ? { users: 200, groves: 100, orgs: 10, events: 1_000, places: 1_000, rsvps: 3_000 } : FULL;
const ROUNDS = tiny ? 5 : Number(process.env.BENCH_ROUNDS ?? 300);
const WARMUP = tiny ? 2 : 20;

const name = tiny ? tinyDatabaseName('events') : `cas_bench_events_${process.pid}`;
const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database "${name}"`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;

try {
  const config = loadConfig({
    DATABASE_URL: url.toString(),
    NODE_ENV: 'production',
    ...benchSecrets,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    PUBLIC_URL: 'http://127.0.0.1:3000',
  });
  const deps = await createDeps(config);
  const run = (q: ReturnType<typeof sql>) => deps.database.rows(q);
  const t0 = performance.now();
  await run(sql`set statement_timeout = 0`);
  await run(
    sql.raw(`
    insert into users (id, email, handle) select gen_random_uuid(), 'u' || i || '@bench.test', 'u' || i from generate_series(1, ${N.users}) i;
    create temp table u as select row_number() over (order by id) as n, id from users; create index on u (n);
    insert into groves (id, slug, name, region_name) select gen_random_uuid(), 'grove-' || i, 'Grove ' || i, 'City ' || (i % 500) from generate_series(1, ${N.groves}) i;
    create temp table g as select row_number() over (order by id) as n, id from groves; create index on g (n);
    insert into organizations (id, slug, name) select gen_random_uuid(), 'org-' || i, 'Org ' || i from generate_series(1, ${N.orgs}) i;
    create temp table o as select row_number() over (order by id) as n, id from organizations; create index on o (n); analyze u; analyze g; analyze o;
    insert into grove_members (grove_id, user_id, role)
      select g.id, u.id, case when k = 0 and u.n <= ${N.groves} then 'organizer' else 'member' end
      from u cross join generate_series(0, 2) k join g on g.n = ((u.n * 7 + k * 3331) % ${N.groves}) + 1
      on conflict do nothing;
    insert into organization_admins (organization_id, user_id) select o.id, u.id from o join u on u.n = o.n;
    -- Without triggers: the feed's friendship trigger takes an advisory lock per row, and
    -- 200,000 of them in one transaction run out of lock slots (max_locks_per_transaction).
    -- No feed is read here.
    set session_replication_role = replica;
    insert into friendships (user_id, friend_id)
      select a.id, b.id from u a cross join generate_series(1, 5) k join u b on b.n = ((a.n + k * 997) % ${N.users}) + 1 where a.id <> b.id
      on conflict do nothing;
    insert into friendships (user_id, friend_id) select friend_id, user_id from friendships on conflict do nothing;
    set session_replication_role = origin;
    -- Ids in time order, as the app makes them (uuidv7-like: timestamp prefix), so cursors page.
    insert into events (id, slug, title, type, starts_at, ends_at, host_grove_id, host_organization_id, creator_id, area, visibility, description)
      select (lpad(to_hex(1700000000000 + i), 12, '0') || '7' || substr(md5(i::text), 1, 19))::uuid,
             'event-' || i,
             initcap(replace((array['protest','vigil','outreach','potluck','sanctuary_day','screening','meeting','other'])[1 + i % 8], '_', ' '))
               || ' ' || (array['for the animals', 'in the park', 'at the market', 'by the river', 'downtown', 'outside the slaughterhouse'])[1 + (i * 31) % 6] || ' ' || i,
             (array['protest','vigil','outreach','potluck','sanctuary_day','screening','meeting','other'])[1 + i % 8],
             now() + (i % 365 - 60) * interval '1 day', now() + (i % 365 - 60) * interval '1 day' + interval '2 hours',
             case when i % 5 <> 0 then (select id from g where g.n = (i % ${N.groves}) + 1) end,
             case when i % 5 = 0 then (select id from o where o.n = (i % ${N.orgs}) + 1) end,
             (select id from u where u.n = (i % ${N.users}) + 1),
             -- City sizes skewed like the places set's (u³ over 500 cities: City 0 holds ~13% of
             -- the events, the median city ~0.04%), so a big city's page is a real test.
             'City ' || floor(500 * power(((i * 7919) % 100003)::float8 / 100003, 3))::int,
             case when i % 10 < 7 then 'public' when i % 10 < 9 and i % 5 <> 0 then 'grove' else 'friends' end,
             (array['Bring signs and water.', 'Leaflets, tables and a banner.', 'Vegan food to share, bring a dish.', 'Quiet remembrance with candles.', 'Film and discussion afterwards.'])[1 + (i * 17) % 5]
               || case when i % 97 = 0 then ' Carpooling from the station.' else '' end
      from generate_series(1, ${N.events}) i;
    insert into event_rsvps (id, event_id, user_id, status)
      select gen_random_uuid(), e.id, u.id, case when k % 2 = 0 then 'going' else 'interested' end
      from (select id, row_number() over (order by id) n from events) e cross join generate_series(1, 3) k
      join u on u.n = ((e.n * 13 + k * 4001) % ${N.users}) + 1
      on conflict do nothing;
    insert into places (id, slug, name, type, vegan_level, address, website, location, status)
      select (lpad(to_hex(1700000000000 + i), 12, '0') || '7' || substr(md5('p' || i), 1, 19))::uuid,
             'place-' || i, 'Place ' || i, 'cafe', 'full', 'Street ' || i, 'https://p.example',
             st_setsrid(st_makepoint(-10 + (i % 400) * 0.05, 40 + (i / 400) * 0.05), 4326), 'approved'
      from generate_series(1, ${N.places}) i;
  `),
  );
  // Vacuumed, not only analyzed: a table this size is vacuumed by autovacuum after a bulk load,
  // which empties the GIN index's pending list (18,679 entries right after the load; every search
  // scans it: 23 ms against 0.5 ms for a rare word's bitmap, bench/README.md). Its own statement:
  // VACUUM cannot run in the multi-statement string above.
  await run(sql`vacuum analyze`);
  console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const [viewer] = await deps.database.rows<{ id: string }>(
    sql`select user_id as id from grove_members where role = 'member' limit 1`,
  );
  const [organizer] = await deps.database.rows<{ id: string }>(
    sql`select user_id as id from grove_members where role = 'organizer' limit 1`,
  );
  const member = (await createSession(deps.database.db, viewer!.id, new Date(), 30)).token;
  // A member who joined nothing yet: sees the public events (and none of the groves' or friends').
  const [newcomer] = await deps.database.rows<{ id: string }>(
    sql`insert into users (id, email, handle) values (gen_random_uuid(), 'new@bench.test', 'newcomer') returning id`,
  );
  const newMember = (await createSession(deps.database.db, newcomer!.id, new Date(), 30)).token;
  const organizerToken = (await createSession(deps.database.db, organizer!.id, new Date(), 30)).token;
  const [someGrove] = await deps.database.rows<{ id: string }>(
    sql`select host_grove_id as id from events where host_grove_id is not null limit 1`,
  );
  const { app } = createApp(deps);

  /**
   * The queries of the table, interleaved: each round requests every target once, in an order
   * that rotates, so a burst of load from the other work on the machine falls on all of them
   * alike (the ratios are what the bench is for; the machine is shared).
   */
  interface Target {
    label: string;
    path: (round: number) => string;
    token?: string;
    /** Some draws may be empty (a small city in the tiny set); the rest must not be. */
    mayBeEmpty?: boolean;
  }
  async function timeAll(targets: Target[]) {
    const samples = targets.map(() => [] as number[]);
    for (let round = -WARMUP; round < ROUNDS; round++) {
      for (let k = 0; k < targets.length; k++) {
        const i = (k + Math.max(round, 0)) % targets.length;
        const target = targets[i]!;
        const headers: Record<string, string> = target.token ? { authorization: `Bearer ${target.token}` } : {};
        const started = performance.now();
        const res = await app.request(target.path(round), { headers });
        const body = await res.text();
        const took = performance.now() - started;
        if (res.status !== 200) throw new Error(`${target.label}: ${res.status} ${body}`);
        // An empty page would time nothing but the framework.
        if (!target.mayBeEmpty && !(JSON.parse(body) as { items: unknown[] }).items.length)
          throw new Error(`${target.label}: an empty page`);
        if (round >= 0) samples[i]!.push(took);
      }
    }
    return targets.map((target, i) => {
      const sorted = samples[i]!.sort((a, b) => a - b);
      return {
        label: target.label,
        mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
        p95: sorted[Math.floor(sorted.length * 0.95)]!,
      };
    });
  }

  const from = encodeURIComponent(new Date().toISOString());
  // A 0.2° × 0.2° box of the places grid (0.05° apart): 16 places, like a city box of the
  // places bench's 10k set (~12). The tiny set's places are three rows (latitude 40–40.1).
  const cityBox = tiny ? '-5,40,-4,41' : '-5,40.5,-4.85,40.65';
  // Cities for "upcoming in a city": every city equally likely (seeded), and the largest.
  const cities = await deps.database.rows<{ area: string }>(
    sql`select area from events group by area order by md5(area) limit 200`,
  );
  const city = (round: number) => encodeURIComponent(cities[(round + 1000) % cities.length]!.area);
  const fixed = (path: string) => () => path;
  const results = await timeAll([
    {
      label: `places: list, city box (${N.places / 1000}k places)`,
      path: fixed(`/api/places?bbox=${cityBox}&limit=20`),
    },
    // The same page for a signed-in member: what the session check alone costs (places has no
    // per-viewer rule), to tell it from what the events list's visibility costs a member.
    {
      label: 'places: list, city box, signed in',
      path: fixed(`/api/places?bbox=${cityBox}&limit=20`),
      token: member,
    },
    { label: 'events: anonymous, first page', path: fixed('/api/events?limit=20') },
    { label: 'events: member (3 groves, ~10 friends), first page', path: fixed('/api/events?limit=20'), token: member },
    { label: 'events: organizer, first page', path: fixed('/api/events?limit=20'), token: organizerToken },
    { label: 'events: member, from=now', path: fixed(`/api/events?limit=20&from=${from}`), token: member },
    {
      label: 'events: member, upcoming in a city (any city)',
      path: (round) => `/api/events?limit=20&from=${from}&area=${city(round)}`,
      token: member,
      mayBeEmpty: true,
    },
    {
      label: 'events: new member, upcoming in a city (any city)',
      path: (round) => `/api/events?limit=20&from=${from}&area=${city(round)}`,
      token: newMember,
      mayBeEmpty: true,
    },
    {
      label: 'events: anonymous, upcoming in a city (any city)',
      path: (round) => `/api/events?limit=20&from=${from}&area=${city(round)}`,
      mayBeEmpty: true,
    },
    {
      label: 'events: member, upcoming in City 0 (largest)',
      path: fixed(`/api/events?limit=20&from=${from}&area=City%200`),
      token: member,
    },
    { label: 'events: member, area=City 42', path: fixed('/api/events?limit=20&area=City%2042'), token: member },
    { label: 'events: member, groveId', path: fixed(`/api/events?limit=20&groveId=${someGrove!.id}`), token: member },
    {
      label: 'events: member, type=vigil + from',
      path: fixed(`/api/events?limit=20&type=vigil&from=${from}`),
      token: member,
    },
    {
      label: 'events: member, q=vigil + from (common)',
      path: fixed(`/api/events?limit=20&q=vigil&from=${from}`),
      token: member,
    },
    { label: 'events: member, q=carpool (rare)', path: fixed('/api/events?limit=20&q=carpool'), token: member },
    { label: 'events: anonymous, q=slaughter + from', path: fixed(`/api/events?limit=20&q=slaughter&from=${from}`) },
    { label: 'events: member, past=true', path: fixed('/api/events?limit=20&past=true'), token: member },
  ]);
  const base = results[0]!.mean;
  console.log(
    `\n${N.events} events, ${N.groves} groves, ${N.places} places; ${ROUNDS} interleaved rounds (in-process app.request)\n`,
  );
  console.log('query'.padEnd(56), 'mean ms'.padStart(8), 'p95 ms'.padStart(8), 'ratio'.padStart(7));
  for (const r of results)
    console.log(
      r.label.padEnd(56),
      r.mean.toFixed(2).padStart(8),
      r.p95.toFixed(2).padStart(8),
      (r.mean / base).toFixed(2).padStart(7),
    );
  await compareWithSortThenFilter(
    deps.database,
    {
      anonymous: { id: null, isSiteAdmin: false },
      member: { id: viewer!.id, isSiteAdmin: false },
      'new member': { id: newcomer!.id, isSiteAdmin: false },
    },
    cities.map((c) => c.area),
  );
  await comparePageParts(
    deps.database,
    { id: viewer!.id, isSiteAdmin: false },
    cities.map((c) => c.area),
  );
  await deps.database.close();
  // Every query answered 200 every time with a page that was not empty (time() throws otherwise).
  sanityOk(`events: ${results.length} queries × ${ROUNDS} requests answered 200`);
} finally {
  if (!process.env.KEEP_BENCH_DATABASE) await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end();
}
