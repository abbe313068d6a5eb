// The web front end's relay (server/trpc/context.ts clientAddress): the web server calls the API
// from its own address for every visitor, and passes the visitor's address in X-Forwarded-For
// with the shared secret in x-web-relay. The API believes that address only with the right
// secret; otherwise every visitor would share the web server's rate limits, or anyone could pick
// a fresh address per guess.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, uniqueIp, type TestApp } from '../setup/harness.js';

const SECRET = 'relay-secret-for-tests-0123456789abcdef';
const limits = {
  RATE_LIMIT_LOGIN_PER_IP: '2',
  RATE_LIMIT_LOGIN_PER_ACCOUNT: '100',
  RATE_LIMIT_LOGIN_WINDOW_SECONDS: '300',
};

let relayed: TestApp;
let unconfigured: TestApp;
beforeAll(async () => {
  relayed = await createTestApp({ ...limits, WEB_RELAY_SECRET: SECRET });
  unconfigured = await createTestApp(limits);
});
afterAll(async () => {
  await relayed?.close();
  await unconfigured?.close();
});

const visitor = (n: number) => `203.0.113.${n}`;

function login(t: TestApp, webServer: string, headers: Record<string, string>, body?: Record<string, string>) {
  return t.request('POST', '/api/auth/login', {
    ip: webServer,
    headers,
    body: body ?? { email: 'nobody@example.test', password: 'wrong password' },
  });
}

describe('the web relay', () => {
  it('with the right secret, each visitor has their own login limit', async () => {
    const webServer = uniqueIp();
    const member = await createMember(relayed);
    const as = (n: number) => ({ 'x-web-relay': SECRET, 'x-forwarded-for': visitor(n) });
    for (let i = 0; i < 2; i++) expect((await login(relayed, webServer, as(1))).status).toBe(401);
    const third = await login(relayed, webServer, as(1), { email: member.email, password: member.password });
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another visitor through the same web server is not locked out.
    const other = await login(relayed, webServer, as(2), { email: member.email, password: member.password });
    expect(other.status).toBe(200);
    // The visitor is counted as themselves, whichever web server they come through.
    expect((await login(relayed, uniqueIp(), as(1))).status).toBe(429);
  });

  it('without the secret, or with a wrong one, X-Forwarded-For is ignored (a fresh address per guess does not help)', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { 'x-web-relay': 'not-the-secret' },
      { 'x-web-relay': `${SECRET}x` },
      { 'x-web-relay': SECRET.slice(0, -1) },
      { 'x-web-relay': '' },
    ];
    for (const [index, relay] of cases.entries()) {
      const attacker = uniqueIp();
      for (let i = 0; i < 2; i++) {
        const response = await login(relayed, attacker, { ...relay, 'x-forwarded-for': visitor(100 + index * 10 + i) });
        expect(response.status, JSON.stringify(relay)).toBe(401);
      }
      const spoofed = await login(relayed, attacker, { ...relay, 'x-forwarded-for': visitor(199) });
      expect(spoofed.status, JSON.stringify(relay)).toBe(429);
    }
  });

  it('an API without WEB_RELAY_SECRET believes no relay header at all', async () => {
    const attacker = uniqueIp();
    for (let i = 0; i < 2; i++) {
      const response = await login(unconfigured, attacker, { 'x-web-relay': SECRET, 'x-forwarded-for': visitor(i) });
      expect(response.status).toBe(401);
    }
    const spoofed = await login(unconfigured, attacker, { 'x-web-relay': SECRET, 'x-forwarded-for': visitor(50) });
    expect(spoofed.status).toBe(429);
  });
});
