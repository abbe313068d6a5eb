// Push registrations: Web Push subscriptions and native tokens, owner-only, bounded, never echoed;
// endpoint rules (allowed hosts, https in production); the public VAPID key.
import { sql } from 'drizzle-orm';
import webPush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { startTestPushService, type TestPushService, webPushTestConfig } from './push-service.js';

let t: TestApp;
let push: TestPushService;
const vapid = webPush.generateVAPIDKeys();
beforeAll(async () => {
  t = await createTestApp(webPushTestConfig(vapid, '127.0.0.1,push.example.net'));
  push = await startTestPushService();
});
afterAll(async () => {
  await push.close();
  await t.close();
});

const web = (subscription: object) => ({ platform: 'web', subscription });

async function registrationsOf(userId: string) {
  return t.deps.database.rows<{ platform: string; address: string }>(
    sql`select platform, address from push_subscriptions where user_id = ${userId} order by id`,
  );
}

describe('GET /api/push-tokens/vapid-public-key', () => {
  it('answers the configured public key to anyone (REST + typed client)', async () => {
    const res = await t.request('GET', '/api/push-tokens/vapid-public-key');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: true, publicKey: vapid.publicKey });
    expect(await t.trpc().pushTokens.getVapidPublicKey.query({})).toEqual({
      enabled: true,
      publicKey: vapid.publicKey,
    });
    expect(res.text).not.toContain(vapid.privateKey);
  });
});

