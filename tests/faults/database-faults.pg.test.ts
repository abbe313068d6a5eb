// Database faults, PostgreSQL only (*.pg.test.ts): connections killed mid-request (pg_terminate_backend) and
// the database going away and coming back (a TCP proxy that refuses or black-holes). Requests
// must fail fast with 503 `unavailable`, /healthz must follow the database, the app must serve
// again without a restart, and no write that answered 2xx may be lost.
// Each test uses a database of its own, so killing its connections disturbs no other file.
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client.js';
import { HEALTH_TIMEOUT_MS } from '../../server/app.js';
import { createTestApp, unique, type ApiResponse, type TestApp } from '../setup/harness.js';
import { insertMember } from '../security/callers.js';
import { isolatedDatabase } from '../security/isolated-database.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import { eventually, letTimePass } from '../setup/wait.js';

const STATEMENT_TIMEOUT_MS = 2000;
const CONNECT_TIMEOUT_S = 2;
/** The longest a request may take while the database misbehaves: one connect attempt plus one statement, plus slack. */
const FAIL_FAST_MS = CONNECT_TIMEOUT_S * 1000 + STATEMENT_TIMEOUT_MS + 2500;

const placeBody = () => ({
  name: `Fault place ${unique('f')}`,
  type: 'cafe',
  veganLevel: 'full',
  address: '1 Test Street',
  website: 'https://example.org',
  location: { lng: 13.4, lat: 52.5 },
});

interface Timed {
  what: string;
  res: ApiResponse;
  ms: number;
}

async function timed(what: string, call: () => Promise<ApiResponse>): Promise<Timed> {
  const started = performance.now();
  const res = await call();
  return { what, res, ms: performance.now() - started };
}

/** Failures: anything but 2xx or 503 unavailable, or slower than the fail-fast bound. */
function misbehaviour(results: Timed[]): string[] {
  return results
    .filter(
      (r) =>
        !(
          (r.res.status >= 200 && r.res.status < 300) ||
          (r.res.status === 503 && r.res.body?.error?.code === 'unavailable')
        ) || r.ms > FAIL_FAST_MS,
    )
    .map((r) => `${r.what}: ${r.res.status} in ${Math.round(r.ms)} ms ${r.res.text.slice(0, 160)}`);
}

