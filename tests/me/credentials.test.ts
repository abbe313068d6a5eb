// Credentials that outlive a password change: the calendar feed link is listed, expires, and dies
// with a password or email change, "sign out everywhere else" and panic.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, uniqueIp, type TestApp, type TestMember } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const pathOf = (url: string) => new URL(url).pathname;

async function login(m: TestMember, password = m.password): Promise<string> {
  const res = await t.request('POST', '/api/auth/login', { body: { email: m.email, password } });
  expect(res.status).toBe(200);
  return res.body.token;
}

async function feedFor(m: TestMember): Promise<string> {
  const res = await t.request('POST', '/api/me/calendar-token', { token: m.token });
  expect(res.status).toBe(201);
  expect((await t.request('GET', pathOf(res.body.url))).status).toBe(200);
  return pathOf(res.body.url);
}

describe('the calendar feed link dies with the credentials', () => {
  it('a password change revokes the feed link and every other session (happy + security)', async () => {
    const m = await createMember(t);
    const feed = await feedFor(m);
    const other = await login(m);
    const res = await t.request('PATCH', '/api/me', {
      token: m.token,
      body: { newPassword: 'a fresh and unusual passphrase', currentPassword: m.password },
    });
    expect(res.status).toBe(200);
    const gone = await t.request('GET', feed);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('not_found');
    expect((await t.request('GET', '/api/me', { token: other })).status).toBe(401);
    expect((await t.request('GET', '/api/me', { token: m.token })).status).toBe(200);
  });

  it('an email change also signs out the other sessions and revokes the feed link', async () => {
    const m = await createMember(t);
    const feed = await feedFor(m);
    const other = await login(m);
    const res = await t.request('PATCH', '/api/me', {
      token: m.token,
      body: { email: `${m.handle}.moved@example.test`, currentPassword: m.password },
    });
    expect(res.status).toBe(200);
    expect((await t.request('GET', feed)).status).toBe(404);
    expect((await t.request('GET', '/api/me', { token: other })).status).toBe(401);
    // A handle change is not a credential change: nothing is revoked.
    const feed2 = await feedFor(m);
    const third = await login({ ...m, email: `${m.handle}.moved@example.test` });
    await t.request('PATCH', '/api/me', { token: m.token, body: { handle: `${m.handle}x`.slice(0, 30) } });
    expect((await t.request('GET', feed2)).status).toBe(200);
    expect((await t.request('GET', '/api/me', { token: third })).status).toBe(200);
  });

  it('expires CALENDAR_FEED_TTL_DAYS after creation; creating it again renews it', async () => {
    const app = await createTestApp({ CALENDAR_FEED_TTL_DAYS: '10' });
    try {
      const m = await createMember(app);
      const first = await app.request('POST', '/api/me/calendar-token', { token: m.token });
      expect(Date.parse(first.body.expiresAt) - Date.parse(first.body.createdAt)).toBe(10 * 86_400_000);
      app.clock.advance(10 * 86_400_000 - 60_000);
      expect((await app.request('GET', pathOf(first.body.url))).status).toBe(200);
      app.clock.advance(120_000);
      expect((await app.request('GET', pathOf(first.body.url))).status).toBe(404);
      expect((await app.request('GET', '/api/me/credentials', { token: (await relogin(app, m)).token })).body).toEqual({
        sessions: 2,
        calendarFeed: null,
      });
      const renewed = await app.trpc(m.token).events.createCalendarToken.mutate({});
      expect(Date.parse(renewed.expiresAt)).toBe(app.clock.now().getTime() + 10 * 86_400_000);
      expect((await app.request('GET', pathOf(renewed.url))).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

async function relogin(app: TestApp, m: TestMember) {
  const res = await app.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } });
  return res.body as { token: string };
}

describe('GET /api/me/credentials', () => {
  it('lists the live sessions and the feed link with its expiry (REST + tRPC)', async () => {
    const m = await createMember(t);
    expect((await t.request('GET', '/api/me/credentials', { token: m.token })).body).toEqual({
      sessions: 1,
      calendarFeed: null,
    });
    await login(m);
    const created = await t.request('POST', '/api/me/calendar-token', { token: m.token });
    const res = await t.request('GET', '/api/me/credentials', { token: m.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      sessions: 2,
      calendarFeed: { createdAt: created.body.createdAt, expiresAt: created.body.expiresAt },
    });
    expect(JSON.stringify(res.body)).not.toContain(pathOf(created.body.url).slice(14, 66));
    expect(await t.trpc(m.token).me.listCredentials.query({})).toEqual(res.body);
    expect((await t.request('GET', '/api/me/credentials')).status).toBe(401);
  });
});

describe('POST /api/me/sessions/revoke-others', () => {
  it('signs out everywhere else and revokes the feed link; this session stays (happy + security)', async () => {
    const m = await createMember(t);
    const feed = await feedFor(m);
    const others = [await login(m), await login(m)];
    const res = await t.request('POST', '/api/me/sessions/revoke-others', { token: m.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, revokedSessions: 2 });
    for (const token of others) expect((await t.request('GET', '/api/me', { token })).status).toBe(401);
    expect((await t.request('GET', feed)).status).toBe(404);
    expect((await t.request('GET', '/api/me', { token: m.token })).status).toBe(200);
    // Another member is untouched.
    const b = await createMember(t);
    await t.request('POST', '/api/me/sessions/revoke-others', { token: m.token });
    expect((await t.request('GET', '/api/me', { token: b.token })).status).toBe(200);
    expect(await t.trpc(m.token).me.revokeOtherSessions.mutate({})).toEqual({ ok: true, revokedSessions: 0 });
    expect((await t.request('POST', '/api/me/sessions/revoke-others')).status).toBe(401);
  });
});

describe('POST /api/me/panic', () => {
  it('revokes every session, this one too, and the feed link, in one call; no password needed', async () => {
    const m = await createMember(t);
    const feed = await feedFor(m);
    const thief = await login(m);
    const res = await t.request('POST', '/api/me/panic', { token: m.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, revokedSessions: 2, accountDeleted: false });
    expect((await t.request('GET', '/api/me', { token: thief })).status).toBe(401);
    expect((await t.request('GET', '/api/me', { token: m.token })).status).toBe(401);
    expect((await t.request('GET', feed)).status).toBe(404);
    // The owner signs in again with the password.
    const fresh = await login(m);
    expect((await t.request('GET', '/api/me', { token: fresh })).status).toBe(200);
  });

  it('deleting the account needs the current password (400 missing, 403 wrong, rate-limited)', async () => {
    const m = await createMember(t);
    const missing = await t.request('POST', '/api/me/panic', { token: m.token, body: { deleteAccount: true } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('validation_failed');
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (
          await t.request('POST', '/api/me/panic', {
            token: m.token,
            ip,
            body: { deleteAccount: true, currentPassword: `wrong ${i}` },
          })
        ).status,
      );
    expect(statuses).toEqual([...Array(10).fill(403), 429]);
    expect((await t.request('GET', '/api/me', { token: m.token })).status).toBe(200);
    const done = await t.trpc(m.token).me.panic.mutate({ deleteAccount: true, currentPassword: m.password });
    expect(done).toEqual({ ok: true, revokedSessions: 1, accountDeleted: true });
    expect((await t.request('GET', '/api/me', { token: m.token })).status).toBe(401);
    const gone = await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } });
    expect(gone.status).toBe(401);
  });

  it('rejects unknown fields and anonymous callers (error)', async () => {
    const m = await createMember(t);
    expect((await t.request('POST', '/api/me/panic', { token: m.token, body: { everything: true } })).status).toBe(400);
    expect((await t.request('POST', '/api/me/panic', { body: {} })).status).toBe(401);
    expect((await t.request('GET', '/api/me', { token: m.token })).status).toBe(200);
  });
});