describe('POST /api/push-tokens', () => {
  it('registers a Web Push subscription and never echoes the endpoint or keys', async () => {
    const ana = await createMember(t);
    const subscription = push.subscribe();
    const res = await t.request('POST', '/api/push-tokens', {
      token: ana.token,
      body: web({ ...subscription, expirationTime: null }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ _id: expect.any(String), platform: 'web', createdAt: t.clock.now().toISOString() });
    expect(res.text).not.toContain(subscription.endpoint);
    expect(res.text).not.toContain(subscription.keys.auth);
    expect(await registrationsOf(ana.id)).toEqual([{ platform: 'web', address: subscription.endpoint }]);
    const list = await t.request('GET', '/api/push-tokens', { token: ana.token });
    expect(list.body).toEqual({ items: [res.body], nextCursor: null });
    expect(list.text).not.toContain(subscription.endpoint);
  });

  it('registers native tokens through the typed client (stored for a deployment-configured sender)', async () => {
    const ana = await createMember(t);
    const ios = await t
      .trpc(ana.token)
      .pushTokens.register.mutate({ platform: 'ios', token: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' });
    const android = await t
      .trpc(ana.token)
      .pushTokens.register.mutate({ platform: 'android', token: 'fcm:dGhpcyBpcyBhIGRldmljZQ' });
    expect([ios.platform, android.platform]).toEqual(['ios', 'android']);
    const page = await t.trpc(ana.token).pushTokens.list.query({});
    expect(page.items.map((i) => i._id)).toEqual([ios._id, android._id]);
  });

  it('registering the same device again refreshes it; another member registering it takes it over', async () => {
    const [ana, ben] = await Promise.all([createMember(t), createMember(t)]);
    const subscription = push.subscribe();
    const first = await t.request('POST', '/api/push-tokens', { token: ana.token, body: web(subscription) });
    t.clock.advance(1000);
    const again = await t.request('POST', '/api/push-tokens', { token: ana.token, body: web(subscription) });
    expect(again.status).toBe(201);
    expect(again.body._id).not.toBe(first.body._id);
    expect(await registrationsOf(ana.id)).toHaveLength(1);
    // The phone changes hands: it must no longer receive ana's notifications.
    expect((await t.request('POST', '/api/push-tokens', { token: ben.token, body: web(subscription) })).status).toBe(
      201,
    );
    expect(await registrationsOf(ana.id)).toEqual([]);
    expect(await registrationsOf(ben.id)).toHaveLength(1);
  });

  it('keeps at most 10 registrations per member, dropping the oldest', async () => {
    const ana = await createMember(t);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await t.request('POST', '/api/push-tokens', {
        token: ana.token,
        body: { platform: 'android', token: `fcm:device${i}token${ana.id.slice(0, 8)}` },
      });
      ids.push(res.body._id);
    }
    const page = await t.trpc(ana.token).pushTokens.list.query({ limit: 100 });
    expect(page.items.map((i) => i._id)).toEqual(ids.slice(2));
  });

  it('refuses endpoints outside the allowed push services, with credentials, or malformed keys (400)', async () => {
    const ana = await createMember(t);
    const good = push.subscribe();
    const bodies = [
      web({ ...good, endpoint: 'https://169.254.169.254/latest/meta-data' }),
      web({ ...good, endpoint: 'https://internal.example.org/push/1' }),
      web({ ...good, endpoint: 'https://push.example.net.evil.org/x' }),
      web({ ...good, endpoint: 'https://user:pw@push.example.net/x' }),
      web({ ...good, endpoint: 'ftp://push.example.net/x' }),
      web({ ...good, keys: { ...good.keys, p256dh: 'short' } }),
      web({ ...good, keys: { ...good.keys, auth: good.keys.p256dh } }),
      web({ endpoint: good.endpoint }),
      { platform: 'ios', token: 'has spaces in it' },
      { platform: 'web', token: 'abcdefghijk' },
      { platform: 'pager', token: 'abcdefghijk' },
    ];
    for (const body of bodies) {
      const res = await t.request('POST', '/api/push-tokens', { token: ana.token, body });
      expect({ body, status: res.status, code: res.body.error?.code }).toEqual({
        body,
        status: 400,
        code: 'validation_failed',
      });
    }
    expect(await registrationsOf(ana.id)).toEqual([]);
    // A subdomain of an allowed host is fine.
    const sub = await t.request('POST', '/api/push-tokens', {
      token: ana.token,
      body: web({ ...good, endpoint: 'https://eu.push.example.net/send/abc' }),
    });
    expect(sub.status).toBe(201);
    expect((await t.request('POST', '/api/push-tokens', { body: web(good) })).status).toBe(401);
  });

  it('requires https in production, and answers 501 for web subscriptions without VAPID keys there', async () => {
    const production = await createTestApp({
      NODE_ENV: 'production',
      RATE_LIMIT_KEY_SECRET: 'x'.repeat(40),
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: 'https://example.org/contact',
      WEB_PUSH_ALLOWED_HOSTS: '127.0.0.1',
    });
    const disabled = await createTestApp({ NODE_ENV: 'production', RATE_LIMIT_KEY_SECRET: 'y'.repeat(40) });
    try {
      const ana = await createMember(production);
      const plain = await production.request('POST', '/api/push-tokens', {
        token: ana.token,
        body: web(push.subscribe()),
      });
      expect(plain.status).toBe(400);
      expect(plain.body.error.message).toMatch(/https/);

      const ben = await createMember(disabled);
      const key = await disabled.request('GET', '/api/push-tokens/vapid-public-key');
      expect(key.body).toEqual({ enabled: false, publicKey: null });
      const refused = await disabled.request('POST', '/api/push-tokens', {
        token: ben.token,
        body: web({ ...push.subscribe(), endpoint: 'https://fcm.googleapis.com/fcm/send/abc' }),
      });
      expect(refused.status).toBe(501);
      expect(refused.body.error.code).toBe('not_implemented');
      // Native tokens are still stored for a deployment-configured sender.
      const native = await disabled.request('POST', '/api/push-tokens', {
        token: ben.token,
        body: { platform: 'ios', token: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' },
      });
      expect(native.status).toBe(201);
    } finally {
      await production.close();
      await disabled.close();
    }
  });
});

describe('DELETE /api/push-tokens', () => {
  it('removes by token or by id, only the caller’s own, idempotently', async () => {
    const [ana, eve] = await Promise.all([createMember(t), createMember(t)]);
    const one = push.subscribe();
    const two = push.subscribe();
    await t.request('POST', '/api/push-tokens', { token: ana.token, body: web(one) });
    const second = await t.request('POST', '/api/push-tokens', { token: ana.token, body: web(two) });
    // Eve names ana's registrations: nothing happens.
    expect(
      (await t.request('DELETE', `/api/push-tokens?token=${encodeURIComponent(one.endpoint)}`, { token: eve.token }))
        .status,
    ).toBe(200);
    expect((await t.request('DELETE', `/api/push-tokens?id=${second.body._id}`, { token: eve.token })).status).toBe(
      200,
    );
    expect(await registrationsOf(ana.id)).toHaveLength(2);

    const res = await t.request('DELETE', `/api/push-tokens?token=${encodeURIComponent(one.endpoint)}`, {
      token: ana.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(await t.trpc(ana.token).pushTokens.delete.mutate({ id: second.body._id })).toEqual({ ok: true });
    expect(await registrationsOf(ana.id)).toEqual([]);
    expect((await t.request('DELETE', `/api/push-tokens?id=${second.body._id}`, { token: ana.token })).status).toBe(
      200,
    );
  });

  it('needs exactly one of token and id (400) and a session (401)', async () => {
    const ana = await createMember(t);
    expect((await t.request('DELETE', '/api/push-tokens', { token: ana.token })).status).toBe(400);
    expect((await t.request('DELETE', `/api/push-tokens?token=x&id=${ana.id}`, { token: ana.token })).status).toBe(400);
    expect((await t.request('DELETE', '/api/push-tokens?id=nope', { token: ana.token })).status).toBe(400);
    expect((await t.request('DELETE', '/api/push-tokens?token=x')).status).toBe(401);
  });

  it('registrations go with the account', async () => {
    const ana = await createMember(t);
    await t.request('POST', '/api/push-tokens', { token: ana.token, body: web(push.subscribe()) });
    expect((await t.request('DELETE', '/api/me', { token: ana.token })).status).toBe(200);
    expect(await registrationsOf(ana.id)).toEqual([]);
  });
});