describe('database faults (PostgreSQL)', () => {
  let isolated: NonNullable<Awaited<ReturnType<typeof isolatedDatabase>>>;
  let proxy: TcpProxy;
  let appDatabase: Database;
  let t: TestApp;
  let token: string;
  let injector: postgres.Sql;

  beforeAll(async () => {
    isolated = (await isolatedDatabase('faults'))!;
    const target = new URL(isolated.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const proxied = new URL(isolated.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    appDatabase = await openDatabase({
      url: proxied.toString(),
      poolMax: 4,
      statementTimeoutMs: STATEMENT_TIMEOUT_MS,
      connectTimeoutSeconds: CONNECT_TIMEOUT_S,
    });
    t = await createTestApp(
      {
        DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
        DATABASE_CONNECT_TIMEOUT_SECONDS: String(CONNECT_TIMEOUT_S),
      },
      { wrapDatabase: () => appDatabase },
    );
    token = (await insertMember(t, { prefix: 'fault' })).token;
    injector = postgres(isolated.url, {
      max: 1,
      onnotice: () => {},
      connection: { application_name: 'cas-fault-injector' },
    });
  });

  afterAll(async () => {
    await proxy?.set('up');
    await injector?.end();
    await t?.close();
    await appDatabase?.close();
    await proxy?.close();
    await isolated?.drop();
  });

  /** Places that answered 201 must all be in the database. */
  async function lostWrites(ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await isolated.database.rows<{ id: string }>(
      sql`select id::text as id from places where id = any(${`{${ids.join(',')}}`}::uuid[])`,
    );
    const found = new Set(rows.map((r) => r.id));
    return ids.filter((id) => !found.has(id));
  }

  it('survives its connections being killed mid-request (pg_terminate_backend)', { timeout: 60_000 }, async () => {
    const dbName = new URL(isolated.url).pathname.slice(1);
    let killing = true;
    let kills = 0;
    const killer = (async () => {
      while (killing) {
        // Connections still fetching their array types on connect are spared: postgres.js does
        // not handle that query's failure (an unhandled rejection, which would end a real
        // process; reported). Once a connection ran another query, it is fair game.
        const rows = await injector`select pg_terminate_backend(pid) as killed from pg_stat_activity
          where datname = ${dbName} and application_name = 'community-activism' and pid <> pg_backend_pid()
            and query <> '' and query not like '%pg_catalog.pg_type%'`;
        kills += rows.filter((r) => r.killed).length;
        await letTimePass(40, 'the next round of kills'); // a steady pace of faults, as long as the load runs
      }
    })();

    const results: Timed[] = [];
    const created: string[] = [];
    const until = Date.now() + 4000;
    while (Date.now() < until) {
      const batch = await Promise.all([
        timed('POST /api/places', () => t.request('POST', '/api/places', { token, body: placeBody() })),
        timed('GET /api/me', () => t.request('GET', '/api/me', { token })),
        timed('GET /api/places', () => t.request('GET', '/api/places')),
        timed('GET /api/stats', () => t.request('GET', '/api/stats')),
        timed('GET /healthz', () => t.request('GET', '/healthz')),
      ]);
      results.push(...batch);
      for (const r of batch) if (r.what === 'POST /api/places' && r.res.status === 201) created.push(r.res.body._id);
    }
    killing = false;
    await killer;

    expect(kills, 'the injector killed connections').toBeGreaterThan(0);
    expect(misbehaviour(results)).toEqual([]);
    // Back to normal without a restart.
    expect(
      await eventually(async () => (await t.request('GET', '/api/me', { token })).status === 200, {
        timeoutMs: 10_000,
        intervalMs: 200,
      }),
    ).toBe(true);
    expect((await t.request('GET', '/healthz')).status).toBe(200);
    expect(await lostWrites(created)).toEqual([]);
  });

  it.each(['refuse', 'blackhole'] as const)(
    'fails fast with 503 while the database is unreachable (%s), then recovers',
    { timeout: 60_000 },
    async (mode) => {
      const before = await t.request('POST', '/api/places', { token, body: placeBody() });
      expect(before.status).toBe(201);

      await proxy.set(mode);
      const during = await Promise.all([
        timed('GET /healthz', () => t.request('GET', '/healthz')),
        timed('GET /api/me', () => t.request('GET', '/api/me', { token })),
        timed('GET /api/places', () => t.request('GET', '/api/places')),
        timed('POST /api/places', () => t.request('POST', '/api/places', { token, body: placeBody() })),
        timed('POST /api/auth/login', () =>
          t.request('POST', '/api/auth/login', {
            body: { email: 'nobody@example.test', password: 'whatever password' },
          }),
        ),
      ]);
      const health = during[0]!;
      expect(health.res.status).toBe(503);
      expect(health.ms).toBeLessThan(HEALTH_TIMEOUT_MS + 1500);
      for (const r of during.slice(1)) {
        expect(r.res.status, `${r.what}: ${r.res.text}`).toBe(503);
        expect(r.res.body.error.code).toBe('unavailable');
      }
      expect(misbehaviour(during)).toEqual([]);

      await proxy.set('up');
      expect(
        await eventually(async () => (await t.request('GET', '/healthz')).status === 200, {
          timeoutMs: 15_000,
          intervalMs: 200,
        }),
        'healthz back to 200',
      ).toBe(true);
      const after = await t.request('POST', '/api/places', { token, body: placeBody() });
      expect(after.status).toBe(201);
      expect(await lostWrites([before.body._id, after.body._id])).toEqual([]);
    },
  );
});
