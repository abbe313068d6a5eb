// The counters stored on a post, and a check that they equal a recount of its rows.
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp } from '../setup/harness.js';

export interface Counters {
  heart: number;
  support: number;
  celebrate: number;
  sad: number;
  comments: number;
}

export async function storedCounters(t: TestApp, postId: string): Promise<Counters> {
  const [row] = await t.deps.database.rows<Counters>(
    sql`select heart_count as heart, support_count as support, celebrate_count as celebrate, sad_count as sad,
               comment_count as comments
        from posts where id = ${postId}`,
  );
  if (!row) throw new Error(`no post ${postId}`);
  return row;
}

export async function recountedCounters(t: TestApp, postId: string): Promise<Counters> {
  const [row] = await t.deps.database.rows<Counters>(
    sql`select count(*) filter (where kind = 'heart')::int as heart, count(*) filter (where kind = 'support')::int as support,
               count(*) filter (where kind = 'celebrate')::int as celebrate, count(*) filter (where kind = 'sad')::int as sad,
               (select count(*)::int from post_comments where post_id = ${postId} and hidden_at is null) as comments
        from post_reactions where post_id = ${postId}`,
  );
  return row!;
}

export async function expectCountersExact(t: TestApp, postId: string): Promise<void> {
  expect(await storedCounters(t, postId)).toEqual(await recountedCounters(t, postId));
}
