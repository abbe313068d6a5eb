// GET / PATCH / DELETE /api/me.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, linkIn, SIGN_IN_SUBJECT, unique, type TestApp } from '../setup/harness.js';
import { findInEveryTable } from '../setup/db-scan.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const roleOf = async (id: string) =>
  (await t.deps.database.rows<{ role: string }>(sql`select role from users where id = ${id}`))[0]?.role;

describe('GET /api/me', () => {
  it("returns exactly the caller's account fields (happy + security)", async () => {
    const m = await createMember(t);
    const res = await t.request('GET', '/api/me', { token: m.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      _id: m.id,
      email: m.email,
      handle: m.handle,
      role: 'member',
      locale: null,
      timeZone: null,
      hasPassword: true,
      createdAt: expect.any(String),
    });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    expect((await t.trpc(m.token).me.get.query({})).hasPassword).toBe(true);
  });

  it('answers 401 unauthorized without, with a malformed, or with an unknown token (error)', async () => {
    for (const headers of [
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer' },
      { authorization: `Bearer ${'a'.repeat(52)}` },
      { authorization: 'Bearer not-ours' },
    ] as Record<string, string>[]) {
      const res = await t.request('GET', '/api/me', { headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    }
  });

  it('ignores a token in the query string (security)', async () => {
    const m = await createMember(t);
    for (const q of [`token=${m.token}`, `access_token=${m.token}`, `authorization=Bearer%20${m.token}`]) {
      const res = await t.request('GET', `/api/me?${q}`);
      expect(res.status, q).toBe(401);
    }
    const trpc = await t.app.request(`/trpc/me.get?access_token=${m.token}`);
    expect(trpc.status).toBe(401);
  });

  it('reads the role from the database on every request (security)', async () => {
    const m = await createMember(t, { admin: true });
    expect((await t.request('GET', '/api/me', { token: m.token })).body.role).toBe('admin');
    await t.deps.database.rows(sql`update users set role = 'member' where id = ${m.id}`);
    expect((await t.request('GET', '/api/me', { token: m.token })).body.role).toBe('member');
  });

  it('works through the typed tRPC client', async () => {
    const m = await createMember(t);
    expect(await t.trpc(m.token).me.get.query({})).toMatchObject({ _id: m.id, handle: m.handle });
    await expect(t.trpc().me.get.query({})).rejects.toMatchObject({ data: { code: 'unauthorized', httpStatus: 401 } });
  });
});

describe('PATCH /api/me', () => {
  it('changes the handle, stored in lower case (happy)', async () => {
    const m = await createMember(t);
    const handle = unique('New_');
    const res = await t.request('PATCH', '/api/me', { token: m.token, body: { handle } });
    expect(res.status).toBe(200);
    expect(res.body.handle).toBe(handle.toLowerCase());
    expect((await t.request('GET', '/api/me', { token: m.token })).body.handle).toBe(handle.toLowerCase());
  });

  it('rejects taken (409), reserved (409) and malformed (400) handles (error)', async () => {
    const a = await createMember(t);
    const b = await createMember(t);
    const taken = await t.request('PATCH', '/api/me', { token: a.token, body: { handle: b.handle.toUpperCase() } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('conflict');
    expect((await t.request('PATCH', '/api/me', { token: a.token, body: { handle: 'Admin' } })).status).toBe(409);
    for (const handle of ['ab', 'x'.repeat(31), 'has space', 'dash-ed', 'émile']) {
      const res = await t.request('PATCH', '/api/me', { token: a.token, body: { handle } });
      expect(res.status, handle).toBe(400);
      expect(res.body.error.message).toMatch(/handle/);
    }
    expect((await t.request('PATCH', '/api/me', { token: a.token, body: {} })).status).toBe(400);
  });

  it('rejects `role` with 400 and leaves the role unchanged (security)', async () => {
    const m = await createMember(t);
    const res = await t.request('PATCH', '/api/me', { token: m.token, body: { role: 'admin' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    const mixed = await t.request('PATCH', '/api/me', { token: m.token, body: { handle: unique('r'), role: 'admin' } });
    expect(mixed.status).toBe(400);
    expect(await roleOf(m.id)).toBe('member');
    expect((await t.request('GET', '/api/me', { token: m.token })).body.handle).toBe(m.handle);
    await expect(t.trpc(m.token).me.update.mutate({ role: 'admin' } as never)).rejects.toMatchObject({
      data: { code: 'validation_failed' },
    });
    expect(await roleOf(m.id)).toBe('member');
  });

  it('needs currentPassword to change the email: missing 400, wrong 403, right 200 (security)', async () => {
    const m = await createMember(t);
    const email = `${unique('moved')}@example.test`;
    const missing = await t.request('PATCH', '/api/me', { token: m.token, body: { email } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/currentPassword/);
    const wrong = await t.request('PATCH', '/api/me', {
      token: m.token,
      body: { email, currentPassword: 'not it at all' },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe('forbidden');
    expect((await t.request('GET', '/api/me', { token: m.token })).body.email).toBe(m.email);
    const ok = await t.request('PATCH', '/api/me', {
      token: m.token,
      body: { email: email.toUpperCase(), currentPassword: m.password },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.email).toBe(email);
    expect((await t.request('POST', '/api/auth/login', { body: { email, password: m.password } })).status).toBe(200);
    expect(
      (await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } })).status,
    ).toBe(401);
  });

  it('answers 409 when the new email belongs to someone else (error)', async () => {
    const a = await createMember(t);
    const b = await createMember(t);
    const res = await t.request('PATCH', '/api/me', {
      token: a.token,
      body: { email: b.email, currentPassword: a.password },
    });
    expect(res.status).toBe(409);
  });

  it('an email change voids magic links already mailed to the old address (security)', async () => {
    const m = await createMember(t);
    await t.request('POST', '/api/auth/magic-link', { body: { email: m.email } });
    await t.settleMail();
    const token = linkIn(await t.mailer.waitForMail(m.email, SIGN_IN_SUBJECT)).searchParams.get('token')!;
    await t.request('PATCH', '/api/me', {
      token: m.token,
      body: { email: `${unique('nm')}@example.test`, currentPassword: m.password },
    });
    expect((await t.request('POST', '/api/auth/magic-link/verify', { body: { token } })).status).toBe(401);
  });

  it('a new password needs the current one, then revokes every other session (security)', async () => {
    const m = await createMember(t);
    const other = (await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } })).body
      .token;
    expect(
      (await t.request('PATCH', '/api/me', { token: m.token, body: { newPassword: 'brand new password' } })).status,
    ).toBe(400);
    expect(
      (
        await t.request('PATCH', '/api/me', {
          token: m.token,
          body: { newPassword: 'brand new password', currentPassword: 'wrong' },
        })
      ).status,
    ).toBe(403);
    expect((await t.request('GET', '/api/me', { token: other })).status).toBe(200);
    const weak = await t.request('PATCH', '/api/me', {
      token: m.token,
      body: { newPassword: 'short', currentPassword: m.password },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.error.message).toMatch(/newPassword/);

    const ok = await t.request('PATCH', '/api/me', {
      token: m.token,
      body: { newPassword: 'brand new password', currentPassword: m.password },
    });
    expect(ok.status).toBe(200);
    expect((await t.request('GET', '/api/me', { token: other })).status).toBe(401);
    expect((await t.request('GET', '/api/me', { token: m.token })).status).toBe(200);
    expect(
      (await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } })).status,
    ).toBe(401);
    expect(
      (await t.request('POST', '/api/auth/login', { body: { email: m.email, password: 'brand new password' } })).status,
    ).toBe(200);
  });

  it('works through the typed tRPC client', async () => {
    const m = await createMember(t);
    const handle = unique('tp');
    expect((await t.trpc(m.token).me.update.mutate({ handle })).handle).toBe(handle.toLowerCase());
    await expect(t.trpc(m.token).me.update.mutate({ newPassword: 'another long one' })).rejects.toMatchObject({
      data: { code: 'validation_failed', httpStatus: 400 },
    });
  });
});

describe('DELETE /api/me', () => {
  it('hard-deletes: zero rows naming the user in every table, token dead at once (happy + security)', async () => {
    const m = await createMember(t, { prefix: 'hdel' });
    const second = (await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } })).body
      .token;
    await t.request('POST', '/api/auth/magic-link', { body: { email: m.email } });
    await t.settleMail();
    expect(await findInEveryTable(t.deps.database, [m.id])).not.toEqual([]);

    const res = await t.request('DELETE', '/api/me', { token: m.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(await findInEveryTable(t.deps.database, [m.id, m.email, m.handle])).toEqual([]);
    expect((await t.request('GET', '/api/me', { token: m.token })).status).toBe(401);
    expect((await t.request('GET', '/api/me', { token: second })).status).toBe(401);
    expect(
      (await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } })).status,
    ).toBe(401);
    // The email and handle are free again.
    expect(
      (
        await t.request('POST', '/api/auth/register', {
          body: { email: m.email, password: 'fresh start pw', handle: m.handle },
        })
      ).status,
    ).toBe(201);
  });

  it('leaves other members untouched (security)', async () => {
    const a = await createMember(t);
    const b = await createMember(t);
    expect((await t.request('DELETE', '/api/me', { token: a.token })).status).toBe(200);
    expect((await t.request('GET', '/api/me', { token: b.token })).status).toBe(200);
  });

  it('answers 401 without a session (error)', async () => {
    expect((await t.request('DELETE', '/api/me')).status).toBe(401);
  });

  it('works through the typed tRPC client', async () => {
    const m = await createMember(t, { prefix: 'tdel' });
    expect(await t.trpc(m.token).me.delete.mutate({})).toEqual({ ok: true });
    expect(await findInEveryTable(t.deps.database, [m.id, m.email, m.handle])).toEqual([]);
    await expect(t.trpc(m.token).me.get.query({})).rejects.toMatchObject({ data: { httpStatus: 401 } });
  });
});
