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
import {
  createMember,
  createTestApp,
  linkIn,
  SIGN_IN_SUBJECT,
  unique,
  uniqueIp,
  type TestApp,
} from '../setup/harness.js';
import { granted } from '../setup/granted.js';
import { enrolTotp, totpCode } from '../setup/two-factor.js';

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
  aud?: string | string[];
  azp?: string;
  /** Google's Workspace domain claim. */
  hd?: string;
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
  if (o.azp !== undefined) claims.azp = o.azp;
  // Two tokens with the same claims signed in the same second would be one token, used once.
  claims.jti = unique('jti');
  if (o.hd !== undefined) claims.hd = o.hd;
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

/** A password account with a chosen email (createMember's are all @example.test). */
async function memberWithEmail(email: string, app = t) {
  const handle = unique('lk').toLowerCase().slice(0, 30);
  const password = `pw-${handle}-long-enough`;
  const res = await app.request('POST', '/api/auth/register', { body: { email, password, handle } });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.user._id as string, email, handle, password, token: res.body.token as string };
}

/** The token of the link in the newest mail to an address with this subject (waited for). */
async function lastLinkToken(address: string, subject: string): Promise<string> {
  return linkIn(await t.mailer.waitForMail(address, subject)).searchParams.get('token')!;
}

const verifyLink = (token: string) => t.request('POST', '/api/auth/magic-link/verify', { body: { token } });

async function identitiesOf(userId: string) {
  return t.deps.database.db.select().from(externalIdentities).where(eq(externalIdentities.userId, userId));
}

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
    expect(me.body.hasPassword).toBe(false);
    expect(res.body.user.hasPassword).toBe(false);
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

  it('links an existing account with the same verified Gmail address (password sign-in keeps working)', async () => {
    const member = await memberWithEmail(`${unique('gm')}@gmail.com`);
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
    expect((await google(await googleToken({ email: member.email, hd: 'example.test' }))).status).toBe(200);
    expectRefused(await google(await googleToken({ email: member.email, hd: 'example.test' })), 409, 'conflict');
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
    const grant = granted(await t.trpc().auth.google.mutate({ idToken: await googleToken(), handle }));
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

  it('links Apple (after the mailed confirmation) and Google (Gmail) identities to the same account', async () => {
    const member = await memberWithEmail(`${unique('both')}@gmail.com`);
    const nonce = unique('n');
    const sub = unique('apple-sub');
    const first = await apple(await appleToken(nonce, { email: member.email, sub }), nonce);
    expectRefused(first, 403, 'forbidden');
    await t.settleMail();
    expect((await verifyLink(await lastLinkToken(member.email, 'Confirm signing in with Apple'))).status).toBe(200);
    const viaApple = await apple(await appleToken(nonce, { email: member.email, sub }), nonce);
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
    const grant = granted(await t.trpc().auth.apple.mutate({ identityToken: await appleToken(nonce), nonce }));
    expect(grant.user.role).toBe('member');
  });
});

