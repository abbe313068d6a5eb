// Two runners on one job: the advisory lock lets one run and the other skip. PostgreSQL only
// (*.pg.test.ts): PGlite has one connection, so its transactions queue instead of competing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner } from '../../server/jobs/runner.js';
import { createTestApp, type TestApp } from '../setup/harness.js';
import { gatedJob } from './gated-job.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('job runner across two runners (PostgreSQL)', () => {
  it('two concurrent runs of one job: one runs, the other is skipped', async () => {
    const { job, release, running, runs } = gatedJob('gated', 7_319_002);
    const a = createJobRunner(t.deps, [job]);
    const b = createJobRunner(t.deps, [job]);
    const first = a.runOnce(job);
    await running;
    const second = await b.runOnce(job);
    expect(second).toBeNull();
    release();
    expect(await first).toEqual({ runs: 1 });
    expect(runs()).toBe(1);
    // With the lock free again, the next run goes ahead.
    expect(await b.runOnce(job)).toEqual({ runs: 2 });
  });
});
