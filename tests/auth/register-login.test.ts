import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, unique, type TestApp } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('register', () => {
  it('creates an account and returns a working token (happy)', async () => {
    const handle = unique('reg');
    const res = await t.request('POST', '/api/auth/register', { body: { email: `${handle}@example.test`, password: 'correct horse battery', handle } });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ email: `${handle}@example.test`, handle: handle.toLowerCase(), role: 'member' });
    expect(res.body.user).not.toHaveProperty('passwordHash');
    const me = await t.request('GET', '/api/me', { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body._id).toBe(res.body.user._id);
  });

  it('rejects invalid fields with validation_failed naming them (error)', async () => {
    const res = await t.request('POST', '/api/auth/register', { body: { email: 'nope', password: 'short', handle: 'a' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.message).toMatch(/email/);
    expect(res.body.error.message).toMatch(/password/);
    expect(res.body.error.message).toMatch(/handle/);
  });

  it('answers 409 conflict for a taken email or handle (error)', async () => {
    const m = await createMember(t);
    const sameEmail = await t.request('POST', '/api/auth/register', { body: { email: m.email.toUpperCase(), password: 'another password', handle: unique('x') } });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.error.code).toBe('conflict');
    const sameHandle = await t.request('POST', '/api/auth/register', { body: { email: `${unique('y')}@example.test`, password: 'another password', handle: m.handle.toUpperCase() } });
    expect(sameHandle.status).toBe(409);
  });

  it('works through the typed tRPC client', async () => {
    const handle = unique('trpc');
    const grant = await t.trpc().auth.register.mutate({ email: `${handle}@example.test`, password: 'typed client pw', handle });
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
    const wrong = await t.request('POST', '/api/auth/login', { body: { email: m.email, password: 'not the password' } });
    const unknown = await t.request('POST', '/api/auth/login', { body: { email: `${unique('ghost')}@example.test`, password: 'not the password' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error.code).toBe('invalid_credentials');
  });
});
