// Passkeys: registration and management under /api/me/passkeys, sign-in with a passkey alone
// under /api/auth/passkeys; through REST and the typed client, with a software authenticator.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { SoftAuthenticator } from './soft-authenticator.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000' });
});
afterAll(() => t.close());

type Member = Awaited<ReturnType<typeof createMember>>;

async function addPasskey(m: Member, name = 'Laptop', authenticator = new SoftAuthenticator()) {
  const opts = await t.request('POST', '/api/me/passkeys/options', { token: m.token, body: {} });
  expect(opts.status).toBe(200);
  const res = await t.request('POST', '/api/me/passkeys', {
    token: m.token,
    body: { name, challengeId: opts.body.challengeId, response: authenticator.register(opts.body.options) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { authenticator, passkey: res.body };
}

async function signInOptions(ip?: string) {
  const res = await t.request('POST', '/api/auth/passkeys/options', { body: {}, ...(ip ? { ip } : {}) });
  expect(res.status).toBe(200);
  return res.body as { challengeId: string; options: { challenge: string; allowCredentials?: unknown[] } };
}

describe('registering a passkey', () => {
  it('gives discoverable, user-verifying options named by the handle, never the email (happy + privacy)', async () => {
    const m = await createMember(t);
    const res = await t.request('POST', '/api/me/passkeys/options', { token: m.token, body: {} });
    expect(res.status).toBe(200);
    const { options } = res.body;
    expect(options.rp).toEqual({ id: 'localhost', name: expect.any(String) });
    expect(options.user.name).toBe(m.handle);
    expect(JSON.stringify(options)).not.toContain(m.email);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
  });

  it('stores several named passkeys and lists them without key material (happy + privacy)', async () => {
    const m = await createMember(t);
    const { passkey, authenticator } = await addPasskey(m, 'Laptop');
    expect(passkey).toEqual({
      _id: expect.any(String),
      name: 'Laptop',
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    await addPasskey(m, 'Phone');
    const list = await t.request('GET', '/api/me/passkeys', { token: m.token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((p: { name: string }) => p.name)).toEqual(['Laptop', 'Phone']);
    expect(list.body.nextCursor).toBeNull();
    expect(JSON.stringify(list.body)).not.toContain(authenticator.id);
    // A second register options call excludes what the account already has.
    const again = await t.request('POST', '/api/me/passkeys/options', { token: m.token, body: {} });
    expect(again.body.options.excludeCredentials).toHaveLength(2);
  });

  it('refuses a used, foreign or wrong-origin challenge, no user verification, and a duplicate (error + security)', async () => {
    const m = await createMember(t);
    const other = await createMember(t);
    const a = new SoftAuthenticator();
    const opts = (await t.request('POST', '/api/me/passkeys/options', { token: m.token, body: {} })).body;
    // Another member cannot answer my challenge (and that consumes nothing of theirs).
    const foreign = await t.request('POST', '/api/me/passkeys', {
      token: other.token,
      body: { name: 'x', challengeId: opts.challengeId, response: a.register(opts.options) },
    });
    expect(foreign.status).toBe(400);
    // The challenge died with that attempt: single use.
    const reused = await t.request('POST', '/api/me/passkeys', {
      token: m.token,
      body: { name: 'x', challengeId: opts.challengeId, response: a.register(opts.options) },
    });
    expect(reused.status).toBe(400);
    for (const authenticator of [
      new SoftAuthenticator({ origin: 'https://evil.example' }),
      new SoftAuthenticator({ rpId: 'evil.example' }),
      new SoftAuthenticator({ userVerified: false }),
    ]) {
      const o = (await t.request('POST', '/api/me/passkeys/options', { token: m.token, body: {} })).body;
      const res = await t.request('POST', '/api/me/passkeys', {
        token: m.token,
        body: { name: 'x', challengeId: o.challengeId, response: authenticator.register(o.options) },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    const { authenticator } = await addPasskey(m);
    const o = (await t.request('POST', '/api/me/passkeys/options', { token: other.token, body: {} })).body;
    const dup = await t.request('POST', '/api/me/passkeys', {
      token: other.token,
      body: { name: 'x', challengeId: o.challengeId, response: authenticator.register(o.options) },
    });
    expect(dup.status).toBe(409);
  });

  it('refuses an expired challenge (token lifetime)', async () => {
    const m = await createMember(t);
    const o = (await t.request('POST', '/api/me/passkeys/options', { token: m.token, body: {} })).body;
    t.clock.advance(5 * 60_000 + 1);
    const res = await t.request('POST', '/api/me/passkeys', {
      token: m.token,
      body: { name: 'x', challengeId: o.challengeId, response: new SoftAuthenticator().register(o.options) },
    });
    expect(res.status).toBe(400);
  });

  it('needs a session (authorization)', async () => {
    for (const [method, path] of [
      ['POST', '/api/me/passkeys/options'],
      ['GET', '/api/me/passkeys'],
    ] as const)
      expect((await t.request(method, path, { body: method === 'POST' ? {} : undefined })).status).toBe(401);
  });
});

describe('renaming and removing', () => {
  it("renames; another member's passkey is 404 (happy + authorization)", async () => {
    const m = await createMember(t);
    const other = await createMember(t);
    const { passkey } = await addPasskey(m);
    const renamed = await t.request('PATCH', `/api/me/passkeys/${passkey._id}`, {
      token: m.token,
      body: { name: 'Work' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Work');
    const foreign = await t.request('PATCH', `/api/me/passkeys/${passkey._id}`, {
      token: other.token,
      body: { name: 'Mine' },
    });
    expect(foreign.status).toBe(404);
    const removeForeign = await t.request('POST', `/api/me/passkeys/${passkey._id}/remove`, {
      token: other.token,
      body: { password: other.password },
    });
    expect(removeForeign.status).toBe(404);
  });

  it('removing needs the password or a fresh passkey assertion: a session alone is not enough (stolen phone)', async () => {
    const m = await createMember(t);
    const { passkey, authenticator } = await addPasskey(m);
    const second = await addPasskey(m, 'Phone');
    const bare = await t.request('POST', `/api/me/passkeys/${passkey._id}/remove`, { token: m.token, body: {} });
    expect(bare.status).toBe(400);
    const wrong = await t.request('POST', `/api/me/passkeys/${passkey._id}/remove`, {
      token: m.token,
      body: { password: 'not the password' },
    });
    expect(wrong.status).toBe(403);
    const right = await t.request('POST', `/api/me/passkeys/${passkey._id}/remove`, {
      token: m.token,
      body: { password: m.password },
    });
    expect(right.status).toBe(200);
    // With a fresh assertion of the remaining passkey instead of the password.
    const confirm = (
      await t.request('POST', '/api/me/passkeys/options', { token: m.token, body: { purpose: 'confirm' } })
    ).body;
    expect(confirm.options.allowCredentials).toHaveLength(1);
    // The removed passkey can no longer confirm anything.
    const stale = await t.request('POST', `/api/me/passkeys/${second.passkey._id}/remove`, {
      token: m.token,
      body: { passkey: { challengeId: confirm.challengeId, response: authenticator.assert(confirm.options) } },
    });
    expect(stale.status).toBe(403);
    const again = (
      await t.request('POST', '/api/me/passkeys/options', { token: m.token, body: { purpose: 'confirm' } })
    ).body;
    const ok = await t.request('POST', `/api/me/passkeys/${second.passkey._id}/remove`, {
      token: m.token,
      body: { passkey: { challengeId: again.challengeId, response: second.authenticator.assert(again.options) } },
    });
    expect(ok.status).toBe(200);
    expect((await t.request('GET', '/api/me/passkeys', { token: m.token })).body.items).toEqual([]);
  });

  it('works through the typed tRPC client', async () => {
    const m = await createMember(t);
    const client = t.trpc(m.token);
    const a = new SoftAuthenticator();
    const o = await client.me.createPasskeyOptions.mutate({});
    const created = await client.me.createPasskey.mutate({
      name: 'Key',
      challengeId: o.challengeId,
      response: a.register(o.options as never),
    });
    expect((await client.me.listPasskeys.query({})).items).toEqual([created]);
    expect((await client.me.updatePasskey.mutate({ id: created._id, name: 'Key 2' })).name).toBe('Key 2');
    const s = await t.trpc().auth.createPasskeyOptions.mutate({});
    const grant = await t
      .trpc()
      .auth.loginWithPasskey.mutate({ challengeId: s.challengeId, response: a.assert(s.options) });
    expect(grant.user._id).toBe(m.id);
    await client.me.removePasskey.mutate({ id: created._id, password: m.password });
    expect((await client.me.listPasskeys.query({})).items).toEqual([]);
  });
});

describe('signing in with a passkey alone', () => {
  it('signs in with a discoverable credential, no account named (happy)', async () => {
    const m = await createMember(t);
    const { authenticator, passkey } = await addPasskey(m);
    const o = await signInOptions();
    expect(o.options.allowCredentials ?? []).toEqual([]);
    expect(o.options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    const res = await t.request('POST', '/api/auth/passkeys/login', {
      body: { challengeId: o.challengeId, response: authenticator.assert(o.options) },
    });
    expect(res.status).toBe(200);
    expect(res.body.user._id).toBe(m.id);
    expect((await t.request('GET', '/api/me', { token: res.body.token })).status).toBe(200);
    const listed = (await t.request('GET', '/api/me/passkeys', { token: m.token })).body.items;
    expect(listed.find((p: { _id: string }) => p._id === passkey._id).lastUsedAt).not.toBeNull();
  });

  it('answers the same 401 for an unknown credential, a bad signature, a replay and a cloned counter (enumeration)', async () => {
    const m = await createMember(t);
    const { authenticator } = await addPasskey(m);
    const stranger = new SoftAuthenticator();
    stranger.userHandle = authenticator.userHandle;
    const bodies: unknown[] = [];
    const attempt = async (make: (o: { challenge: string }) => unknown, challengeId?: string) => {
      const o = await signInOptions();
      const res = await t.request('POST', '/api/auth/passkeys/login', {
        body: { challengeId: challengeId ?? o.challengeId, response: make(o.options) },
      });
      expect(res.status).toBe(401);
      bodies.push(res.body);
    };
    await attempt((o) => stranger.assert(o)); // unknown credential
    await attempt((o) => ({ ...stranger.assert(o), id: authenticator.id, rawId: authenticator.id })); // wrong key
    // A used challenge: sign in once, then replay the same challenge id.
    const o = await signInOptions();
    const ok = await t.request('POST', '/api/auth/passkeys/login', {
      body: { challengeId: o.challengeId, response: authenticator.assert(o.options) },
    });
    expect(ok.status).toBe(200);
    await attempt(() => authenticator.assert(o.options), o.challengeId);
    // The counter did not move on (a cloned authenticator).
    await attempt((opts) => authenticator.assert(opts, { counter: 1 }));
    // No user verification.
    authenticator.userVerified = false;
    await attempt((opts) => authenticator.assert(opts));
    authenticator.userVerified = true;
    // Another member's user handle on my credential.
    await attempt((opts) =>
      authenticator.assert(opts, { userHandle: Buffer.from('x'.repeat(16)).toString('base64url') }),
    );
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(bodies[0]).toEqual({ error: { code: 'invalid_credentials', message: expect.any(String) } });
  });

  it('refuses an expired sign-in challenge (token lifetime)', async () => {
    const m = await createMember(t);
    const { authenticator } = await addPasskey(m);
    const o = await signInOptions();
    t.clock.advance(5 * 60_000 + 1);
    const res = await t.request('POST', '/api/auth/passkeys/login', {
      body: { challengeId: o.challengeId, response: authenticator.assert(o.options) },
    });
    expect(res.status).toBe(401);
  });

  it('is rate-limited per address with password logins (rate limit)', async () => {
    const limited = await createTestApp({ RATE_LIMIT_LOGIN_PER_IP: '3' });
    try {
      const ip = '203.0.113.77';
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await limited.request('POST', '/api/auth/passkeys/login', {
          ip,
          body: {
            challengeId: '01890000-0000-7000-8000-000000000000',
            response: new SoftAuthenticator().assert({ challenge: 'AAAA' }),
          },
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const options = await limited.request('POST', '/api/auth/passkeys/options', { ip: '203.0.113.78', body: {} });
      expect(options.status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('deletes passkeys and their challenges with the account (privacy)', async () => {
    const m = await createMember(t);
    await addPasskey(m);
    await t.request('POST', '/api/me/passkeys/options', { token: m.token, body: {} });
    expect((await t.request('DELETE', '/api/me', { token: m.token })).status).toBe(200);
    const rows = await t.deps.database.rows<{ n: number }>(
      sql`select (select count(*) from passkeys where user_id = ${m.id}) + (select count(*) from webauthn_challenges where user_id = ${m.id}) as n`,
    );
    expect(Number(rows[0]!.n)).toBe(0);
  });
});
