// Lockout and guessing: the per-account counters are keyed with the client address, so an
// attacker cannot lock a member out; a much higher per-account ceiling answers with a growing
// Retry-After, never a hard lock; PATCH /api/me's password check is limited like login; tRPC
// batches are capped; rate-limit keys are HMACs that go with the account.
import { sql } from 'drizzle-orm';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitKey, rateLimitSecret, GENERATED_SECRET_FILE } from '../../server/auth/rate-limit.js';
import { addressGroup } from '../../server/auth/recognised-addresses.js';
import { loadConfig } from '../../server/config.js';
import { createHash } from 'node:crypto';
import { createMember, createTestApp, uniqueIp, type TestApp, type TestMember } from '../setup/harness.js';
import { granted } from '../setup/granted.js';

let t: TestApp;
beforeAll(async () => {
  // Today's defaults (10 per account and address per 15 minutes, 60 per address).
  t = await createTestApp();
});
afterAll(() => t.close());

const wrong = (m: TestMember) => ({ email: m.email, password: 'not the password at all' });
const right = (m: TestMember) => ({ email: m.email, password: m.password });

describe('an attacker cannot lock a member out (login)', () => {
  it('the victim signs in from their own address while an attacker hammers the account from another', async () => {
    const victim = await createMember(t);
    const attacker = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++)
      statuses.push((await t.request('POST', '/api/auth/login', { body: wrong(victim), ip: attacker })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(5).fill(429));
    // The attacker's address is stopped even with the right password…
    expect((await t.request('POST', '/api/auth/login', { body: right(victim), ip: attacker })).status).toBe(429);
    // …while the owner, elsewhere, signs in at once (REST and the typed client).
    const home = uniqueIp();
    const res = await t.request('POST', '/api/auth/login', { body: right(victim), ip: home });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(victim.email);
    const viaTrpc = granted(await t.trpc(undefined, home).auth.login.mutate(right(victim)));
    expect(viaTrpc.token).toMatch(/^[a-z2-7]{52}$/);
  });

  it('the per-account ceiling across addresses backs off with a growing Retry-After, never a lock', async () => {
    const app = await createTestApp({
      RATE_LIMIT_LOGIN_PER_ACCOUNT: '2',
      RATE_LIMIT_LOGIN_ACCOUNT_CEILING: '6',
      RATE_LIMIT_ACCOUNT_BACKOFF_MAX_SECONDS: '8',
    });
    try {
      const victim = await createMember(app);
      // A botnet: two attempts from each of three addresses reach the ceiling without tripping
      // any per-address counter.
      for (let i = 0; i < 3; i++) {
        const ip = uniqueIp();
        for (let j = 0; j < 2; j++)
          expect((await app.request('POST', '/api/auth/login', { body: wrong(victim), ip })).status).toBe(401);
      }
      const waits: number[] = [];
      for (let round = 0; round < 5; round++) {
        // One attempt is let through (a wrong answer: 401)…
        expect((await app.request('POST', '/api/auth/login', { body: wrong(victim) })).status).toBe(401);
        // …then the account answers 429 to everyone until the wait is over.
        const refused = await app.request('POST', '/api/auth/login', { body: right(victim) });
        expect(refused.status).toBe(429);
        expect(refused.body.error.code).toBe('rate_limited');
        const wait = Number(refused.headers.get('retry-after'));
        waits.push(wait);
        app.clock.advance(wait * 1000);
      }
      // Doubling from 1 s, capped at RATE_LIMIT_ACCOUNT_BACKOFF_MAX_SECONDS.
      expect(waits).toEqual([1, 2, 4, 8, 8]);
      // Once the wait is over the owner gets through with the right password: no lock.
      expect((await app.request('POST', '/api/auth/login', { body: right(victim) })).status).toBe(200);
      // And after the ceiling window, the count starts again.
      app.clock.advance(app.config.RATE_LIMIT_ACCOUNT_CEILING_WINDOW_SECONDS * 1000);
      expect((await app.request('POST', '/api/auth/login', { body: right(victim) })).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe("an attacker cannot stop the owner's sign-in mail (magic link)", () => {
  it("requests from another address use up only that address's share", async () => {
    const app = await createTestApp({ RATE_LIMIT_MAGIC_LINK_PER_IP: '50' });
    try {
      const victim = await createMember(app);
      const attacker = uniqueIp();
      for (let i = 0; i < 10; i++)
        expect(
          (await app.request('POST', '/api/auth/magic-link', { body: { email: victim.email }, ip: attacker })).status,
        ).toBe(202);
      await app.settleMail();
      // Three per email and address per window reach the mailbox; the rest are dropped silently.
      expect(app.mailer.to(victim.email)).toHaveLength(3);
      const own = await app.request('POST', '/api/auth/magic-link', { body: { email: victim.email }, ip: uniqueIp() });
      await app.settleMail();
      expect(own.status).toBe(202);
      expect(app.mailer.to(victim.email)).toHaveLength(4);
    } finally {
      await app.close();
    }
  });
});

describe('PATCH /api/me current-password check', () => {
  it('sequential guesses hit 429 like login; the owner elsewhere is not affected', async () => {
    const m = await createMember(t);
    const thief = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await t.request('PATCH', '/api/me', {
        token: m.token,
        ip: thief,
        body: { email: `${m.handle}.new@example.test`, currentPassword: `guess-${i}-wrong` },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(403));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const refused = await t.request('PATCH', '/api/me', {
      token: m.token,
      ip: thief,
      body: { email: `${m.handle}.new@example.test`, currentPassword: m.password },
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The same counters as login: that address cannot log in to the account either.
    expect((await t.request('POST', '/api/auth/login', { body: right(m), ip: thief })).status).toBe(429);
    expect((await t.request('POST', '/api/auth/login', { body: right(m) })).status).toBe(200);
  });

  it('a batch of 1,000 guesses in one tRPC request is refused; a batch within the cap runs', async () => {
    const m = await createMember(t);
    const env = { incoming: { socket: { remoteAddress: uniqueIp() } } };
    const call = (n: number) => {
      const input: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) input[i] = { newPassword: `brand new pass ${i}!`, currentPassword: `guess ${i}` };
      return t.app.request(
        `/trpc/${Array(n).fill('me.update').join(',')}?batch=1`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${m.token}` },
          body: JSON.stringify(input),
        },
        env,
      );
    };
    const huge = await call(1000);
    expect(huge.status).toBe(400);
    const body = (await huge.json()) as any;
    const error = Array.isArray(body) ? body[0].error : body.error;
    expect(error.data).toMatchObject({ code: 'validation_failed', httpStatus: 400 });
    // Nothing was checked: the account's counters are untouched and its password unchanged.
    expect((await t.request('POST', '/api/auth/login', { body: right(m) })).status).toBe(200);

    const small = await call(t.config.TRPC_MAX_BATCH_SIZE);
    expect(small.status).not.toBe(400);
    const answers = (await small.json()) as any[];
    expect(answers).toHaveLength(t.config.TRPC_MAX_BATCH_SIZE);
    expect(answers.every((a) => a.error?.data?.httpStatus === 403)).toBe(true);
  });
});

describe('rate-limit keys (security)', () => {
  it('are HMACs with the server secret, not plain hashes, and go with the account', async () => {
    const m = await createMember(t);
    const ip = uniqueIp();
    await t.request('POST', '/api/auth/login', { body: wrong(m), ip });
    await t.request('POST', '/api/auth/magic-link', { body: { email: m.email }, ip });
    await t.settleMail();
    await t.request('POST', '/api/places', { token: m.token, body: {} });
    const keys = (await t.deps.database.rows<{ key: string }>(sql`select key from rate_limits`)).map((r) => r.key);
    const sha = (v: string) => createHash('sha256').update(v).digest('hex').slice(0, 40);
    for (const value of [m.email, ip, m.id]) {
      expect(keys.some((k) => k.includes(value))).toBe(false);
      expect(keys.some((k) => k.includes(sha(value)))).toBe(false);
    }
    const secret = rateLimitSecret(t.config);
    const mine = [
      rateLimitKey(secret, 'login:account', [m.email]),
      rateLimitKey(secret, 'login:account-ip', [m.email, ip]),
      rateLimitKey(secret, 'magic:account-ip', [m.email, ip]),
      rateLimitKey(secret, 'write:places.create', [m.id]),
    ];
    for (const key of mine) expect(keys).toContain(key);

    expect((await t.request('DELETE', '/api/me', { token: m.token })).status).toBe(200);
    const after = (await t.deps.database.rows<{ key: string }>(sql`select key from rate_limits`)).map((r) => r.key);
    for (const key of mine) expect(after).not.toContain(key);
    // The address's own counter is not the account's and stays.
    expect(after).toContain(rateLimitKey(secret, 'login:ip', [ip]));
  });

  it('RATE_LIMIT_KEY_SECRET is required in production; elsewhere one is generated into DATA_DIR', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/RATE_LIMIT_KEY_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production', RATE_LIMIT_KEY_SECRET: 'short' })).toThrow(
      /RATE_LIMIT_KEY_SECRET/,
    );
    const configured = loadConfig({ NODE_ENV: 'production', RATE_LIMIT_KEY_SECRET: 'x'.repeat(40) });
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cas-secret-'));
    const first = rateLimitSecret(loadConfig({ DATA_DIR: dataDir }));
    const second = rateLimitSecret(loadConfig({ DATA_DIR: dataDir }));
    expect(first.length).toBe(32);
    expect(second.equals(first)).toBe(true);
    const file = path.join(dataDir, GENERATED_SECRET_FILE);
    expect(readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o077).toBe(0);
    // Different secrets, different keys: a dump of one deployment says nothing about another.
    expect(rateLimitKey(first, 'login:account', ['a@example.test'])).not.toBe(
      rateLimitKey(rateLimitSecret(configured), 'login:account', ['a@example.test']),
    );
  });
});

describe('duplicate Authorization headers (security)', () => {
  it("are refused with 401, through fetch and through Node's parsed headers", async () => {
    const m = await createMember(t);
    const headers = new Headers();
    headers.append('authorization', `Bearer ${m.token}`);
    headers.append('authorization', `Bearer ${m.token}`);
    const viaFetch = await t.app.request(
      '/api/me',
      { headers },
      { incoming: { socket: { remoteAddress: uniqueIp() } } },
    );
    expect(viaFetch.status).toBe(401);
    expect(((await viaFetch.json()) as any).error.code).toBe('unauthorized');

    // As @hono/node-server hands it over: Node keeps the first in `headers`, all in `rawHeaders`.
    const node = (raw: string[]) => ({
      incoming: {
        socket: { remoteAddress: uniqueIp() },
        headers: { authorization: raw[1] },
        rawHeaders: raw,
      },
    });
    const two = await t.app.request(
      '/api/me',
      { headers: { authorization: `Bearer ${m.token}` } },
      node([
        'Authorization',
        `Bearer ${m.token}`,
        'authorization',
        'Bearer aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      ]),
    );
    expect(two.status).toBe(401);
    const one = await t.app.request(
      '/api/me',
      { headers: { authorization: `Bearer ${m.token}` } },
      node(['Authorization', `Bearer ${m.token}`]),
    );
    expect(one.status).toBe(200);
  });
});

describe('distributed lockout at the per-account ceiling (issue #21)', () => {
  const ceilingEnv = {
    RATE_LIMIT_LOGIN_PER_ACCOUNT: '3',
    RATE_LIMIT_LOGIN_ACCOUNT_CEILING: '6',
    RATE_LIMIT_MAGIC_LINK_PER_IP: '50',
    RATE_LIMIT_MAGIC_LINK_ACCOUNT_CEILING: '3',
  };
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(ceilingEnv);
  });
  afterAll(() => app.close());

  /** Many addresses, each staying under its own per-address limits, push the account into backoff. */
  async function botnet(email: string, addresses = 11): Promise<Array<[number, string | null]>> {
    const answers: Array<[number, string | null]> = [];
    for (let i = 0; i < addresses; i++) {
      const res = await app.request('POST', '/api/auth/login', {
        body: { email, password: 'not the password at all' },
        ip: uniqueIp(),
      });
      answers.push([res.status, res.headers.get('retry-after')]);
    }
    return answers;
  }

  const login = (m: TestMember, ip: string, token?: string) =>
    app.request('POST', '/api/auth/login', { body: right(m), ip, token });

  it('the owner signs in from an address they signed in from before; a new address still waits', async () => {
    const victim = await createMember(app);
    const home = uniqueIp();
    expect((await login(victim, home)).status).toBe(200);
    const answers = await botnet(victim.email);
    expect(answers.at(-1)![0]).toBe(429);
    // Still in backoff for everyone else…
    const stranger = await login(victim, uniqueIp());
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers.get('retry-after'))).toBeGreaterThan(0);
    // …but not for the owner at home (REST and the typed client).
    const res = await login(victim, home);
    expect(res.status, res.text).toBe(200);
    expect(res.body.user._id).toBe(victim.id);
    const viaTrpc = granted(await app.trpc(undefined, home).auth.login.mutate(right(victim)));
    expect(viaTrpc.user._id).toBe(victim.id);
    // A recognised address is still held to the per-account-and-address limit (3 here, every
    // attempt counted): no free guesses.
    expect((await app.request('POST', '/api/auth/login', { body: wrong(victim), ip: home })).status).toBe(429);
  });

  it('an IPv6 home is recognised by its /64; another /64 is not', async () => {
    const victim = await createMember(app);
    expect((await login(victim, '2001:db8:21:1::10')).status).toBe(200);
    await botnet(victim.email);
    expect((await login(victim, '2001:db8:21:1:a:b:c:d')).status).toBe(200);
    expect((await login(victim, '2001:db8:21:2::10')).status).toBe(429);
  });

  it('recognition lasts RECOGNISED_ADDRESS_DAYS from the latest sign-in, then the address waits like any other', async () => {
    const victim = await createMember(app);
    const home = uniqueIp();
    expect((await login(victim, home)).status).toBe(200);
    app.clock.advance((app.config.RECOGNISED_ADDRESS_DAYS + 1) * 86_400_000);
    await botnet(victim.email);
    expect((await login(victim, home)).status).toBe(429);
  });

  it('a live session of the account skips the shared ceiling (login with its Bearer token, PATCH /api/me)', async () => {
    const victim = await createMember(app);
    await botnet(victim.email);
    const travelling = uniqueIp();
    expect((await login(victim, travelling)).status).toBe(429);
    const res = await login(victim, travelling, victim.token);
    expect(res.status, res.text).toBe(200);
    const patch = await app.request('PATCH', '/api/me', {
      token: victim.token,
      ip: uniqueIp(),
      body: { newPassword: 'a brand new passphrase!', currentPassword: victim.password },
    });
    expect(patch.status, patch.text).toBe(200);
    // Another account's session vouches for nothing.
    const other = await createMember(app);
    expect((await login(victim, uniqueIp(), other.token)).status).toBe(429);
  });

  it('a stolen session guessing from many addresses is held to a ceiling of its own', async () => {
    const victim = await createMember(app);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await app.request('PATCH', '/api/me', {
        token: victim.token,
        ip: uniqueIp(),
        body: { email: `${victim.handle}.x@example.test`, currentPassword: `guess ${i}` },
      });
      statuses.push(res.status);
    }
    // Six under the ceiling, the seventh let through, then backoff.
    expect(statuses).toEqual([403, 403, 403, 403, 403, 403, 403, 429]);
  });

  it('the attacker learns nothing: the same answers for an account and for an unknown email', async () => {
    const victim = await createMember(app);
    const forVictim = await botnet(victim.email);
    const forGhost = await botnet(`${victim.handle}-ghost@example.test`);
    expect(forVictim).toEqual(forGhost);
    // Failed attempts never make an address recognised.
    const attacker = uniqueIp();
    await app.request('POST', '/api/auth/login', { body: wrong(victim), ip: attacker });
    expect((await login(victim, attacker)).status).toBe(429);
  });

  it("the owner's sign-in mail reaches them from a recognised address while the mail ceiling is full", async () => {
    const victim = await createMember(app);
    const home = uniqueIp();
    expect((await login(victim, home)).status).toBe(200);
    for (let i = 0; i < 6; i++)
      await app.request('POST', '/api/auth/magic-link', { body: { email: victim.email }, ip: uniqueIp() });
    await app.settleMail();
    const before = app.mailer.to(victim.email).length;
    await app.request('POST', '/api/auth/magic-link', { body: { email: victim.email }, ip: uniqueIp() });
    await app.settleMail();
    expect(app.mailer.to(victim.email)).toHaveLength(before);
    await app.request('POST', '/api/auth/magic-link', { body: { email: victim.email }, ip: home });
    await app.settleMail();
    expect(app.mailer.to(victim.email)).toHaveLength(before + 1);
  });

  it('records hold no address or email, and go with the account', async () => {
    const victim = await createMember(app);
    const home = '198.51.100.77';
    expect((await login(victim, home)).status).toBe(200);
    const key = rateLimitKey(rateLimitSecret(app.config), 'signin:known-address', [victim.email, home]);
    const keys = async () =>
      (await app.deps.database.rows<{ key: string }>(sql`select key from rate_limits`)).map((r) => r.key);
    const stored = await keys();
    expect(stored).toContain(key);
    expect(stored.some((k) => k.includes(home) || k.includes(victim.email))).toBe(false);
    expect((await app.request('DELETE', '/api/me', { token: victim.token })).status).toBe(200);
    expect(await keys()).not.toContain(key);
  });
});

describe('addressGroup', () => {
  it('keeps IPv4 (also IPv4-mapped) and cuts IPv6 to its /64', () => {
    expect(addressGroup('203.0.113.9')).toBe('203.0.113.9');
    expect(addressGroup('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressGroup('2001:DB8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