describe('linking an existing password account (issue #21)', () => {
  it('a verified non-Gmail address without hd does not link: 403, nothing linked, the owner is mailed a confirmation link', async () => {
    const member = await memberWithEmail(`${unique('own')}@example.org`);
    const sub = unique('lapsed');
    const res = await google(await googleToken({ email: member.email, sub }));
    expectRefused(res, 403, 'forbidden');
    expect(res.body.error.message).toMatch(/mailed a link/);
    expect(await identitiesOf(member.id)).toHaveLength(0);
    await t.settleMail();
    const [mail] = t.mailer.to(member.email);
    expect(mail!.subject).toMatch(/Confirm signing in with Google/);
    expect(mail!.text).toContain(t.config.MAGIC_LINK_URL);
    // Until the owner opens it, the identity signs in to nothing (another try mails again).
    expectRefused(await google(await googleToken({ email: member.email, sub })), 403, 'forbidden');
    // The password still works, and the same through the typed client.
    expect(
      (await t.request('POST', '/api/auth/login', { body: { email: member.email, password: member.password } })).status,
    ).toBe(200);
    await expect(
      t.trpc().auth.google.mutate({ idToken: await googleToken({ email: member.email, sub }) }),
    ).rejects.toMatchObject({ data: { httpStatus: 403, code: 'forbidden' } });
  });

  it('opening the mailed link signs the owner in and links the identity; the owner gets a notice', async () => {
    const member = await memberWithEmail(`${unique('confirm')}@example.org`);
    const sub = unique('confirmed');
    expectRefused(await google(await googleToken({ email: member.email, sub })), 403, 'forbidden');
    await t.settleMail();
    const opened = await verifyLink(await lastLinkToken(member.email, 'Confirm signing in with Google'));
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body.user._id).toBe(member.id);
    const links = await identitiesOf(member.id);
    expect(links.map((l) => [l.provider, l.subject])).toEqual([['google', sub]]);
    await t.settleMail();
    const notice = await t.mailer.waitForMail(member.email, 'Google was linked to your account');
    // The notice names no Google account.
    expect(notice.text).not.toContain(sub);
    const later = await google(await googleToken({ email: `${unique('moved')}@example.org`, sub }));
    expect(later.status, later.text).toBe(200);
    expect(later.body.user._id).toBe(member.id);
  });

  it('a German account gets the confirmation and the notice in German, the time in its zone', async () => {
    const member = await memberWithEmail(`${unique('deutsch')}@example.org`);
    const settings = await t.request('PATCH', '/api/me', {
      token: member.token,
      body: { locale: 'de', timeZone: 'Europe/Berlin' },
    });
    expect(settings.status).toBe(200);
    expectRefused(await google(await googleToken({ email: member.email, sub: unique('de') })), 403, 'forbidden');
    await t.settleMail();
    const confirmation = await t.mailer.waitForMail(member.email, 'Anmeldung mit Google bestätigen');
    expect(confirmation.text).toContain('Jemand hat versucht, sich mit Google und dieser E-Mail-Adresse');
    expect(confirmation.text).toContain('nach 15 Minuten ab');
    expect((await verifyLink(linkIn(confirmation).searchParams.get('token')!)).status).toBe(200);
    await t.settleMail();
    const notice = await t.mailer.waitForMail(member.email, 'Google wurde mit deinem Konto verknüpft');
    const berlin = new Intl.DateTimeFormat('de', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Europe/Berlin',
    }).format(t.clock.now());
    expect(notice.text).toContain(`Am ${berlin} (Europe/Berlin) wurde ein Google-Konto mit deinem Konto verknüpft.`);
  });

  it('a plain magic link requested meanwhile links nothing', async () => {
    const member = await memberWithEmail(`${unique('plain')}@example.org`);
    expectRefused(await google(await googleToken({ email: member.email })), 403, 'forbidden');
    // The confirmation and the plain link may arrive in either order: the plain one is told by its subject.
    await t.request('POST', '/api/auth/magic-link', { body: { email: member.email } });
    expect((await verifyLink(await lastLinkToken(member.email, SIGN_IN_SUBJECT))).status).toBe(200);
    expect(await identitiesOf(member.id)).toHaveLength(0);
  });

  it('Gmail and a matching hd still link at once, and the owner is mailed a notice', async () => {
    const gmail = await memberWithEmail(`${unique('gl')}@gmail.com`);
    const viaGmail = await google(await googleToken({ email: gmail.email }));
    expect(viaGmail.status, viaGmail.text).toBe(200);
    expect(viaGmail.body.user._id).toBe(gmail.id);
    const workspace = await memberWithEmail(`${unique('ws')}@campaign.example`);
    const viaHd = await google(await googleToken({ email: workspace.email, hd: 'campaign.example' }));
    expect(viaHd.status, viaHd.text).toBe(200);
    expect(viaHd.body.user._id).toBe(workspace.id);
    await t.settleMail();
    for (const m of [gmail, workspace]) {
      expect(await identitiesOf(m.id)).toHaveLength(1);
      expect(t.mailer.to(m.email).map((mail) => mail.subject)).toEqual(['Google was linked to your account']);
    }
  });

  it('an account that already has a Google identity answers 409 and is mailed nothing', async () => {
    const member = await memberWithEmail(`${unique('has')}@example.org`);
    expectRefused(await google(await googleToken({ email: member.email })), 403, 'forbidden');
    await t.settleMail();
    expect((await verifyLink(await lastLinkToken(member.email, 'Confirm signing in with Google'))).status).toBe(200);
    await t.settleMail();
    const mails = t.mailer.to(member.email).length;
    expectRefused(await google(await googleToken({ email: member.email })), 409, 'conflict');
    await t.settleMail();
    expect(t.mailer.to(member.email)).toHaveLength(mails);
  });

  it('an hd naming another domain than the address vouches for nothing', async () => {
    const member = await memberWithEmail(`${unique('hdx')}@example.org`);
    expectRefused(await google(await googleToken({ email: member.email, hd: 'attacker.example' })), 403, 'forbidden');
    expect(await identitiesOf(member.id)).toHaveLength(0);
  });

  it('a new account is still created from a non-Gmail address, without a notice', async () => {
    const email = `${unique('fresh')}@example.org`;
    const res = await google(await googleToken({ email }));
    expect(res.status, res.text).toBe(200);
    await t.settleMail();
    expect(t.mailer.to(email)).toHaveLength(0);
  });

  it('an aud list is accepted only with one of our client ids in azp', async () => {
    const both = [GOOGLE_AUD, 'other-client.apps.googleusercontent.com'];
    expectRefused(await google(await googleToken({ aud: both })));
    expectRefused(await google(await googleToken({ aud: both, azp: 'other-client.apps.googleusercontent.com' })));
    expect((await google(await googleToken({ aud: both, azp: GOOGLE_AUD }))).status).toBe(200);
    // A single audience needs no azp, and an Android client's azp differs from it.
    expect((await google(await googleToken({ azp: 'android-client.apps.googleusercontent.com' }))).status).toBe(200);
    const nonce = unique('n');
    expectRefused(await apple(await appleToken(nonce, { aud: [APPLE_AUD, 'org.example.stranger'] }), nonce));
  });

  it('Apple: an address Apple does not run needs the mailed confirmation; the private relay and iCloud link at once', async () => {
    const elsewhere = await memberWithEmail(`${unique('ae')}@example.org`);
    const nonce = unique('n');
    expectRefused(await apple(await appleToken(nonce, { email: elsewhere.email }), nonce), 403, 'forbidden');
    expect(await identitiesOf(elsewhere.id)).toHaveLength(0);
    for (const domain of ['privaterelay.appleid.com', 'icloud.com']) {
      const member = await memberWithEmail(`${unique('ar')}@${domain}`);
      const res = await apple(await appleToken(nonce, { email: member.email }), nonce);
      expect(res.status, res.text).toBe(200);
      expect(res.body.user._id).toBe(member.id);
    }
    await t.settleMail();
    await t.mailer.waitForMail(elsewhere.email, 'Confirm signing in with Apple');
  });

  it('the confirmation mails count against the magic-link limits of the address', async () => {
    const member = await memberWithEmail(`${unique('flood')}@example.org`);
    const ip = uniqueIp();
    for (let i = 0; i < 6; i++) {
      const idToken = await googleToken({ email: member.email });
      expectRefused(await t.request('POST', '/api/auth/google', { ip, body: { idToken } }), 403, 'forbidden');
    }
    await t.settleMail();
    expect(t.mailer.to(member.email)).toHaveLength(t.config.RATE_LIMIT_MAGIC_LINK_PER_ACCOUNT);
  });
});

