// The friends-feed inbox under concurrency: a post and a new friendship of its author, each in a
// transaction that commits while the other is under way, must not miss each other (the triggers
// serialize on an advisory lock per author: migrations/0019_posts_feed_triggers.sql). The
// interleaving is forced with two connections. PostgreSQL only.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { testDatabaseUrl } from '../setup/database.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
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

/** Resolves once a statement of this database waits on an advisory lock. */
async function someoneWaits() {
  await waitFor(
    async () => {
      const [row] = await t.deps.database.rows<{ n: number }>(
        (await import('drizzle-orm')).sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`,
      );
      return row!.n > 0;
    },
    { timeoutMs: 10_000, message: 'a transaction waiting on the fan-out lock' },
  );
}

async function inInbox(ownerId: string, postId: string) {
  const rows = await a`select 1 from feed_entries where owner_id = ${ownerId} and post_id = ${postId}`;
  return rows.length === 1;
}

describe('feed inbox triggers', () => {
  it.each(['post first', 'friendship first'] as const)(
    'keep a post and a concurrent new friendship of its author together (%s)',
    async (order) => {
      const author = await createMember(t);
      const reader = await createMember(t);
      const postId = newId();
      let releaseFirst!: () => void;
      const firstMayCommit = new Promise<void>((r) => {
        releaseFirst = r;
      });
      const insertPost = (sql: postgres.TransactionSql) =>
        sql`insert into posts (id, author_id, body, visibility) values (${postId}, ${author.id}, 'race', 'friends')`;
      const befriend = (sql: postgres.TransactionSql) =>
        sql`insert into friendships (user_id, friend_id) values (${author.id}, ${reader.id}), (${reader.id}, ${author.id})`;
      const [first, second] = order === 'post first' ? [insertPost, befriend] : [befriend, insertPost];
      let firstWrote!: () => void;
      const firstHoldsLock = new Promise<void>((r) => {
        firstWrote = r;
      });
      const firstTx = a.begin(async (sql) => {
        await first(sql);
        firstWrote();
        await firstMayCommit;
      });
      // Start the second only once the first has written (and so holds the author's lock until
      // it commits): a fixed delay let a slow first statement lose the race on a loaded machine.
      await firstHoldsLock;
      const secondTx = b.begin(async (sql) => {
        await second(sql);
      });
      try {
        await someoneWaits();
      } finally {
        // Even when the check fails, let the first transaction end, or closing its client hangs.
        releaseFirst();
      }
      await Promise.all([firstTx, secondTx]);
      expect(await inInbox(reader.id, postId)).toBe(true);
      const feed = await t.trpc(reader.token).feed.list.query({});
      expect(feed.items.map((p) => p._id)).toEqual([postId]);
    },
  );
});
