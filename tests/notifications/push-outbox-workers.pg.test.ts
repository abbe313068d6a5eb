// Two workers on one push outbox (server/push/outbox.ts): on PostgreSQL the outbox job runs in
// every process at once (no advisory lock), so its claim must never hand one row to two of them.
// A claim held open is skipped by the other worker (SKIP LOCKED), a committed claim has taken its
// rows, and two jobs run side by side send each member exactly one push per message.
// PostgreSQL only: PGlite has one connection, and the runner's lock keeps it single-worker.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { messagePushKind } from '../../server/domains/conversations/message-pushes.js';
import { createJobRunner } from '../../server/jobs/runner.js';
import { ADVISORY_LOCKS } from '../../db/advisory-locks.js';
import { claimOutbox } from '../../server/push/outbox.js';
import { befriend, send, startConversation } from '../messaging/helpers.js';
import { createMember, type TestApp } from '../setup/harness.js';
import { outboxJobOf, usePushJobHarness } from './push-job-harness.js';
import type { TestPushService } from './push-service.js';

const harness = usePushJobHarness(messagePushKind);
const { subscribe, pushesTo } = harness;
let t: TestApp;
let push: TestPushService;
beforeAll(() => {
  ({ t, push } = harness);
});

const messageKind = [{ kind: 'message' as const }];

describe('two workers on the push outbox (PostgreSQL)', () => {
  it('never claim the same row: an open claim is skipped, a committed one has taken its rows', async () => {
    const [ana, ben] = await Promise.all([createMember(t, { prefix: 'ana' }), createMember(t, { prefix: 'ben' })]);
    await befriend(t, ana!, ben!);
    const direct = await startConversation(t, ana!, [ben!]);
    for (let i = 0; i < 6; i++) await send(t, ana!, direct._id, `message ${i}`);
    const { database } = t.deps;
    const now = t.clock.now();

    let releaseFirst!: () => void;
    const firstHolds = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let firstClaimed!: (ids: number[]) => void;
    const firstIds = new Promise<number[]>((resolve) => {
      firstClaimed = resolve;
    });
    // Worker A claims three rows and keeps its transaction open while worker B claims.
    const workerA = database.db.transaction(async (tx) => {
      const { fresh } = await claimOutbox(database, tx, messageKind, now, 3);
      firstClaimed(fresh.map((row) => row.id));
      await firstHolds;
      return fresh.map((row) => row.id);
    });
    const a = await firstIds;
    const b = await database.db.transaction(async (tx) =>
      (await claimOutbox(database, tx, messageKind, now)).fresh.map((row) => row.id),
    );
    releaseFirst();
    expect(await workerA).toEqual(a);
    expect(a).toHaveLength(3);
    expect(b).toHaveLength(3);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    // Both committed: the rows are gone.
    const c = await database.db.transaction(async (tx) => (await claimOutbox(database, tx, messageKind, now)).fresh);
    expect(c).toEqual([]);
    await database.rows(sql`delete from push_outbox where kind = 'message'`);
  });

  it('runs while another process holds the job lock (the runner takes none for it on PostgreSQL)', async () => {
    const job = outboxJobOf(t, [messagePushKind]);
    expect(job.concurrent).toBe(true);
    const runner = createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [job]);
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = t.deps.database.db.transaction(async (tx) => {
      await t.deps.database.rows(sql`select pg_advisory_xact_lock(${ADVISORY_LOCKS.pushOutbox})`, tx);
      locked();
      await released;
    });
    await isLocked;
    try {
      expect(await runner.runOnce(job)).not.toBeNull();
    } finally {
      release();
      await holder;
    }
  });

  it('send each member one push per message when two jobs run side by side', async () => {
    const [ana, ben, cleo] = await Promise.all(['ana', 'ben', 'cle'].map((prefix) => createMember(t, { prefix })));
    for (const friend of [ben!, cleo!]) await befriend(t, ana!, friend);
    const endpoints = [await subscribe(ben!), await subscribe(cleo!)];
    const group = await startConversation(t, ana!, [ben!, cleo!], 'Two workers');
    const count = 20;
    for (let i = 0; i < count; i++) await send(t, ana!, group._id, `message ${i}`);

    // Two processes' jobs (no advisory lock on PostgreSQL), small batches so they interleave.
    const jobs = [outboxJobOf(t, [messagePushKind], { batch: 3 }), outboxJobOf(t, [messagePushKind], { batch: 3 })];
    const runners = jobs.map((job) =>
      createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [job]),
    );
    const summaries: Record<string, number>[] = [];
    for (let round = 0; round < count; round++) {
      const runs = await Promise.all(runners.map((runner, i) => runner.runOnce(jobs[i]!)));
      expect(runs).not.toContain(null);
      summaries.push(...(runs as Record<string, number>[]));
      const [left] = await t.deps.database.rows<{ n: number }>(
        sql`select count(*)::int as n from push_outbox where kind = 'message'`,
      );
      if (Number(left!.n) === 0) break;
    }
    for (const endpoint of endpoints) expect(pushesTo(endpoint)).toHaveLength(count);
    expect(summaries.reduce((sum, s) => sum + (s.sent ?? 0), 0)).toBe(2 * count);
    expect(push.rejected).toEqual([]);
  });
});
