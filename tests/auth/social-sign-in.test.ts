// Sign in with Apple and Google against a real JWKS endpoint: an HTTP server started here serves
// the public keys, tokens are signed with the matching private keys, and every check of the token
// (signature, kid, issuer, audience, lifetime, nonce, verified email, single use) is exercised.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { externalIdentities, usedIdentityTokens, users } from '../../db/schema/index.js';
import { expiredCredentialsSweep } from '../../server/jobs/sweeps.js';
import { createMember, createTestApp, unique, type TestApp } from '../setup/harness.js';

const APPLE_AUD = 'org.example.activism';
const GOOGLE_AUD = 'test-client.apps.googleusercontent.com';
const APPLE_ISS = 'https://appleid.apple.com';
const GOOGLE_ISS = 'https://accounts.google.com';

type SigningKey = { kid: string; privateKey: CryptoKey; jwk: JWK };

async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

/** The providers' key endpoints: what they serve can change mid-test (key rotation, outage). */
class JwksServer {
  readonly keys: Record<'apple' | 'google', JWK[]> = { apple: [], google: [] };
  fetches = 0;
  down = false;
  private server!: Server;
  url = '';

  async start() {
    this.server = createServer((req, res) => {
      this.fetches += 1;
      const provider = req.url === '/apple' ? 'apple' : req.url === '/google' ? 'google' : null;
      if (this.down || !provider) {
        res.writeHead(this.down ? 503 : 404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: this.keys[provider] }));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const jwks = new JwksServer();
let t: TestApp;
let appleKey: SigningKey;
let googleKey: SigningKey;
let strangerKey: SigningKey;

beforeAll(async () => {
  await jwks.start();
  [appleKey, googleKey, strangerKey] = await Promise.all([
    signingKey('apple-1'),
    signingKey('google-1'),
    signingKey('google-1'),
  ]);
  jwks.keys.apple.push(appleKey.jwk);
  jwks.keys.google.push(googleKey.jwk);
  t = await createTestApp(providerEnv());
});
afterAll(async () => {
  await t?.close();
  await jwks.close();
});

function providerEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    APPLE_CLIENT_IDS: `${APPLE_AUD},org.example.other`,
    APPLE_JWKS_URL: `${jwks.url}/apple`,
    GOOGLE_CLIENT_IDS: GOOGLE_AUD,
    GOOGLE_JWKS_URL: `${jwks.url}/google`,
    // Each test app refetches at once on an unknown kid; production waits 30 s between fetches.
    IDENTITY_JWKS_COOLDOWN_SECONDS: '0',
    ...extra,
  };
}

interface TokenOptions {
  key?: SigningKey;
  kid?: string;
  iss?: string;
  aud?: string;
  sub?: string;
  email?: string | null;
  emailVerified?: boolean | string | null;
  nonce?: string | null;
  /** Seconds relative to the app's clock. */
  iatOffset?: number;
  lifetime?: number;
  alg?: string;
}

const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);
const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

async function googleToken(o: TokenOptions = {}) {
  return token({ key: googleKey, iss: GOOGLE_ISS, aud: GOOGLE_AUD, ...o });
}
async function appleToken(rawNonce: string, o: TokenOptions = {}) {
  return token({
    key: appleKey,
    iss: APPLE_ISS,
    aud: APPLE_AUD,
    nonce: sha256Hex(rawNonce),
    emailVerified: 'true',
    ...o,
  });
}

async function token(o: TokenOptions): Promise<string> {
  const key = o.key ?? googleKey;
  const iat = nowSeconds() + (o.iatOffset ?? 0);
  const claims: Record<string, unknown> = {};
  if (o.email !== null) claims.email = o.email ?? `${unique('sso')}@example.test`;
  if (o.emailVerified !== null) claims.email_verified = o.emailVerified ?? true;
  if (o.nonce != null) claims.nonce = o.nonce;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: o.alg ?? 'RS256', kid: o.kid ?? key.kid })
    .setIssuer(o.iss ?? GOOGLE_ISS)
    .setAudience(o.aud ?? GOOGLE_AUD)
    .setSubject(o.sub ?? unique('sub'))
    .setIssuedAt(iat)
    .setExpirationTime(iat + (o.lifetime ?? 3600))
    .sign(key.privateKey);
}

