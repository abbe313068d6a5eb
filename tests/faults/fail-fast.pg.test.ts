// Fail fast during a database outage (PostgreSQL only): once a connection failure is confirmed
// by a failed probe, every call answers 503 `unavailable` with Retry-After at once, instead of
// waiting out the request deadline; a background probe brings the service back by itself.
// A statement timeout (a slow query) is not an outage and never trips it.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMember } from '../security/callers.js';
import { proxiedApp, type ProxiedApp } from './proxied-app.js';
import { eventually, quietPeriod } from '../setup/wait.js';

/** Generous for a loaded CI machine; measured figures are printed (typically a few ms). */
const FAIL_FAST_BOUND_MS = 500;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

describe('fail fast while the database is down (PostgreSQL)', () => {
  let p: ProxiedApp;
  let token: string;

  beforeAll(async () => {
    // The deadline is the default 10 s: without fail-fast every call would wait for it (or the connect timeout).
    p = await proxiedApp('fail_fast');
    token = (await insertMember(p.t, { prefix: 'ff' })).token;
  });
  afterAll(() => p?.close());

  it.each(['refuse', 'blackhole'] as const)(
    'answers 503 with Retry-After at once while down (%s), then recovers without a restart',
    { timeout: 60_000 },
    async (mode) => {
      expect((await p.t.request('GET', '/api/me', { token })).status).toBe(200);
      await p.proxy.set(mode);
      // The first calls meet the failure (refused at once, or a connect timeout) and trip the state.
      const trippingStarted = performance.now();
      const tripping = await p.t.request('GET', '/api/me', { token });
      const trippingMs = performance.now() - trippingStarted;
      expect(tripping.status).toBe(503);
      expect(
        await eventually(() => p.appDatabase.health.isDown(), { timeoutMs: 10_000, intervalMs: 100 }),
        'marked down',
      ).toBe(true);
      const downAfterMs = performance.now() - trippingStarted;
      console.log(
        `fail-fast (${mode}): the first call took ${Math.round(trippingMs)} ms; known down after ${Math.round(downAfterMs)} ms`,
      );

      const latencies: number[] = [];
      for (let i = 0; i < 50; i++) {
        // Reads and a create, member and public routes alike.
        const [method, path] =
          i % 3 === 0 ? ['POST', '/api/places'] : i % 3 === 1 ? ['GET', '/api/me'] : ['GET', '/api/places'];
        const started = performance.now();
        const res = await p.t.request(method!, path!, { token, body: method === 'POST' ? { name: 'x' } : undefined });
        latencies.push(performance.now() - started);
        expect(res.status, res.text).toBe(503);
        expect(res.body.error.code).toBe('unavailable');
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      const trpc = performance.now();
      await expect(p.t.trpc(token).me.get.query({})).rejects.toMatchObject({ data: { code: 'unavailable' } });
      latencies.push(performance.now() - trpc);
      const health = await p.t.request('GET', '/healthz');
      expect(health.status).toBe(503);

      latencies.sort((a, b) => a - b);
      const p50 = percentile(latencies, 50);
      const p99 = percentile(latencies, 99);
      console.log(`fail-fast (${mode}): ${latencies.length} calls, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
      expect(p99).toBeLessThan(FAIL_FAST_BOUND_MS);

      await p.proxy.set('up');
      const back = performance.now();
      expect(
        await eventually(async () => (await p.t.request('GET', '/api/me', { token })).status === 200, {
          timeoutMs: 15_000,
          intervalMs: 100,
        }),
        'serves again',
      ).toBe(true);
      console.log(
        `fail-fast (${mode}): serving again ${Math.round(performance.now() - back)} ms after the database came back`,
      );
      expect(p.appDatabase.health.isDown()).toBe(false);
      expect((await p.t.request('GET', '/healthz')).status).toBe(200);
    },
  );

  it('a statement timeout or a slow query does not trip it', { timeout: 30_000 }, async () => {
    const error = await p.appDatabase
      .rows(sql`select pg_sleep(3)`)
      .then(() => null)
      .catch((e: unknown) => e);
    expect(error, 'statement_timeout cancelled the query').not.toBeNull();
    p.appDatabase.health.notice(error);
    // Not a connection failure, so no probe starts: nothing to poll for, only a window in which
    // the database must not be marked down.
    await quietPeriod(300, 'a statement timeout marking the database down');
    expect(p.appDatabase.health.isDown()).toBe(false);
    expect((await p.t.request('GET', '/api/me', { token })).status).toBe(200);
  });

  it('a single killed connection does not trip it: the confirming probe succeeds', { timeout: 30_000 }, async () => {
    const error = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    p.appDatabase.health.notice(error);
    // The confirming probe runs in the background and, succeeding, changes nothing observable:
    // the assertion is that the database is still up once it had time to finish.
    await quietPeriod(300, 'a succeeding probe marking the database down');
    expect(p.appDatabase.health.isDown()).toBe(false);
    expect((await p.t.request('GET', '/api/me', { token })).status).toBe(200);
  });
});
