// Passwords: NIST SP 800-63B blocklist (common and breached passwords, offline), the account's own
// email or handle refused, NFKC before hashing and comparing, never truncated.
import { hash } from '@node-rs/argon2';
import { verify } from '@node-rs/argon2';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCommonPassword } from '../../server/auth/passwords.js';
import { createMember, createTestApp, unique, type TestApp } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const register = (body: Record<string, string>) => t.request('POST', '/api/auth/register', { body });
const fresh = () => {
  const handle = unique('pw');
  return { handle, email: `${handle}@example.test` };
};

describe('new passwords', () => {
  it('common and breached passwords are refused, ignoring case and Unicode width (400 naming the field)', async () => {
    for (const password of [
      'password',
      '12345678',
      'PASSWORD',
      'Passw0rd',
      'iloveyou',
      'ｐａｓｓｗｏｒｄ１２３',
      'aaaaaaaaaaa',
    ]) {
      const res = await register({ ...fresh(), password });
      expect(res.status, password).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.message).toMatch(/^password: /);
    }
    expect(isCommonPassword('correct horse battery staple')).toBe(false);
    expect((await register({ ...fresh(), password: 'correct horse battery staple' })).status).toBe(201);
  });

  it('a password equal to the email, its local part or the handle is refused', async () => {
    const who = fresh();
    for (const password of [who.email, who.email.toUpperCase(), who.handle, who.handle.toUpperCase()]) {
      const res = await register({ ...who, password });
      expect(res.status, password).toBe(400);
      expect(res.body.error.message).toMatch(/email address or handle/);
    }
  });

  it('PATCH /api/me applies the same rules to newPassword (REST + tRPC)', async () => {
    const m = await createMember(t);
    const common = await t.request('PATCH', '/api/me', {
      token: m.token,
      body: { newPassword: 'qwertyuiop', currentPassword: m.password },
    });
    expect(common.status).toBe(400);
    expect(common.body.error.message).toMatch(/newPassword/);
    const own = await t.request('PATCH', '/api/me', {
      token: m.token,
      body: { newPassword: m.handle, currentPassword: m.password },
    });
    expect(own.status).toBe(400);
    await expect(
      t.trpc(m.token).me.update.mutate({ newPassword: '12345678', currentPassword: m.password }),
    ).rejects.toMatchObject({ data: { code: 'validation_failed', httpStatus: 400 } });
    // Nothing changed: the old password still signs in.
    expect(
      (await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } })).status,
    ).toBe(200);
  });
});

describe('NFKC', () => {
  it('a password typed with a ligature or full-width characters signs in with its NFKC form', async () => {
    const who = fresh();
    const typed = 'ﬁne ｓｔｒｏｎｇ tea leaves';
    expect((await register({ ...who, password: typed })).status).toBe(201);
    const login = (password: string) => t.request('POST', '/api/auth/login', { body: { email: who.email, password } });
    expect((await login('fine strong tea leaves')).status).toBe(200);
    expect((await login(typed)).status).toBe(200);
    expect((await login('fine strong tea leave')).status).toBe(401);
    const [row] = await t.deps.database.rows<{ password_hash: string }>(
      sql`select password_hash from users where email = ${who.email}`,
    );
    expect(await verify(row!.password_hash, 'fine strong tea leaves')).toBe(true);
  });

  it('a hash made before normalisation still signs in, and is replaced by the NFKC hash', async () => {
    const m = await createMember(t);
    const typed = 'ﬂower ﬁeld passphrase';
    const legacy = await hash(typed, { memoryCost: 19_456, timeCost: 2, parallelism: 1, algorithm: 2 });
    await t.deps.database.rows(sql`update users set password_hash = ${legacy} where id = ${m.id}`);
    const res = await t.request('POST', '/api/auth/login', { body: { email: m.email, password: typed } });
    expect(res.status).toBe(200);
    const [row] = await t.deps.database.rows<{ password_hash: string }>(
      sql`select password_hash from users where id = ${m.id}`,
    );
    expect(row!.password_hash).not.toBe(legacy);
    expect(await verify(row!.password_hash, typed.normalize('NFKC'))).toBe(true);
    expect(
      (await t.request('POST', '/api/auth/login', { body: { email: m.email, password: 'flower field passphrase' } }))
        .status,
    ).toBe(200);
  });
});
