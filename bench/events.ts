// Event list under the visibility rules at scale: 100,000 events, 10,000 groves, 1,000
// organizations, 20,000 members (3 groves and ~10 friends each), 300,000 RSVPs, and 100,000
// approved places for the reference query. Builds a fresh PostgreSQL database (BENCH_SERVER_URL,
// default postgres://postgres@127.0.0.1:5432/postgres), seeds it with generate_series, then
// times each query through the real app (createApp + app.request, no sockets) and reports
// milliseconds and the ratio to the places list query. Run: npx tsx bench/events.ts
// `--tiny` (CI's check): 1/100 of the data and 5 requests per query, in a throw-away database.
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { createApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { createDeps } from '../server/deps.js';
import { createSession } from '../server/auth/sessions.js';
import { benchSecrets } from './shared/secrets.js';
import { sanityOk, tiny, tinyDatabaseName } from './shared/tiny.js';

const serverUrl = process.env.BENCH_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const FULL = { users: 20_000, groves: 10_000, orgs: 1_000, events: 100_000, places: 100_000, rsvps: 300_000 };
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
    LOG_LEVEL: 'silent',
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
    insert into friendships (user_id, friend_id)
      select a.id, b.id from u a cross join generate_series(1, 5) k join u b on b.n = ((a.n + k * 997) % ${N.users}) + 1 where a.id <> b.id
      on conflict do nothing;
    insert into friendships (user_id, friend_id) select friend_id, user_id from friendships on conflict do nothing;
    -- Ids in time order, as the app makes them (uuidv7-like: timestamp prefix), so cursors page.
    insert into events (id, slug, title, type, starts_at, ends_at, host_grove_id, host_organization_id, creator_id, area, visibility, description)
      select (lpad(to_hex(1700000000000 + i), 12, '0') || '7' || substr(md5(i::text), 1, 19))::uuid,
             'event-' || i, 'Event ' || i,
             (array['protest','vigil','outreach','potluck','sanctuary_day','screening','meeting','other'])[1 + i % 8],
             now() + (i % 365 - 60) * interval '1 day', now() + (i % 365 - 60) * interval '1 day' + interval '2 hours',
             case when i % 5 <> 0 then (select id from g where g.n = (i % ${N.groves}) + 1) end,
             case when i % 5 = 0 then (select id from o where o.n = (i % ${N.orgs}) + 1) end,
             (select id from u where u.n = (i % ${N.users}) + 1),
             'City ' || (i % 500),
             case when i % 10 < 7 then 'public' when i % 10 < 9 and i % 5 <> 0 then 'grove' else 'friends' end,
             ''
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
    analyze;
  `),
  );
  console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const [viewer] = await deps.database.rows<{ id: string }>(
    sql`select user_id as id from grove_members where role = 'member' limit 1`,
  );
  const [organizer] = await deps.database.rows<{ id: string }>(
    sql`select user_id as id from grove_members where role = 'organizer' limit 1`,
  );
  const member = (await createSession(deps.database.db, viewer!.id, new Date(), 30)).token;
  const organizerToken = (await createSession(deps.database.db, organizer!.id, new Date(), 30)).token;
  const [someGrove] = await deps.database.rows<{ id: string }>(
    sql`select host_grove_id as id from events where host_grove_id is not null limit 1`,
  );
  const { app } = createApp(deps);

  async function time(label: string, path: string, token?: string) {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    for (let i = 0; i < WARMUP; i++) await app.request(path, { headers }); // warm-up
    const samples: number[] = [];
    let body = '';
    for (let i = 0; i < ROUNDS; i++) {
      const started = performance.now();
      const res = await app.request(path, { headers });
      if (res.status !== 200) throw new Error(`${label}: ${res.status} ${await res.text()}`);
      body = await res.text();
      samples.push(performance.now() - started);
    }
    // An empty page would time nothing but the framework.
    if (!(JSON.parse(body) as { items: unknown[] }).items.length) throw new Error(`${label}: an empty page`);
    samples.sort((a, b) => a - b);
    return {
      label,
      mean: samples.reduce((a, b) => a + b, 0) / samples.length,
      p95: samples[Math.floor(samples.length * 0.95)]!,
    };
  }

  const from = encodeURIComponent(new Date().toISOString());
  // The tiny set's places are three rows of the grid (latitude 40–40.1), the full one's 250.
  const cityBox = tiny ? '-5,40,-4,41' : '-5,45,-4,46';
  const results = [
    await time('places: list, city box', `/api/places?bbox=${cityBox}&limit=20`),
    await time('events: anonymous, first page', '/api/events?limit=20'),
    await time('events: member (3 groves, ~10 friends), first page', '/api/events?limit=20', member),
    await time('events: organizer, first page', '/api/events?limit=20', organizerToken),
    await time('events: member, from=now', `/api/events?limit=20&from=${from}`, member),
    await time('events: member, area=City 42', '/api/events?limit=20&area=City%2042', member),
    await time('events: member, groveId', `/api/events?limit=20&groveId=${someGrove!.id}`, member),
    await time('events: member, type=vigil + from', `/api/events?limit=20&type=vigil&from=${from}`, member),
  ];
  const base = results[0]!.mean;
  console.log(
    `\n${N.events} events, ${N.groves} groves, ${N.places} places; ${ROUNDS} sequential requests each (in-process app.request)\n`,
  );
  console.log('query'.padEnd(56), 'mean ms'.padStart(8), 'p95 ms'.padStart(8), 'ratio'.padStart(7));
  for (const r of results)
    console.log(
      r.label.padEnd(56),
      r.mean.toFixed(2).padStart(8),
      r.p95.toFixed(2).padStart(8),
      (r.mean / base).toFixed(2).padStart(7),
    );
  await deps.database.close();
  // Every query answered 200 every time with a page that was not empty (time() throws otherwise).
  sanityOk(`events: ${results.length} queries × ${ROUNDS} requests answered 200`);
} finally {
  if (!process.env.KEEP_BENCH_DATABASE) await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end();
}
