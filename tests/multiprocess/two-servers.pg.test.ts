// Two real server processes on one PostgreSQL database: sessions, rate limits and background
// jobs must behave as if there were one. PostgreSQL only (*.pg.test.ts): an embedded PGlite
// data directory belongs to one process.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client.js';
import { createJobRunner, type Job } from '../../server/jobs/runner.js';
import { expiredCredentialsSweep } from '../../server/jobs/sweeps.js';
import { createLogger } from '../../server/log.js';
import { systemClock } from '../../server/lib/clock.js';
import { testDatabaseUrl } from '../setup/database.js';
import { http, startServer, type ServerProcess } from './server-process.js';

const databaseUrl = testDatabaseUrl()!;
const LOGIN_LIMIT = 4;

let seq = 0;
const fresh = (prefix: string) => `${prefix}${process.pid.toString(36)}${Date.now().toString(36)}${++seq}`;
const ip = () => `198.51.100.${(process.pid + ++seq) % 250}`;

describe('two server processes on one database', () => {
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    const env = { RATE_LIMIT_LOGIN_PER_IP: String(LOGIN_LIMIT), TRUST_PROXY: '1' };
    [a, b] = await Promise.all([startServer(databaseUrl!, env), startServer(databaseUrl!, env)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  async function register(server: ServerProcess) {
    const handle = fresh('mp');
    const password = 'long enough password';
    const res = await http(server.url, 'POST', '/api/auth/register', {
      ip: ip(),
      body: { email: `${handle}@example.test`, password, handle },
    });
    expect(res.status, res.text).toBe(201);
    return { email: `${handle}@example.test`, password, token: res.body.token as string };
  }

  it('a session revoked through one process is refused by the other on the next request', async () => {
    const m = await register(a);
    const second = await http(b.url, 'POST', '/api/auth/login', {
      ip: ip(),
      body: { email: m.email, password: m.password },
    });
    expect(second.status).toBe(200);
    expect((await http(b.url, 'GET', '/api/me', { token: second.body.token })).status).toBe(200);

    const sessions = await http(a.url, 'GET', '/api/me/sessions', { token: m.token });
    const other = sessions.body.items.find((s: { current: boolean }) => !s.current);
    expect((await http(a.url, 'DELETE', `/api/me/sessions/${other._id}`, { token: m.token })).status).toBe(200);
    const refused = await http(b.url, 'GET', '/api/me', { token: second.body.token });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('unauthorized');

    // Logout through B ends the session A sees too.
    expect((await http(b.url, 'POST', '/api/auth/logout', { token: m.token })).status).toBe(200);
    expect((await http(a.url, 'GET', '/api/me', { token: m.token })).status).toBe(401);
  });

  it('rate limits are shared: attempts through either process count together', async () => {
    const address = `203.0.113.${(process.pid % 200) + 1}`;
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_LIMIT + 2; i++) {
      const server = i % 2 ? b : a;
      const res = await http(server.url, 'POST', '/api/auth/login', {
        ip: address,
        body: { email: `${fresh('nobody')}@example.test`, password: 'wrong password here' },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, LOGIN_LIMIT).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(LOGIN_LIMIT)).toEqual([429, 429]);
  });

  it('neither process logged an error', () => {
    for (const server of [a, b]) {
      expect(server.exited()).toBeNull();
      expect(server.output()).not.toMatch(/"level":(50|60)/);
    }
  });
});

describe('background jobs across processes', () => {
  let one: Database;
  let two: Database;
  beforeAll(async () => {
    [one, two] = await Promise.all([
      openDatabase({ url: databaseUrl!, poolMax: 2 }),
      openDatabase({ url: databaseUrl!, poolMax: 2 }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
  });

  it('the TTL sweep runs on exactly one runner at a time (advisory lock)', async () => {
    // The real sweep, held open a little so the two runs overlap.
    const slowSweep: Job = {
      ...expiredCredentialsSweep,
      async run(tx, now) {
        await tx.execute(sql`select pg_sleep(0.4)`);
        return expiredCredentialsSweep.run(tx, now);
      },
    };
    const log = createLogger('silent');
    const runners = [
      createJobRunner({ database: one, clock: systemClock, log }, [slowSweep]),
      createJobRunner({ database: two, clock: systemClock, log }, [slowSweep]),
    ];
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(runners.map((r) => r.runOnce(slowSweep)));
      expect(
        results.filter((r) => r !== null),
        `round ${round}`,
      ).toHaveLength(1);
    }
    // With the lock free again, the next run goes ahead.
    expect(await runners[1]!.runOnce(slowSweep)).not.toBeNull();
  });
});
