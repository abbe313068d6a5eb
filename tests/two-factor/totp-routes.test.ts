// The member's authenticator app: enrol, confirm, turn off, new recovery codes; stolen-phone
// rules; REQUIRE_2FA_FOR; the magic link's union answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, linkIn, type TestApp } from '../setup/harness.js';
import { enrolTotp, totpCode } from '../setup/two-factor.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ REQUIRE_2FA_FOR: 'admin,organizer' });
});
afterAll(() => t.close());

describe('the member routes', () => {
  it('enrol, read, regenerate and turn off (REST)', async () => {
    const m = await createMember(t);
    const { secret, recoveryCodes } = await enrolTotp(t, m);
    expect(recoveryCodes).toHaveLength(10);
    const factors = await t.request('GET', '/api/me/second-factors', { token: m.token });
    expect(factors.body).toEqual({ totp: true, passkeys: 0, recoveryCodesLeft: 10 });
    const fresh = await t.request('POST', '/api/me/recovery-codes', {
      token: m.token,
      body: { password: m.password, code: totpCode(t, secret) },
    });
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.recoveryCodes.some((c: string) => recoveryCodes.includes(c))).toBe(false);
    t.clock.advance(30_000);
    const off = await t.request('POST', '/api/me/totp/disable', {
      token: m.token,
      body: { password: m.password, code: fresh.body.recoveryCodes[0] },
    });
    expect(off.status, off.text).toBe(200);
    expect((await t.request('GET', '/api/me/second-factors', { token: m.token })).body.totp).toBe(false);
  });

  it('works through the typed tRPC client', async () => {
    const m = await createMember(t);
    const started = await t.trpc(m.token).me.createTotp.mutate({ password: m.password });
    expect(started.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    expect(started.otpauthUri).not.toContain(encodeURIComponent(m.email));
    expect((await t.trpc(m.token).me.getSecondFactors.query({})).totp).toBe(false);
  });

  it('a session alone cannot read the secret again or turn it off (stolen phone)', async () => {
    const m = await createMember(t);
    const { secret } = await enrolTotp(t, m);
    const again = await t.request('POST', '/api/me/totp', { token: m.token, body: { password: m.password } });
    expect(again.status).toBe(409);
    expect(again.body).not.toHaveProperty('secret');
    const noPassword = await t.request('POST', '/api/me/totp/disable', {
      token: m.token,
      body: { code: totpCode(t, secret) },
    });
    expect(noPassword.status).toBe(400);
    const wrongPassword = await t.request('POST', '/api/me/totp/disable', {
      token: m.token,
      body: { password: 'not the password at all', code: totpCode(t, secret) },
    });
    expect(wrongPassword.status).toBe(403);
    const wrongCode = await t.request('POST', '/api/me/totp/disable', {
      token: m.token,
      body: { password: m.password, code: '000000' === totpCode(t, secret) ? '111111' : '000000' },
    });
    expect(wrongCode.status).toBe(403);
    const startWithoutPassword = await t.request('POST', '/api/me/totp', {
      token: (await createMember(t)).token,
      body: {},
    });
    expect(startWithoutPassword.status).toBe(400);
  });
});

describe('magic link with a second factor', () => {
  it('answers a ticket, not a session', async () => {
    const m = await createMember(t);
    await enrolTotp(t, m);
    await t.request('POST', '/api/auth/magic-link', { body: { email: m.email } });
    await t.settleMail();
    const mail = t.mailer.sent.filter((x) => x.to === m.email).at(-1)!;
    const token = linkIn(mail).searchParams.get('token')!;
    const res = await t.request('POST', '/api/auth/magic-link/verify', { body: { token } });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('token');
    expect(res.body.secondFactor.methods).toContain('totp');
  });
});

describe('REQUIRE_2FA_FOR=admin,organizer', () => {
  it('keeps an admin without a second factor out of admin routes until enrolled', async () => {
    const admin = await createMember(t, { admin: true });
    const refused = await t.request('GET', '/api/admin/reports', { token: admin.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('second_factor_enrollment_required');
    // Enrolment itself is never blocked.
    await enrolTotp(t, admin);
    expect((await t.request('GET', '/api/admin/reports', { token: admin.token })).status).toBe(200);
  });

  it('keeps a member without a second factor out of grove organizer routes', async () => {
    const m = await createMember(t);
    const refused = await t.request('GET', '/api/groves/00000000-0000-7000-8000-000000000000/members', {
      token: m.token,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('second_factor_enrollment_required');
    await enrolTotp(t, m);
    const after = await t.request('GET', '/api/groves/00000000-0000-7000-8000-000000000000/members', {
      token: m.token,
    });
    expect(after.body.error?.code).not.toBe('second_factor_enrollment_required');
  });
});
