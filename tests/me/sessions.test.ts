// GET /api/me/sessions, DELETE /api/me/sessions/:id and POST /api/auth/logout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function login(m: TestMember): Promise<string> {
  const res = await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } });
  expect(res.status).toBe(200);
  return res.body.token;
}

describe('GET /api/me/sessions', () => {
  it('pages through every live session with a cursor, marking the current one (happy)', async () => {
    const m = await createMember(t);
    for (let i = 0; i < 4; i++) await login(m);
    const seen: { _id: string; id: string; current: boolean; createdAt: string; expiresAt: string }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: any } = await t.request(
        'GET',
        `/api/me/sessions?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        { token: m.token },
      );
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.items);
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(5);
    expect(new Set(seen.map((s) => s._id)).size).toBe(5);
    expect(seen.filter((s) => s.current)).toHaveLength(1);
    for (const s of seen) {
      expect(s.id).toBe(s._id);
      expect(Object.keys(s).sort()).toEqual([
        '_id',
        'browser',
        'browserName',
        'createdAt',
        'current',
        'expiresAt',
        'firstSeenOn',
        'id',
        'lastSeenOn',
        'osName',
      ]);
      const days = (Date.parse(s.expiresAt) - Date.parse(s.createdAt)) / 86_400_000;
      expect(days).toBe(t.config.SESSION_TTL_DAYS);
    }
    // Ordered by id (creation order).
    expect(seen.map((s) => s._id)).toEqual([...seen.map((s) => s._id)].sort());
  });

  it('answers 400 invalid_cursor for a cursor that does not decode (error)', async () => {
    const m = await createMember(t);
    // 'AAAA…' (22) decodes to the all-zero UUID: well-formed, but never an id of ours.
    for (const bad of ['nonsense', 'AAAAAAAAAAAAAAAAAAAAA', 'AAAAAAAAAAAAAAAAAAAAAA', '%00%01', 'x'.repeat(64)]) {
      const res = await t.request('GET', `/api/me/sessions?cursor=${bad}`, { token: m.token });
      expect(res.status, bad).toBe(400);
      expect(res.body.error.code).toBe('invalid_cursor');
    }
    const limit = await t.request('GET', '/api/me/sessions?limit=0', { token: m.token });
    expect(limit.status).toBe(400);
    expect(limit.body.error.code).toBe('validation_failed');
  });

  it("lists only the caller's sessions and needs a session (security)", async () => {
    const a = await createMember(t);
    const b = await createMember(t);
    const res = await t.request('GET', '/api/me/sessions', { token: a.token });
    const bSessions = await t.request('GET', '/api/me/sessions', { token: b.token });
    const aIds = res.body.items.map((s: { _id: string }) => s._id);
    expect(aIds).toHaveLength(1);
    expect(aIds).not.toContain(bSessions.body.items[0]._id);
    expect(JSON.stringify(res.body)).not.toContain(a.token);
    const anon = await t.request('GET', '/api/me/sessions');
    expect(anon.status).toBe(401);
    expect(anon.body.error.code).toBe('unauthorized');
  });

  it('works through the typed tRPC client', async () => {
    const m = await createMember(t);
    await login(m);
    const page = await t.trpc(m.token).me.listSessions.query({ limit: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.nextCursor).toEqual(expect.any(String));
    const next = await t.trpc(m.token).me.listSessions.query({ limit: 1, cursor: page.nextCursor! });
    expect(next.items).toHaveLength(1);
    expect(next.nextCursor).toBeNull();
    await expect(t.trpc(m.token).me.listSessions.query({ cursor: 'bad' })).rejects.toMatchObject({
      data: { code: 'invalid_cursor', httpStatus: 400 },
    });
  });
});

describe('DELETE /api/me/sessions/:id', () => {
  it('revokes another of my sessions, effective on the very next request (happy + security)', async () => {
    const m = await createMember(t);
    const other = await login(m);
    const list = await t.request('GET', '/api/me/sessions', { token: m.token });
    const target = list.body.items.find((s: { current: boolean }) => !s.current);
    const res = await t.request('DELETE', `/api/me/sessions/${target._id}`, { token: m.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const next = await t.request('GET', '/api/me', { token: other });
    expect(next.status).toBe(401);
    expect(next.body.error.code).toBe('unauthorized');
    expect((await t.request('GET', '/api/me', { token: m.token })).status).toBe(200);
    // Revoking it again: it is gone.
    expect((await t.request('DELETE', `/api/me/sessions/${target._id}`, { token: m.token })).status).toBe(404);
  });

  it('can revoke the current session', async () => {
    const m = await createMember(t);
    const [current] = (await t.request('GET', '/api/me/sessions', { token: m.token })).body.items;
    expect((await t.request('DELETE', `/api/me/sessions/${current._id}`, { token: m.token })).status).toBe(200);
    expect((await t.request('GET', '/api/me', { token: m.token })).status).toBe(401);
  });

  it("answers 404 for another member's session and leaves it alive (security)", async () => {
    const a = await createMember(t);
    const b = await createMember(t);
    const [bSession] = (await t.request('GET', '/api/me/sessions', { token: b.token })).body.items;
    const res = await t.request('DELETE', `/api/me/sessions/${bSession._id}`, { token: a.token });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    // Same answer as an id that does not exist at all.
    const unknown = await t.request('DELETE', '/api/me/sessions/01900000-0000-7000-8000-000000000000', {
      token: a.token,
    });
    expect(unknown.text).toBe(res.text);
    expect((await t.request('GET', '/api/me', { token: b.token })).status).toBe(200);
  });

  it('rejects a malformed id with 400 and an anonymous caller with 401 (error)', async () => {
    const m = await createMember(t);
    const bad = await t.request('DELETE', '/api/me/sessions/not-a-uuid', { token: m.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
    expect((await t.request('DELETE', '/api/me/sessions/01900000-0000-7000-8000-000000000000')).status).toBe(401);
  });

  it('works through the typed tRPC client', async () => {
    const m = await createMember(t);
    const other = await login(m);
    const { items } = await t.trpc(m.token).me.listSessions.query({});
    const target = items.find((s) => !s.current)!;
    expect(await t.trpc(m.token).me.revokeSession.mutate({ id: target.id })).toEqual({ ok: true });
    await expect(t.trpc(other).me.get.query({})).rejects.toMatchObject({
      data: { code: 'unauthorized', httpStatus: 401 },
    });
    await expect(t.trpc(m.token).me.revokeSession.mutate({ id: target.id })).rejects.toMatchObject({
      data: { code: 'not_found' },
    });
  });
});

describe('POST /api/auth/logout', () => {
  it('deletes only the calling session; the token is refused on the next request (happy + security)', async () => {
    const m = await createMember(t);
    const second = await login(m);
    const res = await t.request('POST', '/api/auth/logout', { token: second });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const after = await t.request('GET', '/api/me', { token: second });
    expect(after.status).toBe(401);
    // A dead token is refused even on public routes, so the client learns at once.
    expect((await t.request('GET', '/api/stats', { token: second })).status).toBe(401);
    expect((await t.request('GET', '/api/me', { token: m.token })).status).toBe(200);
    const again = await t.request('POST', '/api/auth/logout', { token: second });
    expect(again.status).toBe(401);
  });

  it('answers 401 without a token (error)', async () => {
    const res = await t.request('POST', '/api/auth/logout');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });

  it('works through the typed tRPC client', async () => {
    const m = await createMember(t);
    expect(await t.trpc(m.token).auth.logout.mutate({})).toEqual({ ok: true });
    await expect(t.trpc(m.token).me.get.query({})).rejects.toMatchObject({ data: { httpStatus: 401 } });
  });
});

describe('session lifetime', () => {
  it('a session stops working SESSION_TTL_DAYS after sign-in', async () => {
    const app = await createTestApp({ SESSION_TTL_DAYS: '2' });
    try {
      const m = await createMember(app);
      app.clock.advance(2 * 86_400_000 - 60_000);
      expect((await app.request('GET', '/api/me', { token: m.token })).status).toBe(200);
      app.clock.advance(120_000);
      expect((await app.request('GET', '/api/me', { token: m.token })).status).toBe(401);
      const fresh = await app.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } });
      expect(fresh.status).toBe(200);
      // The expired session is no longer listed.
      const list = await app.request('GET', '/api/me/sessions', { token: fresh.body.token });
      expect(list.body.items).toHaveLength(1);
      expect(list.body.items[0].current).toBe(true);
    } finally {
      await app.close();
    }
  });
});
