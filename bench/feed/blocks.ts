// Blocks and mutes against the friends feed (issue #25): does one page of the friends feed of a
// member who blocked 5,000 members (and muted 10,000) cost more than the same page with none?
// The feed statement is the API's own (`friendsFeedStatement`, prepared once per connection as the
// API runs it); the only thing that changes between the two states is the reader's rows in
// member_blocks / member_mutes. Rounds alternate the states, each round runs the statement
// `--runs` times back to back per state on one connection (page 1 and the deep page), and the
// ratio is taken per round, then the median: the machine is shared, so only ratios mean anything.
//   npx tsx bench/feed/blocks.ts [--load] [--rounds 5] [--runs 2000] [--tiny]
// The data set is the feed bench's shape at a fifth of its size (`cas_bench_blocks`, 20,000
// members, 200,000 posts; --load (re)creates it, ~1 min), so the reader can block 5,000 and mute
// 10,000 members who are not its friends. See bench/README.md, "Blocks and mutes".
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import { fillPlaceholders } from 'drizzle-orm';
import { friendsFeedStatement, friendsFeedValues } from '../../server/domains/posts/feed.js';
import { median } from '../shared/report.js';
import { sanityOk, tiny, tinyDatabaseName } from '../shared/tiny.js';
import { READER_HANDLE, TINY_SHAPE, feedDatabaseUrl, loadFeed, type FeedShape } from './load.js';

const { values } = parseArgs({
  options: {
    load: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '5' },
    runs: { type: 'string', default: '2000' },
    blocks: { type: 'string', default: '5000' },
    mutes: { type: 'string', default: '10000' },
    tiny: { type: 'boolean', default: false },
  },
});
const SHAPE: FeedShape = {
  members: 20_000,
  posts: 200_000,
  readerFriends: 500,
  groves: 5,
  otherFriendships: 60_000,
  reactions: 100_000,
  comments: 40_000,
};
const name = tiny ? tinyDatabaseName('blocks') : 'cas_bench_blocks';
const shape = tiny ? { ...TINY_SHAPE, members: 1_500 } : SHAPE;
const rounds = tiny ? 1 : Math.min(Number(values.rounds), 20);
const runs = tiny ? 50 : Math.min(Number(values.runs), 100_000);
const blockCount = tiny ? 500 : Number(values.blocks);
const muteCount = tiny ? 500 : Number(values.mutes);

