// The second-factor sign-in step: a first factor of an account with TOTP gives a ticket, never a
// session; POST /api/auth/second-factor trades it and one right answer for the session.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { granted } from '../setup/granted.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { enrolTotp, totpCode } from '../setup/two-factor.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function memberWithTotp() {
  const member = await createMember(t);
  const { secret, recoveryCodes } = await enrolTotp(t, member);
  return { member, secret, recoveryCodes };
}

async function ticketFor(member: TestMember): Promise<string> {
  const res = await t.request('POST', '/api/auth/login', { body: { email: member.email, password: member.password } });
  expect(res.status).toBe(200);
  return res.body.secondFactor.ticket;
}

describe('a first factor of an account with a second factor', () => {
  it('answers a ticket and no session (REST and typed client)', async () => {
    const { member } = await memberWithTotp();
    const res = await t.request('POST', '/api/auth/login', {
      body: { email: member.email, password: member.password },
    });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('token');
    expect(res.body).not.toHaveProperty('user');
    expect(res.body.secondFactor.methods).toEqual(['totp', 'recovery']);
    expect(res.body.secondFactor.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(res.body.secondFactor.expiresAt) - t.clock.now().getTime()).toBe(5 * 60_000);
    const viaTrpc = await t.trpc().auth.login.mutate({ email: member.email, password: member.password });
    expect('secondFactor' in viaTrpc && viaTrpc.secondFactor.methods).toEqual(['totp', 'recovery']);
    const rows = await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from sessions where user_id = ${member.id}`,
    );
    expect(rows[0]?.n).toBe(1); // only the registration's
  });

  it('leaves accounts without a second factor as they were', async () => {
    const member = await createMember(t);
    const res = await t.request('POST', '/api/auth/login', {
      body: { email: member.email, password: member.password },
    });
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^[a-z2-7]{52}$/);
    expect(res.body).not.toHaveProperty('secondFactor');
  });
});

describe('POST /api/auth/second-factor', () => {
  it('trades the ticket and a code for a session (REST)', async () => {
    const { member, secret } = await memberWithTotp();
    const ticket = await ticketFor(member);
    const res = await t.request('POST', '/api/auth/second-factor', { body: { ticket, code: totpCode(t, secret) } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user._id).toBe(member.id);
    expect((await t.request('GET', '/api/me', { token: res.body.token })).status).toBe(200);
  });

  it('works through the typed tRPC client', async () => {
    const { member, secret } = await memberWithTotp();
    const login = await t.trpc().auth.login.mutate({ email: member.email, password: member.password });
    if (!('secondFactor' in login)) throw new Error('expected a ticket');
    const grant = await t
      .trpc()
      .auth.secondFactor.mutate({ ticket: login.secondFactor.ticket, code: totpCode(t, secret) });
    expect(grant.user._id).toBe(member.id);
    expect((await t.trpc(granted(grant).token).me.get.query({})).email).toBe(member.email);
  });

  it('is single use: the ticket works once (security)', async () => {
    const { member, secret } = await memberWithTotp();
    const ticket = await ticketFor(member);
    expect(
      (await t.request('POST', '/api/auth/second-factor', { body: { ticket, code: totpCode(t, secret) } })).status,
    ).toBe(200);
    t.clock.advance(30_000);
    const again = await t.request('POST', '/api/auth/second-factor', { body: { ticket, code: totpCode(t, secret) } });
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('invalid_credentials');
  });

  it('refuses a replayed code, even with a new ticket (security)', async () => {
    const { member, secret } = await memberWithTotp();
    const code = totpCode(t, secret);
    expect(
      (await t.request('POST', '/api/auth/second-factor', { body: { ticket: await ticketFor(member), code } })).status,
    ).toBe(200);
    const replay = await t.request('POST', '/api/auth/second-factor', {
      body: { ticket: await ticketFor(member), code },
    });
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe('invalid_second_factor');
    // An older step than the last accepted one is refused too.
    t.clock.advance(30_000);
    const older = await t.request('POST', '/api/auth/second-factor', {
      body: { ticket: await ticketFor(member), code: totpCode(t, secret, -1) },
    });
    expect(older.status).toBe(401);
  });

  it('accepts a recovery code once (security)', async () => {
    const { member, recoveryCodes } = await memberWithTotp();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const recoveryCode = recoveryCodes[0]!;
    const first = await t.request('POST', '/api/auth/second-factor', {
      body: { ticket: await ticketFor(member), recoveryCode },
    });
    expect(first.status).toBe(200);
    const second = await t.request('POST', '/api/auth/second-factor', {
      body: { ticket: await ticketFor(member), recoveryCode },
    });
    expect(second.status).toBe(401);
    expect(second.body.error.code).toBe('invalid_second_factor');
    // Typed as shown or in lower case without dashes: the same code.
    const other = recoveryCodes[1]!.replace(/-/g, '').toLowerCase();
    expect(
      (
        await t.request('POST', '/api/auth/second-factor', {
          body: { ticket: await ticketFor(member), recoveryCode: other },
        })
      ).status,
    ).toBe(200);
  });

  it('expires after 5 minutes (security)', async () => {
    const { member, secret } = await memberWithTotp();
    const ticket = await ticketFor(member);
    t.clock.advance(5 * 60_000 + 1000);
    const late = await t.request('POST', '/api/auth/second-factor', { body: { ticket, code: totpCode(t, secret) } });
    expect(late.status).toBe(401);
    expect(late.body.error.code).toBe('invalid_credentials');
  });

  it('dies after 5 wrong answers, even if the 6th is right (security)', async () => {
    const { member, secret } = await memberWithTotp();
    const ticket = await ticketFor(member);
    const right = totpCode(t, secret);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await t.request('POST', '/api/auth/second-factor', { body: { ticket, code: wrong } });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('invalid_second_factor');
    }
    const dead = await t.request('POST', '/api/auth/second-factor', { body: { ticket, code: right } });
    expect(dead.status).toBe(401);
    expect(dead.body.error.code).toBe('invalid_credentials');
  });

  it('wants exactly one answer, and an unknown ticket is simply invalid (error)', async () => {
    const none = await t.request('POST', '/api/auth/second-factor', { body: { ticket: 'x'.repeat(43) } });
    expect(none.status).toBe(400);
    const both = await t.request('POST', '/api/auth/second-factor', {
      body: { ticket: 'x'.repeat(43), code: '123456', recoveryCode: 'AAAA-BBBB-CCCC-DDDD' },
    });
    expect(both.status).toBe(400);
    const unknown = await t.request('POST', '/api/auth/second-factor', {
      body: { ticket: 'x'.repeat(43), code: '123456' },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('invalid_credentials');
  });
});
