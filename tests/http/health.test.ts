// GET /healthz: a real database ping; 503 unavailable when the database cannot be reached.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.js';
import { createApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { ManualClock } from '../../server/lib/clock.js';
import { TtlCache } from '../../server/lib/ttl-cache.js';
import { createLogger } from '../../server/log.js';
import { CapturingMailer, createTestApp, type TestApp } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** An app whose database is a PostgreSQL that cannot be reached (nothing listens there). */
async function appWithDeadDatabase(url: string) {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: url, DATABASE_CONNECT_TIMEOUT_SECONDS: '1' });
  const database = await openDatabase({ url, connectTimeoutSeconds: 1, poolMax: 2 });
  const clock = new ManualClock();
  const { app } = createApp({ database, config, clock, log: createLogger('silent'), mailer: new CapturingMailer(), cache: new TtlCache(clock) });
  return { app, close: () => database.close() };
}

describe('GET /healthz', () => {
  it('answers 200 {ok:true} when the database answers', async () => {
    const res = await t.request('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  for (const [what, url] of [
    ['refused (nothing listening)', 'postgres://postgres@127.0.0.1:1/postgres'],
    ['unroutable (connect hangs)', 'postgres://postgres@10.255.255.1:5432/postgres'],
  ] as const) {
    it(`answers 503 unavailable within a few seconds when the database is ${what}`, async () => {
      const dead = await appWithDeadDatabase(url);
      try {
        const started = performance.now();
        const res = await dead.app.request('/healthz');
        const elapsed = performance.now() - started;
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({ error: { code: 'unavailable', message: expect.any(String) } });
        expect(res.headers.get('x-request-id')).toBeTruthy();
        expect(elapsed).toBeLessThan(4000);
      } finally {
        // A connect that hangs would hold close() for its whole timeout; nothing waits on it.
        void dead.close();
      }
    });
  }

  it('API routes answer 503 unavailable (not 500) when the database is down', async () => {
    const dead = await appWithDeadDatabase('postgres://postgres@127.0.0.1:1/postgres');
    try {
      const login = await dead.app.request('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'a@example.test', password: 'whatever pw' }) });
      expect(login.status).toBe(503);
      expect(await login.json()).toMatchObject({ error: { code: 'unavailable' } });
      expect(login.headers.get('retry-after')).toBeTruthy();
      const me = await dead.app.request('/api/me', { headers: { authorization: `Bearer ${'a'.repeat(52)}` } });
      expect(me.status).toBe(503);
    } finally {
      await dead.close();
    }
  });
});
