// The post counters under concurrent writers (PostgreSQL only): reactions and comments written at
// the same moment by many members, and a forced interleaving of two transactions, must leave the
// counters equal to a recount (the trigger's `n = n + 1` takes the post's row lock and re-reads
// the committed value, so no update is lost; a rolled-back write takes its count with it).
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../setup/database.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { createPost } from './helpers.js';
import { expectCountersExact, storedCounters } from './counters.js';
import { waitFor } from '../setup/wait.js';

let t: TestApp;
let a: postgres.Sql;
let b: postgres.Sql;
beforeAll(async () => {
  t = await createTestApp();
  a = postgres(testDatabaseUrl()!, { max: 1, onnotice: () => {} });
  b = postgres(testDatabaseUrl()!, { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await a?.end();
  await b?.end();
  await t?.close();
});

const kinds = ['heart', 'support', 'celebrate', 'sad'] as const;

describe('post counters under concurrency', () => {
  it('stay exact with many members reacting, changing, removing and commenting at once (API)', async () => {
    const author = await createMember(t);
    const post = await createPost(t, author, { visibility: 'public' });
    const members = await Promise.all(Array.from({ length: 16 }, () => createMember(t)));
    // Every member sends two reactions of different kinds and a comment at the same time; every
    // fourth member also removes theirs in the same burst.
    const burst = members.flatMap((m, i) => [
      t.request('POST', `/api/posts/${post._id}/reactions`, { token: m.token, body: { kind: kinds[i % 4] } }),
      t.request('POST', `/api/posts/${post._id}/reactions`, { token: m.token, body: { kind: kinds[(i + 1) % 4] } }),
      t.request('POST', `/api/posts/${post._id}/comments`, { token: m.token, body: { body: `Comment ${i}` } }),
      ...(i % 4 === 0 ? [t.request('DELETE', `/api/posts/${post._id}/reactions`, { token: m.token })] : []),
    ]);
    for (const res of await Promise.all(burst)) expect([200, 201]).toContain(res.status);

    await expectCountersExact(t, post._id);
    const stored = await storedCounters(t, post._id);
    expect(stored.comments).toBe(16);
    const total = stored.heart + stored.support + stored.celebrate + stored.sad;
    expect(total).toBeGreaterThanOrEqual(12);
    expect(total).toBeLessThanOrEqual(16);
  });

  it('wait for a concurrent reaction to commit, then count on top of it; a rollback takes its count back', async () => {
    const author = await createMember(t);
    const [x, y, z] = [await createMember(t), await createMember(t), await createMember(t)];
    const post = await createPost(t, author, { visibility: 'public' });
    const react = (sql: postgres.TransactionSql, userId: string, kind: string) =>
      sql`insert into post_reactions (post_id, user_id, kind) values (${post._id}, ${userId}, ${kind})`;

    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((r) => {
      releaseFirst = r;
    });
    let firstWrote!: () => void;
    const firstHoldsRow = new Promise<void>((r) => {
      firstWrote = r;
    });
    const first = a.begin(async (sql) => {
      await react(sql, x.id, 'heart');
      firstWrote();
      await firstMayCommit;
    });
    // The first has counted (and holds the post's row until it commits) before the second starts.
    await firstHoldsRow;
    const second = b.begin(async (sql) => {
      await react(sql, y.id, 'heart');
    });
    try {
      await someoneWaitsOnARowLock();
    } finally {
      releaseFirst();
    }
    await Promise.all([first, second]);
    expect(await storedCounters(t, post._id)).toMatchObject({ heart: 2 });

    // A reaction whose transaction rolls back leaves no count behind.
    await expect(
      a.begin(async (sql) => {
        await react(sql, z.id, 'heart');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await storedCounters(t, post._id)).toMatchObject({ heart: 2 });
    await expectCountersExact(t, post._id);
  });
});

/** Resolves once a statement of this database waits for another transaction's row lock. */
async function someoneWaitsOnARowLock() {
  await waitFor(
    async () => {
      // Asked on the app's own pool: a and b are busy in their transactions.
      const [row] = await t.deps.database.rows<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and wait_event in ('transactionid', 'tuple')`);
      return row!.n > 0;
    },
    { timeoutMs: 10_000, message: 'the second reaction to wait for the first' },
  );
}
