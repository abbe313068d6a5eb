// The account's language and time zone: GET/PATCH /api/me, own account only.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFriends } from '../friends/helpers.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const stored = async (id: string) =>
  (
    await t.deps.database.rows<{ locale: string | null; time_zone: string | null }>(
      sql`select locale, time_zone from users where id = ${id}`,
    )
  )[0];

describe('account locale and timeZone', () => {
  it('start unset, are set and cleared through PATCH /api/me without a password (happy)', async () => {
    const m = await createMember(t);
    expect((await t.request('GET', '/api/me', { token: m.token })).body).toMatchObject({
      locale: null,
      timeZone: null,
    });

    const set = await t.request('PATCH', '/api/me', {
      token: m.token,
      body: { locale: 'de', timeZone: 'Europe/Berlin' },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ locale: 'de', timeZone: 'Europe/Berlin', handle: m.handle });
    expect(await stored(m.id)).toEqual({ locale: 'de', time_zone: 'Europe/Berlin' });
    expect((await t.request('GET', '/api/me', { token: m.token })).body).toMatchObject({
      locale: 'de',
      timeZone: 'Europe/Berlin',
    });

    // One field at a time leaves the other alone; null forgets the choice.
    const zoneOnly = await t.request('PATCH', '/api/me', { token: m.token, body: { timeZone: 'UTC' } });
    expect(zoneOnly.body).toMatchObject({ locale: 'de', timeZone: 'UTC' });
    const cleared = await t.request('PATCH', '/api/me', { token: m.token, body: { locale: null, timeZone: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ locale: null, timeZone: null });
    expect(await stored(m.id)).toEqual({ locale: null, time_zone: null });
  });

  it('stores a zone alias in the canonical form this runtime formats with (happy)', async () => {
    const m = await createMember(t);
    const res = await t.request('PATCH', '/api/me', { token: m.token, body: { timeZone: 'Etc/UTC' } });
    expect(res.status).toBe(200);
    expect(res.body.timeZone).toBe('UTC');
    const lower = await t.request('PATCH', '/api/me', { token: m.token, body: { timeZone: 'america/new_york' } });
    expect(lower.body.timeZone).toBe('America/New_York');
    // A newer browser's name for a zone this runtime knows under an older one.
    const kolkata = await t.request('PATCH', '/api/me', { token: m.token, body: { timeZone: 'Asia/Kolkata' } });
    expect(kolkata.status).toBe(200);
    expect(new Intl.DateTimeFormat('en', { timeZone: kolkata.body.timeZone }).resolvedOptions().timeZone).toBe(
      new Intl.DateTimeFormat('en', { timeZone: 'Asia/Kolkata' }).resolvedOptions().timeZone,
    );
  });

  it('refuses an unknown locale or zone with 400 validation_failed naming the field (error)', async () => {
    const m = await createMember(t);
    for (const body of [
      { locale: 'xx' },
      { locale: 'de-DE' },
      { locale: '' },
      { timeZone: 'Mars/Olympus_Mons' },
      { timeZone: 'Europe/Berlin; drop table users' },
      { timeZone: '' },
      { timeZone: 'x'.repeat(65) },
      { timeZone: 60 },
    ]) {
      const res = await t.request('PATCH', '/api/me', { token: m.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.message).toContain(Object.keys(body)[0]);
    }
    expect(await stored(m.id)).toEqual({ locale: null, time_zone: null });
  });

  it('changing them keeps every other session signed in (happy)', async () => {
    const m = await createMember(t);
    const login = await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } });
    await t.request('PATCH', '/api/me', { token: m.token, body: { locale: 'pt', timeZone: 'America/Toronto' } });
    expect((await t.request('GET', '/api/me', { token: login.body.token })).status).toBe(200);
  });

  it('never appear where another member sees the account (security: a zone says where someone lives)', async () => {
    const a = await createMember(t);
    const b = await createMember(t);
    await makeFriends(t, a, b);
    await t.request('PATCH', '/api/me', { token: b.token, body: { locale: 'fr', timeZone: 'America/Toronto' } });
    const friends = await t.request('GET', '/api/friends', { token: a.token });
    expect(friends.status).toBe(200);
    expect(friends.text).toContain(b.handle);
    expect(friends.text).not.toContain('America/Toronto');
    expect(friends.text).not.toMatch(/timeZone|locale/);
  });

  it('works through the typed tRPC client (happy + error)', async () => {
    const m = await createMember(t);
    const updated = await t.trpc(m.token).me.update.mutate({ locale: 'es', timeZone: 'Europe/Madrid' });
    expect(updated).toMatchObject({ locale: 'es', timeZone: 'Europe/Madrid' });
    expect(await t.trpc(m.token).me.get.query({})).toMatchObject({ locale: 'es', timeZone: 'Europe/Madrid' });
    await expect(t.trpc(m.token).me.update.mutate({ timeZone: 'Nowhere/Special' })).rejects.toMatchObject({
      data: { code: 'validation_failed', httpStatus: 400 },
    });
    await expect(t.trpc(m.token).me.update.mutate({ locale: 'it' as never })).rejects.toMatchObject({
      data: { code: 'validation_failed', httpStatus: 400 },
    });
  });
});