const google = (idToken: string, extra: Record<string, unknown> = {}, app = t) =>
  app.request('POST', '/api/auth/google', { body: { idToken, ...extra } });
const apple = (identityToken: string, nonce: string, extra: Record<string, unknown> = {}) =>
  t.request('POST', '/api/auth/apple', { body: { identityToken, nonce, ...extra } });

function expectRefused(res: { status: number; body: any }, status = 401, code = 'invalid_credentials') {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(res.body).not.toHaveProperty('token');
}

describe('Sign in with Google', () => {
  it('creates an account from a verified token, with the email from the token and the requested handle (happy)', async () => {
    const email = `${unique('new')}@example.test`;
    const handle = unique('gh');
    const res = await google(await googleToken({ email }), { handle });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user).toMatchObject({ email, handle: handle.toLowerCase(), role: 'member' });
    expect(typeof res.body.expiresAt).toBe('string');
    const me = await t.request('GET', '/api/me', { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body._id).toBe(res.body.user._id);
    const [row] = await t.deps.database.db.select().from(users).where(eq(users.id, res.body.user._id));
    expect(row!.passwordHash).toBeNull();
  });

  it('signs the same identity in to the same account later, ignoring a new handle and the email', async () => {
    const sub = unique('stable');
    const first = await google(await googleToken({ sub }), { handle: unique('first') });
    expect(first.status).toBe(200);
    const again = await google(await googleToken({ sub, email: `${unique('changed')}@example.test` }), {
      handle: unique('second'),
    });
    expect(again.status).toBe(200);
    expect(again.body.user._id).toBe(first.body.user._id);
    expect(again.body.user.handle).toBe(first.body.user.handle);
    expect(again.body.token).not.toBe(first.body.token);
  });

  it('chooses a random member_ handle, never one derived from the email, when none is sent', async () => {
    const res = await google(await googleToken({ email: 'Jane.Realname@example.test' }));
    expect(res.status).toBe(200);
    expect(res.body.user.handle).toMatch(/^member_[a-z0-9]{8}$/);
    expect(res.body.user.handle).not.toContain('jane');
    expect(res.body.user.email).toBe('jane.realname@example.test');
  });

  it('links an existing account with the same verified email (password sign-in keeps working)', async () => {
    const member = await createMember(t);
    const res = await google(await googleToken({ email: member.email.toUpperCase() }), { handle: unique('ignored') });
    expect(res.status).toBe(200);
    expect(res.body.user._id).toBe(member.id);
    expect(res.body.user.handle).toBe(member.handle);
    const links = await t.deps.database.db
      .select()
      .from(externalIdentities)
      .where(eq(externalIdentities.userId, member.id));
    expect(links).toHaveLength(1);
    expect(links[0]!.provider).toBe('google');
  });

  it('refuses an unverified email: 403, and no account is created or linked', async () => {
    const email = `${unique('unverified')}@example.test`;
    const res = await google(await googleToken({ email, emailVerified: false }), { handle: unique('nv') });
    expectRefused(res, 403, 'forbidden');
    expect(await t.deps.database.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);

    const member = await createMember(t);
    const takeover = await google(await googleToken({ email: member.email, emailVerified: false }));
    expectRefused(takeover, 403, 'forbidden');
    const links = await t.deps.database.db
      .select()
      .from(externalIdentities)
      .where(eq(externalIdentities.userId, member.id));
    expect(links).toHaveLength(0);
  });

  it('refuses a token without an email when the identity is new', async () => {
    expectRefused(await google(await googleToken({ email: null })), 403, 'forbidden');
  });

  it('refuses an expired token, and accepts one expired within the leeway', async () => {
    const expired = await google(await googleToken({ iatOffset: -7200, lifetime: 3600 }));
    expectRefused(expired);
    expect(expired.body.error.message).toMatch(/expired/);
    expect((await google(await googleToken({ iatOffset: -3630, lifetime: 3600 }))).status).toBe(200);
  });

  it('refuses a token issued in the future beyond the leeway', async () => {
    expectRefused(await google(await googleToken({ iatOffset: 600 })));
  });

  it('refuses the wrong audience and the wrong issuer', async () => {
    expectRefused(await google(await googleToken({ aud: 'someone-else.apps.googleusercontent.com' })));
    expectRefused(await google(await googleToken({ iss: 'https://accounts.example.test' })));
    // Apple's audience is not Google's.
    expectRefused(await google(await googleToken({ aud: APPLE_AUD })));
  });

  it('accepts either spelling of Google’s issuer', async () => {
    expect((await google(await googleToken({ iss: 'accounts.google.com' }))).status).toBe(200);
  });

  it('refuses a bad signature: a key with the same kid that the provider never published', async () => {
    expectRefused(await google(await googleToken({ key: strangerKey })));
  });

  it('refuses a token whose signature bytes were altered, and garbage that is not a JWT', async () => {
    const good = await googleToken();
    const [h, p, s] = good.split('.');
    const flipped = `${h}.${p}.${s!.slice(0, -2)}${s!.endsWith('AA') ? 'BB' : 'AA'}`;
    expectRefused(await google(flipped));
    expectRefused(await google('not-a-jwt'));
    // An unsigned token (alg none) is never accepted.
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid: 'google-1' })).toString('base64url')}.${p}.`;
    expectRefused(await google(none));
  });

  it('fetches the keys again for an unknown kid (rotation) and refuses a kid that stays unknown', async () => {
    const rotated = await signingKey('google-2');
    const before = jwks.fetches;
    expectRefused(await google(await googleToken({ key: rotated })));
    expect(jwks.fetches).toBeGreaterThan(before);

    jwks.keys.google.push(rotated.jwk);
    const after = await google(await googleToken({ key: rotated }));
    expect(after.status, after.text).toBe(200);
    // The old key still works while it is published.
    expect((await google(await googleToken())).status).toBe(200);
  });

  it('caches the keys: many sign-ins, no new fetch', async () => {
    await google(await googleToken());
    const before = jwks.fetches;
    for (let i = 0; i < 3; i++) expect((await google(await googleToken())).status).toBe(200);
    expect(jwks.fetches).toBe(before);
  });

  it('accepts each token once: a replayed token is refused', async () => {
    const idToken = await googleToken();
    expect((await google(idToken)).status).toBe(200);
    const replay = await google(idToken);
    expectRefused(replay);
    expect(replay.body.error.message).toMatch(/already been used/);
  });

  it('forgets used tokens after their expiry (the credentials sweep)', async () => {
    const idToken = await googleToken({ lifetime: 600 });
    expect((await google(idToken)).status).toBe(200);
    const db = t.deps.database.db;
    const count = async () => (await db.select().from(usedIdentityTokens)).length;
    const before = await count();
    t.clock.advance(11 * 60_000);
    await db.transaction((tx) => expiredCredentialsSweep.run(tx, t.clock.now()));
    expect(await count()).toBeLessThan(before);
  });

  it('answers 409 for a taken or reserved handle when creating, and creates nothing', async () => {
    const member = await createMember(t);
    const email = `${unique('clash')}@example.test`;
    const taken = await google(await googleToken({ email }), { handle: member.handle.toUpperCase() });
    expectRefused(taken, 409, 'conflict');
    expectRefused(await google(await googleToken({ email }), { handle: 'admin' }), 409, 'conflict');
    expect(await t.deps.database.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it('refuses to link a second Google identity to an account that already has one', async () => {
    const member = await createMember(t);
    expect((await google(await googleToken({ email: member.email }))).status).toBe(200);
    expectRefused(await google(await googleToken({ email: member.email })), 409, 'conflict');
  });

  it('answers 503 when the provider’s keys cannot be fetched', async () => {
    const outage = await createTestApp(providerEnv({ GOOGLE_JWKS_URL: `${jwks.url}/google?outage` }));
    try {
      jwks.down = true;
      const res = await google(await googleToken(), {}, outage);
      expectRefused(res, 503, 'unavailable');
    } finally {
      jwks.down = false;
      await outage.close();
    }
  });

  it('is rate limited per client address like login', async () => {
    const limited = await createTestApp(providerEnv({ RATE_LIMIT_LOGIN_PER_IP: '2' }));
    try {
      const ip = '203.0.113.77';
      const call = async () => limited.request('POST', '/api/auth/google', { ip, body: { idToken: 'not-a-jwt' } });
      expect((await call()).status).toBe(401);
      expect((await call()).status).toBe(401);
      const third = await call();
      expectRefused(third, 429, 'rate_limited');
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });

  it('works through the typed tRPC client', async () => {
    const handle = unique('typed');
    const grant = await t.trpc().auth.google.mutate({ idToken: await googleToken(), handle });
    expect(grant.user.handle).toBe(handle.toLowerCase());
    const me = await t.trpc(grant.token).me.get.query({});
    expect(me._id).toBe(grant.user._id);
    await expect(t.trpc().auth.google.mutate({ idToken: 'not-a-jwt' })).rejects.toMatchObject({
      data: { httpStatus: 401, code: 'invalid_credentials' },
    });
  });

  it('deleting the account deletes its linked identities', async () => {
    const res = await google(await googleToken());
    const userId = res.body.user._id;
    expect((await t.request('DELETE', '/api/me', { token: res.body.token })).status).toBeLessThan(300);
    const links = await t.deps.database.db
      .select()
      .from(externalIdentities)
      .where(eq(externalIdentities.userId, userId));
    expect(links).toHaveLength(0);
  });
});

describe('Sign in with Apple', () => {
  it('signs in when the token’s nonce is the SHA-256 of the sent nonce (happy), email_verified as a string', async () => {
    const nonce = unique('nonce');
    const email = `${unique('apple')}@privaterelay.appleid.com`;
    const res = await apple(await appleToken(nonce, { email }), nonce, { handle: unique('ah') });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user.email).toBe(email);
  });

  it('accepts every configured client id as the audience', async () => {
    const nonce = unique('n');
    expect((await apple(await appleToken(nonce, { aud: 'org.example.other' }), nonce)).status).toBe(200);
  });

  it('refuses a missing or wrong nonce', async () => {
    const nonce = unique('n');
    expectRefused(await apple(await appleToken(nonce, { nonce: null }), nonce));
    expectRefused(await apple(await appleToken(nonce), `${nonce}x`));
    // The raw nonce in the token instead of its hash is wrong too.
    expectRefused(await apple(await appleToken(nonce, { nonce }), nonce));
  });

  it('refuses Google’s issuer and a Google-signed token', async () => {
    const nonce = unique('n');
    expectRefused(await apple(await appleToken(nonce, { iss: GOOGLE_ISS }), nonce));
    expectRefused(await apple(await appleToken(nonce, { key: googleKey }), nonce));
  });

  it('links Apple and Google identities to the same account by verified email', async () => {
    const member = await createMember(t);
    const nonce = unique('n');
    const viaApple = await apple(await appleToken(nonce, { email: member.email }), nonce);
    const viaGoogle = await google(await googleToken({ email: member.email }));
    expect(viaApple.body.user._id).toBe(member.id);
    expect(viaGoogle.body.user._id).toBe(member.id);
  });

  it('validates the body: nonce and identityToken are required, unknown fields refused', async () => {
    const missing = await t.request('POST', '/api/auth/apple', { body: { identityToken: 'x' } });
    expectRefused(missing, 400, 'validation_failed');
    const extra = await t.request('POST', '/api/auth/apple', {
      body: { identityToken: 'x', nonce: 'n', email: 'attacker@example.test' },
    });
    expectRefused(extra, 400, 'validation_failed');
  });

  it('works through the typed tRPC client', async () => {
    const nonce = unique('n');
    const grant = await t.trpc().auth.apple.mutate({ identityToken: await appleToken(nonce), nonce });
    expect(grant.user.role).toBe('member');
  });
});

describe('an unconfigured provider', () => {
  it('answers 501 not_implemented on both routes, after validation', async () => {
    const bare = await createTestApp();
    try {
      const g = await bare.request('POST', '/api/auth/google', { body: { idToken: await googleToken() } });
      expectRefused(g, 501, 'not_implemented');
      expect(g.body.error.message).toMatch(/Google/);
      const a = await bare.request('POST', '/api/auth/apple', { body: { identityToken: 'x', nonce: 'n' } });
      expectRefused(a, 501, 'not_implemented');
      expectRefused(await bare.request('POST', '/api/auth/google', { body: {} }), 400, 'validation_failed');
      await expect(bare.trpc().auth.google.mutate({ idToken: 'x' })).rejects.toMatchObject({
        data: { httpStatus: 501 },
      });
    } finally {
      await bare.close();
    }
  });
});
