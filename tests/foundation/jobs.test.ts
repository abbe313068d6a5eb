// Background jobs: the expired-credentials sweep, and one runner at a time (advisory lock).
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { magicLinkTokens, rateLimits, sessions } from '../../db/schema/index.js';
import { createJobRunner, type Job } from '../../server/jobs/runner.js';
import { expiredCredentialsSweep } from '../../server/jobs/sweeps.js';
import { generateSecretToken, hashSecretToken } from '../../server/auth/tokens.js';
import { createMember, createTestApp, unique, type TestApp } from '../setup/harness.js';
import { gatedJob } from './gated-job.js';
import { quietPeriod } from '../setup/wait.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const at = (offsetMs: number) => new Date(t.clock.now().getTime() + offsetMs);

describe('expired-credentials sweep', () => {
  it('deletes exactly the expired sessions, magic-link tokens and rate-limit windows', async () => {
    const m = await createMember(t);
    const db = t.deps.database.db;
    const insertSession = async (expiresAt: Date) =>
      (
        await db
          .insert(sessions)
          .values({
            tokenHash: hashSecretToken(generateSecretToken()),
            userId: m.id,
            createdAt: at(-86_400_000),
            expiresAt,
          })
          .returning()
      )[0]!.id;
    const insertMagic = async (expiresAt: Date) =>
      (
        await db
          .insert(magicLinkTokens)
          .values({
            tokenHash: hashSecretToken(generateSecretToken()),
            userId: m.id,
            createdAt: at(-3_600_000),
            expiresAt,
          })
          .returning()
      )[0]!.id;
    const insertWindow = async (expiresAt: Date) => {
      const key = `test:${unique('k')}`;
      await db.insert(rateLimits).values({ key, windowStart: at(-3_600_000), expiresAt, count: 3 });
      return key;
    };
    const expired = {
      sessions: [await insertSession(at(-1000)), await insertSession(at(-86_400_000))],
      magic: [await insertMagic(at(-1000))],
      windows: [await insertWindow(at(-1000))],
    };
    const live = {
      sessions: [await insertSession(at(1_000))],
      magic: [await insertMagic(at(1_000))],
      windows: [await insertWindow(at(1_000))],
    };

    const runner = createJobRunner(t.deps, [expiredCredentialsSweep]);
    const summary = await runner.runOnce(expiredCredentialsSweep);
    expect(summary).not.toBeNull();
    expect(summary!.sessions).toBeGreaterThanOrEqual(2);
    expect(summary!.magicLinkTokens).toBeGreaterThanOrEqual(1);
    expect(summary!.rateLimits).toBeGreaterThanOrEqual(1);

    const left = async () => ({
      sessions: (
        await db
          .select({ id: sessions.id })
          .from(sessions)
          .where(inArray(sessions.id, [...expired.sessions, ...live.sessions]))
      )
        .map((r) => r.id)
        .sort(),
      magic: (
        await db
          .select({ id: magicLinkTokens.id })
          .from(magicLinkTokens)
          .where(inArray(magicLinkTokens.id, [...expired.magic, ...live.magic]))
      ).map((r) => r.id),
      windows: (
        await db
          .select({ key: rateLimits.key })
          .from(rateLimits)
          .where(inArray(rateLimits.key, [...expired.windows, ...live.windows]))
      ).map((r) => r.key),
    });
    expect(await left()).toEqual({ sessions: live.sessions, magic: live.magic, windows: live.windows });
    // The member's own registration session was live and is untouched.
    expect((await t.request('GET', '/api/me', { token: m.token })).status).toBe(200);

    // Once their time passes (ManualClock), the rest go too.
    t.clock.advance(2_000);
    try {
      await runner.runOnce(expiredCredentialsSweep);
      expect(await left()).toEqual({ sessions: [], magic: [], windows: [] });
    } finally {
      t.clock.set(new Date());
    }
  });
});

describe('job runner', () => {
  it('runs a job with its lock and reports its summary', async () => {
    const runner = createJobRunner(t.deps, []);
    const job: Job = {
      name: 'noop',
      lockId: 7_319_001,
      intervalMs: 1000,
      run: async (tx) => ({ one: Number((await t.deps.database.rows<{ n: number }>(sql`select 1 as n`, tx))[0]!.n) }),
    };
    expect(await runner.runOnce(job)).toEqual({ one: 1 });
  });

  it('start() schedules runs and stop() waits for the one in progress', async () => {
    const { job, release, running, runs } = gatedJob('scheduled', 7_319_003);
    const runner = createJobRunner(t.deps, [job]);
    runner.start();
    await running;
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    // Both waits prove that something does not happen, so there is nothing to poll for.
    await quietPeriod(100, 'stop() resolving while a run is in progress');
    expect(stopped).toBe(false);
    release();
    await stopping;
    const after = runs();
    await quietPeriod(150, 'a run starting after stop()');
    expect(runs()).toBe(after);
  });
});
