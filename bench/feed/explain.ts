// EXPLAIN (ANALYZE, BUFFERS) of the friends feed statement and the naive plan, first page and the
// deep page (after the reader's 1,000th post), as the bench servers run them (prepared; the
// plan after 6 executions, when PostgreSQL may have switched to a generic plan).
//   npx tsx bench/feed/explain.ts [--depth 1000] [--runs 10] [--plan generic|custom|auto]
// (--plan sets plan_cache_mode: the naive statement is re-planned on every execution under the
// default `auto`, the design's is not.)
import postgres from 'postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import { fillPlaceholders } from 'drizzle-orm';
import { parseArgs } from 'node:util';
import { friendsFeedStatement, friendsFeedValues } from '../../server/domains/posts/feed.js';
import { naiveFriendsFeedStatement } from './bare.js';
import { READER_HANDLE, feedDatabaseUrl } from './load.js';

const { values } = parseArgs({
  options: {
    depth: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '10' },
    plan: { type: 'string', default: 'auto' },
  },
});
const sql = postgres(feedDatabaseUrl(), { max: 1, onnotice: () => {} });
await sql.unsafe(
  `set plan_cache_mode = ${{ generic: 'force_generic_plan', custom: 'force_custom_plan' }[values.plan!] ?? 'auto'}`,
);
const dialect = new PgDialect({ casing: 'snake_case' });
const [reader] = await sql<{ id: string }[]>`select id from users where handle = ${READER_HANDLE}`;
const viewer = { id: reader!.id, isSiteAdmin: false };
const [deep] = await sql<{ post_id: string }[]>`select post_id from feed_entries where owner_id = ${reader!.id}
  order by post_id desc offset ${Number(values.depth) - 1} limit 1`;
for (const [name, build] of [
  ['design', friendsFeedStatement],
  ['naive', naiveFriendsFeedStatement],
] as const) {
  for (const before of [undefined, deep!.post_id]) {
    const query = dialect.sqlToQuery(build({ cursor: before !== undefined, admin: false }));
    const params = fillPlaceholders(query.params, friendsFeedValues(viewer, before, 20)) as never[];
    await sql.unsafe(`prepare q as ${query.sql}`);
    const args = params.map((p) => `'${p}'`).join(', ');
    for (let i = 0; i < Number(values.runs) - 1; i++) await sql.unsafe(`execute q(${args})`);
    const plan = await sql.unsafe(`explain (analyze, buffers) execute q(${args})`);
    console.log(`\n=== ${name}, ${before ? `after post ${values.depth}` : 'first page'}`);
    for (const row of plan) console.log(row['QUERY PLAN']);
    await sql.unsafe('deallocate q');
  }
}
await sql.end();