const admin = postgres(feedDatabaseUrl('postgres'), { max: 1, onnotice: () => {} });
const [exists] = await admin`select 1 from pg_database where datname = ${name}`;
if (tiny || values.load || !exists) await loadFeed({ name, shape, places: false });
const sql = postgres(feedDatabaseUrl(name), { max: 1, onnotice: () => {} });
try {
  const [reader] = await sql<{ id: string }[]>`select id from users where handle = ${READER_HANDLE}`;
  // Members who are neither the reader nor a friend (a block ends a friendship), newest first.
  const strangers = await sql<{ id: string }[]>`select u.id from users u where u.id <> ${reader!.id}
    and not exists (select 1 from friendships f where f.user_id = ${reader!.id} and f.friend_id = u.id)
    order by u.id limit ${blockCount + muteCount}`;
  if (strangers.length < blockCount + muteCount) throw new Error(`only ${strangers.length} strangers`);
  const blocked = strangers.slice(0, blockCount).map((r) => r.id);
  const muted = strangers.slice(blockCount).map((r) => r.id);
  const setState = async (on: boolean) => {
    await sql`delete from member_blocks where blocker_id = ${reader!.id}`;
    await sql`delete from member_mutes where muter_id = ${reader!.id}`;
    if (!on) return;
    await sql`insert into member_blocks (blocker_id, blocked_id) select ${reader!.id}, unnest(${blocked}::uuid[])`;
    await sql`insert into member_mutes (muter_id, muted_id) select ${reader!.id}, unnest(${muted}::uuid[])`;
    await sql`analyze member_blocks`;
    await sql`analyze member_mutes`;
  };
  // Someone else blocked the reader too: the other direction's probe has rows to find.
  await sql`insert into member_blocks (blocker_id, blocked_id)
    select id, ${reader!.id} from users where id <> ${reader!.id} and not exists (
      select 1 from friendships f where f.user_id = ${reader!.id} and f.friend_id = users.id) order by id desc limit 1000
    on conflict do nothing`;

  const dialect = new PgDialect({ casing: 'snake_case' });
  const viewer = { id: reader!.id, isSiteAdmin: false };
  const [deep] = await sql<{ post_id: string }[]>`select post_id from feed_entries where owner_id = ${reader!.id}
    order by post_id desc offset ${tiny ? 200 : 999} limit 1`;
  const pages = { first: undefined, deep: deep!.post_id } as const;
  const prepared = Object.fromEntries(
    Object.entries(pages).map(([page, before]) => {
      const query = dialect.sqlToQuery(friendsFeedStatement({ cursor: before !== undefined, admin: false }));
      const params = fillPlaceholders(query.params, friendsFeedValues(viewer, before, 20)) as never[];
      return [page, { text: query.sql, params }];
    }),
  ) as Record<keyof typeof pages, { text: string; params: never[] }>;
  const run = async (page: keyof typeof pages, n: number) => {
    const { text, params } = prepared[page];
    const start = process.hrtime.bigint();
    let rows = 0;
    for (let i = 0; i < n; i++) rows = (await sql.unsafe(text, params, { prepare: true })).length;
    return { ms: Number(process.hrtime.bigint() - start) / 1e6 / n, rows };
  };

  // Sanity: the same page either way (the blocked and muted members are not the reader's
  // friends), and the block and mute checks are per-row probes, not a hash of the reader's rows.
  await setState(false);
  const none = JSON.stringify(await sql.unsafe(prepared.first.text, prepared.first.params, { prepare: true }));
  await setState(true);
  const some = JSON.stringify(await sql.unsafe(prepared.first.text, prepared.first.params, { prepare: true }));
  if (none !== some) throw new Error('the page differs with the blocks');
  sanityOk(`blocks: the page is the same with and without ${blockCount} blocks`);
  await sql.unsafe(`prepare q as ${prepared.first.text}`);
  const args = prepared.first.params.map((p) => `'${p}'`).join(', ');
  for (let i = 0; i < 6; i++) await sql.unsafe(`execute q(${args})`);
  const plan = (await sql.unsafe(`explain (analyze, buffers) execute q(${args})`))
    .map((r) => r['QUERY PLAN'])
    .join('\n');
  await sql.unsafe('deallocate q');
  // A hashed check would read the table once (loops=1); a probe runs once per candidate row.
  const probes = [...plan.matchAll(/on member_(?:blocks|mutes) .*loops=(\d+)/g)].map((m) => Number(m[1]));
  if (probes.length !== 3 || probes.some((loops) => loops < 2)) throw new Error(`not per-row probes:\n${plan}`);
  sanityOk('blocks: the checks are per-row probes');
  if (!tiny) console.log(plan);

  // The work itself, which the machine's load does not change: buffers each state's page reads
  // (the top node's shared hits) and PostgreSQL's own execution time, generic plan, warm.
  for (const on of [false, true]) {
    await setState(on);
    for (const page of ['first', 'deep'] as const) {
      await sql.unsafe(`prepare w as ${prepared[page].text}`);
      const args = prepared[page].params.map((p) => `'${p}'`).join(', ');
      for (let i = 0; i < 6; i++) await sql.unsafe(`execute w(${args})`);
      const lines = (await sql.unsafe(`explain (analyze, buffers) execute w(${args})`)).map((r) => r['QUERY PLAN']);
      await sql.unsafe('deallocate w');
      const buffers = /shared hit=(\d+)/.exec(lines.find((l) => l.includes('Buffers:')) ?? '')?.[1];
      const exec = /Execution Time: ([\d.]+)/.exec(lines.join('\n'))?.[1];
      console.log(
        `${on ? 'blocked' : 'none'} ${page} page: ${buffers} buffers, ${exec} ms execution (EXPLAIN ANALYZE)`,
      );
    }
  }

  const samples: { round: number; state: string; page: string; ms: number }[] = [];
  const load = () => loadavg()[0]!;
  const loadBefore = load();
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [false, true] : [true, false];
    for (const on of order) {
      await setState(on);
      for (const page of ['first', 'deep'] as const) {
        await run(page, Math.ceil(runs / 10)); // warm
        const { ms } = await run(page, runs);
        samples.push({ round, state: on ? 'blocked' : 'none', page, ms });
      }
    }
  }
  const ratio = (page: string) =>
    median(
      Array.from({ length: rounds }, (_, round) => {
        const at = (state: string) =>
          samples.find((s) => s.round === round && s.state === state && s.page === page)!.ms;
        return at('blocked') / at('none');
      }),
    );
  const med = (state: string, page: string) =>
    median(samples.filter((s) => s.state === state && s.page === page).map((s) => s.ms));
  for (const page of ['first', 'deep'])
    console.log(
      `${page} page: none ${med('none', page).toFixed(3)} ms, ${blockCount} blocks + ${muteCount} mutes ${med('blocked', page).toFixed(3)} ms per execution; ratio (per round, median) ${ratio(page).toFixed(3)}×`,
    );
  console.log(
    `load average before ${loadBefore.toFixed(1)}, after ${load().toFixed(1)}; rounds ${rounds} × ${runs} runs`,
  );
  for (const page of ['first', 'deep'])
    console.log(
      `${page} per-round ratios: ${Array.from({ length: rounds }, (_, round) => {
        const at = (state: string) =>
          samples.find((x) => x.round === round && x.state === state && x.page === page)!.ms;
        return (at('blocked') / at('none')).toFixed(2);
      }).join(' ')}`,
    );
  sanityOk(`blocks: ratio page 1 ${ratio('first').toFixed(2)}×, deep ${ratio('deep').toFixed(2)}×`);
} finally {
  await sql.end();
  if (tiny) await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}
