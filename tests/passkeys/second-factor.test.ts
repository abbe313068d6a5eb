// A passkey as the second factor: a password sign-in of an account holding a passkey stops at a
// ticket; POST /api/auth/passkeys/options { ticket } gives a challenge bound to that ticket, and
// POST /api/auth/second-factor { ticket, passkey } trades an assertion for the session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { granted } from '../setup/granted.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { SoftAuthenticator } from './soft-authenticator.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000' });
});
afterAll(() => t.close());

async function memberWithPasskey() {
  const member = await createMember(t);
  const authenticator = new SoftAuthenticator();
  const opts = await t.request('POST', '/api/me/passkeys/options', { token: member.token, body: {} });
  const res = await t.request('POST', '/api/me/passkeys', {
    token: member.token,
    body: { name: 'Key', challengeId: opts.body.challengeId, response: authenticator.register(opts.body.options) },
  });
  expect(res.status, res.text).toBe(201);
  return { member, authenticator };
}

async function ticketFor(member: TestMember): Promise<string> {
  const res = await t.request('POST', '/api/auth/login', { body: { email: member.email, password: member.password } });
  expect(res.status).toBe(200);
  expect(res.body).not.toHaveProperty('token');
  return res.body.secondFactor.ticket;
}

async function optionsFor(ticket: string) {
  const res = await t.request('POST', '/api/auth/passkeys/options', { body: { ticket } });
  expect(res.status, res.text).toBe(200);
  return res.body as { challengeId: string; options: { challenge: string; allowCredentials?: { id: string }[] } };
}

describe('a passkey as the second factor', () => {
  it('a password sign-in of an account with only a passkey asks for it, and an assertion completes it (REST)', async () => {
    const { member, authenticator } = await memberWithPasskey();
    const login = await t.request('POST', '/api/auth/login', {
      body: { email: member.email, password: member.password },
    });
    expect(login.status).toBe(200);
    expect(login.body).not.toHaveProperty('token');
    expect(login.body.secondFactor.methods).toEqual(['passkey']);
    const { ticket } = login.body.secondFactor;
    const o = await optionsFor(ticket);
    expect(o.options.allowCredentials?.map((c) => c.id)).toEqual([authenticator.id]);
    const res = await t.request('POST', '/api/auth/second-factor', {
      body: { ticket, passkey: { challengeId: o.challengeId, response: authenticator.assert(o.options) } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user._id).toBe(member.id);
    expect((await t.request('GET', '/api/me', { token: res.body.token })).status).toBe(200);
  });

  it('works through the typed tRPC client', async () => {
    const { member, authenticator } = await memberWithPasskey();
    const login = await t.trpc().auth.login.mutate({ email: member.email, password: member.password });
    if (!('secondFactor' in login)) throw new Error('expected a ticket');
    expect(login.secondFactor.methods).toEqual(['passkey']);
    const o = await t.trpc().auth.createPasskeyOptions.mutate({ ticket: login.secondFactor.ticket });
    const grant = await t.trpc().auth.secondFactor.mutate({
      ticket: login.secondFactor.ticket,
      passkey: { challengeId: o.challengeId, response: authenticator.assert(o.options) as never },
    });
    expect(grant.user._id).toBe(member.id);
    expect((await t.trpc(granted(grant).token).me.get.query({})).email).toBe(member.email);
  });

  it("refuses another account's passkey (security)", async () => {
    const { member } = await memberWithPasskey();
    const { authenticator: foreign } = await memberWithPasskey();
    const ticket = await ticketFor(member);
    const o = await optionsFor(ticket);
    const res = await t.request('POST', '/api/auth/second-factor', {
      body: { ticket, passkey: { challengeId: o.challengeId, response: foreign.assert(o.options) } },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_second_factor');
  });

  it('refuses a challenge not bound to this ticket: another ticket’s, a plain sign-in one (security)', async () => {
    const { member, authenticator } = await memberWithPasskey();
    const first = await ticketFor(member);
    const second = await ticketFor(member);
    const ofFirst = await optionsFor(first);
    const wrongTicket = await t.request('POST', '/api/auth/second-factor', {
      body: {
        ticket: second,
        passkey: { challengeId: ofFirst.challengeId, response: authenticator.assert(ofFirst.options) },
      },
    });
    expect(wrongTicket.status).toBe(401);
    expect(wrongTicket.body.error.code).toBe('invalid_second_factor');
    const plain = (await t.request('POST', '/api/auth/passkeys/options', { body: {} })).body;
    const signInChallenge = await t.request('POST', '/api/auth/second-factor', {
      body: {
        ticket: second,
        passkey: { challengeId: plain.challengeId, response: authenticator.assert(plain.options) },
      },
    });
    expect(signInChallenge.status).toBe(401);
    expect(signInChallenge.body.error.code).toBe('invalid_second_factor');
    // The challenge of the first ticket died with that wrong attempt: single use.
    const replay = await t.request('POST', '/api/auth/second-factor', {
      body: {
        ticket: first,
        passkey: { challengeId: ofFirst.challengeId, response: authenticator.assert(ofFirst.options) },
      },
    });
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe('invalid_second_factor');
    // A fresh challenge for the right ticket still works.
    const fresh = await optionsFor(second);
    const ok = await t.request('POST', '/api/auth/second-factor', {
      body: {
        ticket: second,
        passkey: { challengeId: fresh.challengeId, response: authenticator.assert(fresh.options) },
      },
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it('options for a dead or made-up ticket are 401 invalid_credentials and name no passkey (enumeration)', async () => {
    const { member, authenticator } = await memberWithPasskey();
    const made = await t.request('POST', '/api/auth/passkeys/options', { body: { ticket: 'x'.repeat(43) } });
    expect(made.status).toBe(401);
    expect(made.body.error.code).toBe('invalid_credentials');
    const ticket = await ticketFor(member);
    t.clock.advance(5 * 60_000 + 1);
    const expired = await t.request('POST', '/api/auth/passkeys/options', { body: { ticket } });
    expect(expired.status).toBe(401);
    expect(expired.text).not.toContain(authenticator.id);
  });
});