describe('an account with a second factor (issue #25)', () => {
  it('Google and Apple sign-ins stop at a ticket, never a session; the code trades it for one', async () => {
    const member = await memberWithEmail(`${unique('tf')}@gmail.com`);
    const { secret } = await enrolTotp(t, member);
    const nonce = unique('n');
    const googleSub = unique('google-sub');
    const viaGoogle = await google(await googleToken({ email: member.email, sub: googleSub }));
    const viaApple = await apple(
      await appleToken(nonce, { email: `${unique('relay')}@privaterelay.appleid.com` }),
      nonce,
    );
    expect(viaApple.status, viaApple.text).toBe(200); // another account: no second factor, a session
    expect(viaApple.body).toHaveProperty('token');
    // Apple for this very account: a relay-less address links after the mailed confirmation.
    const sub = unique('apple-sub');
    const asked = await apple(await appleToken(nonce, { email: member.email, sub }), nonce);
    expectRefused(asked, 403, 'forbidden');
    await t.settleMail();
    const confirm = await verifyLink(await lastLinkToken(member.email, 'Confirm signing in with Apple'));
    expect(confirm.status, confirm.text).toBe(200);
    expect(confirm.body).not.toHaveProperty('token'); // the confirmation link is a first factor too
    const appleAgain = await apple(await appleToken(nonce, { email: member.email, sub }), nonce);
    for (const res of [viaGoogle, appleAgain]) {
      expect(res.status, res.text).toBe(200);
      expect(res.body).not.toHaveProperty('token');
      expect(res.body).not.toHaveProperty('user');
      expect(res.body.secondFactor.methods).toEqual(['totp', 'recovery']);
    }
    t.clock.advance(30_000);
    const traded = await t.request('POST', '/api/auth/second-factor', {
      body: { ticket: viaGoogle.body.secondFactor.ticket, code: totpCode(t, secret) },
    });
    expect(traded.status, traded.text).toBe(200);
    expect(traded.body.user._id).toBe(member.id);
    const viaTrpc = await t
      .trpc()
      .auth.google.mutate({ idToken: await googleToken({ email: member.email, sub: googleSub }) });
    expect('secondFactor' in viaTrpc).toBe(true);
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
