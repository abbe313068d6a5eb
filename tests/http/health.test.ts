// GET /healthz: a real database ping; 503 unavailable when the database cannot be reached or
// the process is draining. GET /readyz: the same, and live delivery working (the realtime link
// to the other processes listening and publishing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.js';
import { createApp } from '../../server/app.js';
import { contributions } from '../../server/composition.js';
import { createRealtimeLink } from '../../server/shared/realtime-publisher.js';
import { loadConfig } from '../../server/config.js';
import { ManualClock } from '../../server/lib/clock.js';
import { TtlCache } from '../../server/lib/ttl-cache.js';
import { createLogger } from '../../server/log.js';
import { CapturingMailer, createTestApp, type TestApp } from '../setup/harness.js';
import { type SilentDatabase, startSilentDatabase } from '../setup/silent-database.js';
import packageJson from '../../package.json' with { type: 'json' };

let t: TestApp;
/** A database that hangs. */
let silent: SilentDatabase;
let silentUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  silent = await startSilentDatabase();
  silentUrl = silent.url;
});
afterAll(async () => {
  silent.close();
  await t.close();
});

/** An app whose database is a PostgreSQL that cannot be reached. */
async function appWithDeadDatabase(url: string, env: Record<string, string> = {}) {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: url,
    DATABASE_CONNECT_TIMEOUT_SECONDS: '1',
    ...env,
  });
  const database = await openDatabase({
    url,
    connectTimeoutSeconds: config.DATABASE_CONNECT_TIMEOUT_SECONDS,
    poolMax: 2,
  });
  const clock = new ManualClock();
  const { app } = createApp({
    database,
    config,
    clock,
    log: createLogger('silent'),
    mailer: new CapturingMailer(),
    cache: new TtlCache(clock),
    realtime: createRealtimeLink(),
    contributions,
  });
  return { app, close: () => database.close() };
}

describe('GET /healthz', () => {
  it('answers 200 {ok:true, version} when the database answers', async () => {
    const res = await t.request('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, version: packageJson.version });
    expect(packageJson.version).toMatch(/^\d+\.\d+\.\d+/);
    // The API document names the same version.
    expect((await t.request('GET', '/api/openapi.json')).body.info.version).toBe(packageJson.version);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 503 unavailable while the process drains (SIGTERM), though the database answers', async () => {
    const lifecycle = { draining: false };
    const { app } = createApp(t.deps, lifecycle);
    expect((await app.request('/healthz')).status).toBe(200);
    lifecycle.draining = true;
    const res = await app.request('/healthz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: { code: 'unavailable', message: 'The service is shutting down.' } });
    // Only the health check changes: API calls are still served until the listener closes.
    expect((await app.request('/api/places?bbox=13.3,52.4,13.5,52.6')).status).toBe(200);
  });

  for (const [what, urlOf] of [
    ['refused (nothing listening)', () => 'postgres://postgres@127.0.0.1:1/postgres'],
    ['silent (connect hangs)', () => silentUrl],
  ] as const) {
    it(`answers 503 unavailable within a few seconds when the database is ${what}`, async () => {
      const dead = await appWithDeadDatabase(urlOf());
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
      const login = await dead.app.request('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'a@example.test', password: 'whatever pw' }),
      });
      expect(login.status).toBe(503);
      expect(await login.json()).toMatchObject({ error: { code: 'unavailable' } });
      expect(login.headers.get('retry-after')).toBeTruthy();
      const me = await dead.app.request('/api/me', { headers: { authorization: `Bearer ${'a'.repeat(52)}` } });
      expect(me.status).toBe(503);
      // Public routes guard their resolver rather than a middleware level (procedures.ts): the
      // same 503, with or without a token to check.
      for (const headers of [{}, { authorization: `Bearer ${'a'.repeat(52)}` }] as Record<string, string>[]) {
        const places = await dead.app.request('/api/places?bbox=13.3,52.4,13.5,52.6', { headers });
        expect(places.status).toBe(503);
        expect(await places.json()).toMatchObject({ error: { code: 'unavailable' } });
        expect(places.headers.get('retry-after')).toBeTruthy();
      }
    } finally {
      await dead.close();
    }
  });

  it('an API call never outlives REQUEST_TIMEOUT_MS, even while the database hangs', async () => {
    // The connect timeout alone would hold the request for 30 s; the request deadline cuts it off.
    const dead = await appWithDeadDatabase(silentUrl, {
      DATABASE_CONNECT_TIMEOUT_SECONDS: '30',
      REQUEST_TIMEOUT_MS: '1500',
    });
    try {
      const calls = [
        () =>
          dead.app.request('/api/auth/login', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'a@example.test', password: 'whatever pw' }),
          }),
        () => dead.app.request('/api/places?bbox=-10,30,20,60'), // a public route
      ];
      for (const call of calls) {
        const started = performance.now();
        const res = await call();
        const elapsed = performance.now() - started;
        expect(res.status).toBe(503);
        expect(await res.json()).toMatchObject({ error: { code: 'unavailable' } });
        expect(res.headers.get('retry-after')).toBe('5');
        expect(elapsed).toBeGreaterThanOrEqual(1400);
        expect(elapsed).toBeLessThan(3500);
      }
    } finally {
      void dead.close();
    }
  });
});

describe('GET /readyz', () => {
  const link = { listening: true, publishing: true };
  const lifecycle = { draining: false, realtimeHealth: () => ({ ...link }) };
  let app: ReturnType<typeof createApp>['app'];
  beforeAll(() => {
    app = createApp(t.deps, lifecycle).app;
  });

  it('answers 200 {ok:true, version} when the database answers and the realtime link works', async () => {
    const res = await app.request('/readyz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, version: packageJson.version });
    expect(res.headers.get('cache-control')).toBe('no-store');
    // One process on PGlite has no link to check: ready on the database alone.
    expect((await t.request('GET', '/readyz')).status).toBe(200);
  });

  it('answers 503 unavailable while the realtime link cannot listen or publish, and /healthz stays 200', async () => {
    for (const broken of [{ listening: false }, { publishing: false }]) {
      Object.assign(link, { listening: true, publishing: true }, broken);
      const res = await app.request('/readyz');
      expect(res.status, JSON.stringify(broken)).toBe(503);
      expect(await res.json()).toEqual({
        error: { code: 'unavailable', message: expect.stringContaining('Live delivery is interrupted') },
      });
      expect((await app.request('/healthz')).status).toBe(200);
    }
    Object.assign(link, { listening: true, publishing: true });
    expect((await app.request('/readyz')).status).toBe(200);
  });

  it('answers 503 while draining and when the database is unreachable', async () => {
    lifecycle.draining = true;
    try {
      expect((await app.request('/readyz')).status).toBe(503);
    } finally {
      lifecycle.draining = false;
    }
    const dead = await appWithDeadDatabase('postgres://postgres@127.0.0.1:1/postgres');
    try {
      const res = await dead.app.request('/readyz');
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: { code: 'unavailable', message: 'The database is unreachable.' } });
    } finally {
      await dead.close();
    }
  });
});
