import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, unique, type TestApp } from '../setup/harness.js';
import { granted } from '../setup/granted.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('register', () => {
  it('creates an account and returns a working token (happy)', async () => {
    const handle = unique('reg');
    const res = await t.request('POST', '/api/auth/register', {
      body: { email: `${handle}@example.test`, password: 'correct horse battery', handle },
    });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({
      email: `${handle}@example.test`,
      handle: handle.toLowerCase(),
      role: 'member',
    });
    expect(res.body.user).not.toHaveProperty('passwordHash');
    const me = await t.request('GET', '/api/me', { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body._id).toBe(res.body.user._id);
  });

  it('rejects invalid fields with validation_failed naming them (error)', async () => {
    const res = await t.request('POST', '/api/auth/register', {
      body: { email: 'nope', password: 'short', handle: 'a' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.message).toMatch(/email/);
    expect(res.body.error.message).toMatch(/password/);
    expect(res.body.error.message).toMatch(/handle/);
  });

  it('answers 409 conflict for a taken email or handle (error)', async () => {
    const m = await createMember(t);
    const sameEmail = await t.request('POST', '/api/auth/register', {
      body: { email: m.email.toUpperCase(), password: 'another password', handle: unique('x') },
    });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.error.code).toBe('conflict');
    const sameHandle = await t.request('POST', '/api/auth/register', {
      body: { email: `${unique('y')}@example.test`, password: 'another password', handle: m.handle.toUpperCase() },
    });
    expect(sameHandle.status).toBe(409);
  });

  it('works through the typed tRPC client', async () => {
    const handle = unique('trpc');
    const grant = await t
      .trpc()
      .auth.register.mutate({ email: `${handle}@example.test`, password: 'typed client pw', handle });
    expect(grant.user.handle).toBe(handle.toLowerCase());
    const me = await t.trpc(grant.token).me.get.query({});
    expect(me.email).toBe(`${handle}@example.test`);
  });
});

describe('login', () => {
  it('signs in with the right password (happy)', async () => {
    const m = await createMember(t);
    const res = await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } });
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^[a-z2-7]{52}$/);
    expect(res.body.token).not.toBe(m.token);
  });

  it('gives identical answers for an unknown email and a wrong password (security)', async () => {
    const m = await createMember(t);
    const wrong = await t.request('POST', '/api/auth/login', {
      body: { email: m.email, password: 'not the password' },
    });
    const unknown = await t.request('POST', '/api/auth/login', {
      body: { email: `${unique('ghost')}@example.test`, password: 'not the password' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error.code).toBe('invalid_credentials');
  });
});

describe('account rules', () => {
  const register = (body: Record<string, unknown>) => t.request('POST', '/api/auth/register', { body });

  it('handles: 3–30 letters, digits, underscores; stored lower case; reserved names refused', async () => {
    const base = unique('H').slice(0, 20);
    const ok = await register({ email: `${base}@example.test`, password: 'long enough pw', handle: `${base}_X` });
    expect(ok.status).toBe(201);
    expect(ok.body.user.handle).toBe(`${base}_x`.toLowerCase());
    for (const handle of ['ab', 'a'.repeat(31), 'with space', 'dot.ted', 'ünï', 'semi;colon']) {
      const res = await register({ email: `${unique('e')}@example.test`, password: 'long enough pw', handle });
      expect(res.status, handle).toBe(400);
      expect(res.body.error.message).toMatch(/handle/);
    }
    for (const handle of ['admin', 'ADMIN', 'support', 'moderator']) {
      const res = await register({ email: `${unique('e')}@example.test`, password: 'long enough pw', handle });
      expect(res.status, handle).toBe(409);
    }
  });

  it('passwords: 8–256 characters, any characters, never truncated', async () => {
    expect(
      (await register({ email: `${unique('p')}@example.test`, password: '1234567', handle: unique('p') })).status,
    ).toBe(400);
    expect(
      (await register({ email: `${unique('p')}@example.test`, password: 'x'.repeat(257), handle: unique('p') })).status,
    ).toBe(400);
    const handle = unique('p');
    const long = `${'ä'.repeat(100)}🌱${'z'.repeat(100)}`;
    const res = await register({ email: `${handle}@example.test`, password: long, handle });
    expect(res.status).toBe(201);
    // A password equal in its first 200 characters but different at the end does not work.
    const wrongTail = await t.request('POST', '/api/auth/login', {
      body: { email: `${handle}@example.test`, password: `${long.slice(0, -1)}y` },
    });
    expect(wrongTail.status).toBe(401);
    expect(
      (await t.request('POST', '/api/auth/login', { body: { email: `${handle}@example.test`, password: long } }))
        .status,
    ).toBe(200);
  });

  it('emails: stored trimmed and lower case; login ignores case', async () => {
    const handle = unique('Mail');
    const res = await register({ email: `${handle.toUpperCase()}@Example.TEST`, password: 'long enough pw', handle });
    expect(res.status).toBe(201);
    expect(res.body.user.email).toBe(`${handle.toLowerCase()}@example.test`);
    expect(
      (
        await t.request('POST', '/api/auth/login', {
          body: { email: `${handle}@EXAMPLE.test`, password: 'long enough pw' },
        })
      ).status,
    ).toBe(200);
  });

  it('register answers a session grant with expiresAt SESSION_TTL_DAYS ahead', async () => {
    const handle = unique('ttl');
    const res = await register({ email: `${handle}@example.test`, password: 'long enough pw', handle });
    expect(Object.keys(res.body).sort()).toEqual(['expiresAt', 'token', 'user']);
    expect(Date.parse(res.body.expiresAt) - t.clock.now().getTime()).toBe(t.config.SESSION_TTL_DAYS * 86_400_000);
  });

  it('login errors through the typed tRPC client', async () => {
    await expect(
      t.trpc().auth.login.mutate({ email: `${unique('x')}@example.test`, password: 'nope nope' }),
    ).rejects.toMatchObject({ data: { code: 'invalid_credentials', httpStatus: 401 } });
    const m = await createMember(t);
    const grant = granted(await t.trpc().auth.login.mutate({ email: m.email, password: m.password }));
    expect(grant.user._id).toBe(m.id);
  });
});

describe('signing in with a stale token still in the header', () => {
  it('ignores the Authorization header on login, register and magic links (security)', async () => {
    const m = await createMember(t);
    const stale = m.token;
    expect((await t.request('POST', '/api/auth/logout', { token: stale })).status).toBe(200);
    expect((await t.request('GET', '/api/me', { token: stale })).status).toBe(401);
    const login = await t.request('POST', '/api/auth/login', {
      token: stale,
      body: { email: m.email, password: m.password },
    });
    expect(login.status).toBe(200);
    const handle = unique('stale');
    const register = await t.request('POST', '/api/auth/register', {
      token: stale,
      body: { email: `${handle}@example.test`, password: 'a fine password', handle },
    });
    expect(register.status).toBe(201);
    expect(
      (await t.request('POST', '/api/auth/magic-link', { token: 'garbage', body: { email: m.email } })).status,
    ).toBe(202);
  });
});
