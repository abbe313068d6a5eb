// Rate limits on register and login: per client address and per account, stored in PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, unique, uniqueIp, type TestApp } from '../setup/harness.js';

const limits = {
  RATE_LIMIT_REGISTER_PER_IP: '3',
  RATE_LIMIT_REGISTER_WINDOW_SECONDS: '600',
  RATE_LIMIT_LOGIN_PER_IP: '3',
  RATE_LIMIT_LOGIN_PER_ACCOUNT: '2',
  RATE_LIMIT_LOGIN_WINDOW_SECONDS: '300',
};

let t: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  t = await createTestApp(limits);
  proxied = await createTestApp({ ...limits, TRUST_PROXY: 'true' });
});
afterAll(async () => {
  await t.close();
  await proxied.close();
});

const registerBody = () => {
  const handle = unique('rl');
  return { email: `${handle}@example.test`, password: 'rate limit password', handle };
};
const badLogin = (email = `${unique('nobody')}@example.test`) => ({ email, password: 'wrong password' });

function expectRateLimited(res: { status: number; headers: Headers; body: any }, windowSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('register rate limit (per address)', () => {
  it('allows N registrations and answers 429 with Retry-After at N+1', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 3; i++)
      expect((await t.request('POST', '/api/auth/register', { body: registerBody(), ip })).status).toBe(201);
    const fourth = await t.request('POST', '/api/auth/register', { body: registerBody(), ip });
    expectRateLimited(fourth, 600);
    // Another address is unaffected.
    expect((await t.request('POST', '/api/auth/register', { body: registerBody() })).status).toBe(201);
  });

  it('answers TOO_MANY_REQUESTS / rate_limited through the tRPC client', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 3; i++) await t.trpc(undefined, ip).auth.register.mutate(registerBody());
    await expect(t.trpc(undefined, ip).auth.register.mutate(registerBody())).rejects.toMatchObject({
      data: { code: 'rate_limited', httpStatus: 429 },
    });
  });

  it('sets Retry-After on the native tRPC answer too', async () => {
    const ip = uniqueIp();
    const env = { incoming: { socket: { remoteAddress: ip } } };
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await t.app.request(
        '/trpc/auth.register',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(registerBody()) },
        env,
      );
    }
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('login rate limit', () => {
  it('per address: N failed logins, then 429 at N+1 even with the right password', async () => {
    const m = await createMember(t);
    const ip = uniqueIp();
    for (let i = 0; i < 3; i++)
      expect((await t.request('POST', '/api/auth/login', { body: badLogin(), ip })).status).toBe(401);
    expectRateLimited(
      await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password }, ip }),
      300,
    );
  });

  it('per account and address: trips for that address only (the owner elsewhere still signs in)', async () => {
    const m = await createMember(t);
    const ip = uniqueIp();
    for (let i = 0; i < 2; i++)
      expect((await t.request('POST', '/api/auth/login', { body: badLogin(m.email), ip })).status).toBe(401);
    const third = await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password }, ip });
    expectRateLimited(third, 300);
    // The email is normalised, so case changes do not get around it.
    expectRateLimited(
      await t.request('POST', '/api/auth/login', {
        body: { email: m.email.toUpperCase(), password: m.password },
        ip,
      }),
      300,
    );
    // Another address is not locked out (tests/auth/lockout.test.ts covers the ceiling).
    expect(
      (await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } })).status,
    ).toBe(200);
  });

  it('a spoofed X-Forwarded-For does not reset the count when TRUST_PROXY is off (security)', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 3; i++) {
      await t.request('POST', '/api/auth/login', {
        body: badLogin(),
        ip,
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
      });
    }
    const res = await t.request('POST', '/api/auth/login', {
      body: badLogin(),
      ip,
      headers: { 'x-forwarded-for': '198.51.100.99' },
    });
    expectRateLimited(res, 300);
  });

  it('with TRUST_PROXY=true the left-most forwarded address is the client', async () => {
    const proxyIp = uniqueIp();
    const clientAddr = uniqueIp();
    const otherClient = uniqueIp();
    const forwarded = (c: string) => ({ 'x-forwarded-for': `${c}, ${proxyIp}` });
    // Three failures from one forwarded client through one proxy address…
    for (let i = 0; i < 3; i++)
      expect(
        (
          await proxied.request('POST', '/api/auth/login', {
            body: badLogin(),
            ip: proxyIp,
            headers: forwarded(clientAddr),
          })
        ).status,
      ).toBe(401);
    // …trip that client, even when it arrives through another proxy…
    expectRateLimited(
      await proxied.request('POST', '/api/auth/login', {
        body: badLogin(),
        ip: uniqueIp(),
        headers: forwarded(clientAddr),
      }),
      300,
    );
    // …while another client behind the same proxy is not limited.
    expect(
      (
        await proxied.request('POST', '/api/auth/login', {
          body: badLogin(),
          ip: proxyIp,
          headers: forwarded(otherClient),
        })
      ).status,
    ).toBe(401);
  });

  it('resets once the window has passed', async () => {
    const m = await createMember(t);
    const ip = uniqueIp();
    for (let i = 0; i < 3; i++) await t.request('POST', '/api/auth/login', { body: badLogin(), ip });
    expectRateLimited(
      await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password }, ip }),
      300,
    );
    t.clock.advance(299_000);
    expect(
      (await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password }, ip })).status,
    ).toBe(429);
    t.clock.advance(2_000);
    expect(
      (await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password }, ip })).status,
    ).toBe(200);
  });

  it('counters live in the database: two app instances share them', async () => {
    const other = await createTestApp(limits);
    other.clock.set(t.clock.now());
    try {
      const ip = uniqueIp();
      await t.request('POST', '/api/auth/login', { body: badLogin(), ip });
      await other.request('POST', '/api/auth/login', { body: badLogin(), ip });
      await t.request('POST', '/api/auth/login', { body: badLogin(), ip });
      expectRateLimited(await other.request('POST', '/api/auth/login', { body: badLogin(), ip }), 300);
    } finally {
      await other.close();
    }
  });

  it('stores an HMAC of the address and email, never the values (security)', async () => {
    const ip = uniqueIp();
    const email = `${unique('hashme')}@example.test`;
    await t.request('POST', '/api/auth/login', { body: badLogin(email), ip });
    const { sql } = await import('drizzle-orm');
    const rows = await t.deps.database.rows<{ key: string }>(sql`select key from rate_limits`);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.key.includes(ip) || r.key.includes(email))).toBe(false);
  });
});

describe('register rate limit (per email)', () => {
  it('trips across addresses once one email has been tried N times', async () => {
    const app = await createTestApp({ RATE_LIMIT_REGISTER_PER_ACCOUNT: '2' });
    try {
      const body = registerBody();
      expect((await app.request('POST', '/api/auth/register', { body })).status).toBe(201);
      expect((await app.request('POST', '/api/auth/register', { body: { ...body, handle: unique('h') } })).status).toBe(
        409,
      );
      expectRateLimited(
        await app.request('POST', '/api/auth/register', {
          body: { ...body, email: body.email.toUpperCase(), handle: unique('h') },
        }),
        3600,
      );
    } finally {
      await app.close();
    }
  });
});
