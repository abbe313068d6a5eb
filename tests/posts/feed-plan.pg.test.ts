// The friends feed statement as its prepared generic plan runs it (the API prepares it once per
// connection, and PostgreSQL soon settles on the generic plan): the friendship of each candidate
// post is one index probe, never a hash of all the reader's friends built on every page, whose
// cost would grow with the number of friends: the one thing the inbox design must not depend on
// (bench/README.md, "Friends feed"). A plan shape, not a timing. PostgreSQL only.
import { fillPlaceholders } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { friendsFeedStatement, friendsFeedValues } from '../../server/domains/posts/feed.js';
import { testDatabaseUrl } from '../setup/database.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';

let t: TestApp;
let sql: postgres.Sql;
beforeAll(async () => {
  t = await createTestApp();
  sql = postgres(testDatabaseUrl()!, { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await sql?.end();
  await t?.close();
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  'Subplan Name'?: string;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

describe('the friends feed plan', () => {
  it.each([false, true])('probes the friendship per candidate row, cursor %s', async (withCursor) => {
    const reader = await createMember(t);
    const friend = await createMember(t);
    await sql`insert into friendships (user_id, friend_id) values (${reader.id}, ${friend.id}), (${friend.id}, ${reader.id})`;
    await t.request('POST', '/api/posts', { token: friend.token, body: { body: 'hello', visibility: 'friends' } });

    const query = new PgDialect({ casing: 'snake_case' }).sqlToQuery(
      friendsFeedStatement({ cursor: withCursor, admin: false }),
    );
    const values = friendsFeedValues(
      { id: reader.id, isSiteAdmin: false },
      withCursor ? 'ffffffff-ffff-7fff-bfff-ffffffffffff' : undefined,
      20,
    );
    const params = fillPlaceholders(query.params, values) as string[];
    await sql.begin(async (tx) => {
      await tx.unsafe('set local plan_cache_mode = force_generic_plan');
      await tx.unsafe(`prepare feed_plan_probe as ${query.sql}`);
      const args = params.map((p) => `'${p}'`).join(', ');
      const [row] = await tx.unsafe(`explain (format json) execute feed_plan_probe(${args})`);
      const rows = await tx.unsafe(`execute feed_plan_probe(${args})`);
      await tx.unsafe('deallocate feed_plan_probe');

      const [{ Plan: plan }] = row!['QUERY PLAN'] as [{ Plan: PlanNode }];
      const friendships = nodesOf(plan).filter((node) => node['Relation Name'] === 'friendships');
      expect(friendships.length).toBe(1);
      // A hashed sub-plan would scan `user_id = $n` alone and build a hash of every friend.
      expect(friendships[0]!['Index Cond']).toMatch(/friend_id = p\.author_id/);
      expect(rows.map((r) => r.body)).toEqual(['hello']);
    });
  });
});
