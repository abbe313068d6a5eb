// The inboxes' rate limits and blocklist, checked before Fedify's signature work
// (server/domains/federation/inbox-guard.ts, docs/federation.md "Rate limits"): per remote
// instance (the signature's keyId host, else the body's actor host) and per address, in the
// shared rate_limits table; over a limit 429 with Retry-After and nothing processed.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimedHost, INBOX_WINDOW_SECONDS } from '../../server/domains/federation/inbox-guard.js';
import { createAdmin, groveWithOrganizer } from '../events/helpers.js';
import { createTestApp, unique, uniqueIp, type ApiResponse, type TestApp } from '../setup/harness.js';

const PUBLIC_URL = 'http://127.0.0.1:39104';
const PER_HOST = 3;
const PER_IP = 2 * PER_HOST;
let t: TestApp;
let inbox: string;
beforeAll(async () => {
  t = await createTestApp({
    FEDERATION: 'on',
    FEDERATION_ALLOW_LOOPBACK: '1',
    PUBLIC_URL,
    RATE_LIMIT_FEDERATION_INBOX_PER_HOST: String(PER_HOST),
  });
  const { grove } = await groveWithOrganizer(t);
  inbox = `/ap/actors/${grove._id}/inbox`;
});
afterAll(() => t.close());

const follow = (actorHost: string) =>
  JSON.stringify({
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `https://${actorHost}/follows/${unique('f')}`,
    type: 'Follow',
    actor: `https://${actorHost}/users/mallory`,
    object: `${PUBLIC_URL}${inbox.replace(/\/inbox$/, '')}`,
  });

const post = (path: string, body: string, options: { ip?: string; keyHost?: string } = {}) =>
  t.request('POST', path, {
    ip: options.ip ?? uniqueIp(),
    headers: {
      'content-type': 'application/activity+json',
      // A signature naming its key, without the Date and Digest it covers: Fedify refuses it
      // before fetching any key (these hosts do not exist).
      ...(options.keyHost
        ? {
            signature: `keyId="https://${options.keyHost}/users/mallory#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="AAAA"`,
          }
        : {}),
    },
    rawBody: body,
  });

function expect429(res: ApiResponse) {
  expect(res.status).toBe(429);
  expect(res.body.error.code).toBe('rate_limited');
  const wait = Number(res.headers.get('retry-after'));
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(INBOX_WINDOW_SECONDS);
}

/** Followers recorded from `host` or under it (none may ever be: every request here is refused or dropped). */
const followerCount = async (host: string) =>
  (
    await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from federation_followers where host = ${host} or host like ${`%.${host}`}`,
    )
  )[0]!.n;

describe('the claimed host', () => {
  it("is the signature key's host, else the body actor's", () => {
    const host = (headers: Record<string, string>, body: string) => claimedHost(new Headers(headers), body);
    expect(host({ signature: 'keyId="https://A.example/k#main",x="y"' }, '{}')).toBe('a.example');
    expect(host({ 'signature-input': 'sig1=("@method");keyid="https://b.example/k"' }, '{}')).toBe('b.example');
    expect(host({}, '{"actor":"https://c.example/u"}')).toBe('c.example');
    expect(host({}, '{"actor":{"id":"https://d.example/u"}}')).toBe('d.example');
    for (const body of ['{"actor":"ftp://e.example/u"}', '{"actor":42}', 'not json', 'null', '[]', ''])
      expect(host({}, body), body).toBeNull();
  });
});

describe('per-instance limit', () => {
  it('lets N requests of one instance through, then answers 429 on both inboxes; another instance is unaffected', async () => {
    const host = `${unique('h')}.example`;
    for (let i = 0; i < PER_HOST; i++) expect((await post(inbox, follow(host))).status).toBe(401);
    expect429(await post(inbox, follow(host)));
    expect429(await post('/ap/inbox', follow(host)));
    expect((await post(inbox, follow(`other.${host}`))).status).toBe(401);
    expect(await followerCount(host)).toBe(0);
    t.clock.advance((INBOX_WINDOW_SECONDS + 1) * 1000);
    expect((await post(inbox, follow(host))).status).toBe(401);
  });

  it("counts by the signature's key host, whatever the body claims", async () => {
    const keyHost = `${unique('k')}.example`;
    for (let i = 0; i < PER_HOST; i++)
      expect((await post(inbox, follow(`${unique('b')}.example`), { keyHost })).status).toBe(401);
    expect429(await post(inbox, follow(`${unique('b')}.example`), { keyHost }));
  });
});

describe('per-address limit', () => {
  it('refuses one address past its limit, whatever instances it names', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < PER_IP; i++)
      expect((await post('/ap/inbox', follow(`${unique('p')}.example`), { ip })).status).toBe(401);
    expect429(await post('/ap/inbox', follow(`${unique('p')}.example`), { ip }));
    expect429(await post('/ap/inbox', 'not even json', { ip }));
    expect((await post('/ap/inbox', follow(`${unique('p')}.example`))).status).toBe(401);
  });
});

describe('blocked instances', () => {
  it('get 202 and nothing is done, before any signature work', async () => {
    const admin = await createAdmin(t);
    const host = `${unique('x')}.example`;
    expect(
      (await t.request('POST', '/api/admin/federation/blocked-hosts', { token: admin.token, body: { host } })).status,
    ).toBe(201);
    const signed = await post(inbox, follow(`social.${host}`), { keyHost: `social.${host}` });
    expect(signed.status).toBe(202);
    expect((await post('/ap/inbox', follow(host))).status).toBe(202);
    expect(await followerCount(host)).toBe(0);
  });
});

describe('body size', () => {
  it('refuses a body over MAX_BODY_BYTES with 413', async () => {
    const huge = JSON.stringify({ type: 'Note', content: 'x'.repeat(t.config.MAX_BODY_BYTES) });
    const res = await post('/ap/inbox', huge);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
  });
});
