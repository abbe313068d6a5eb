// Idempotency-Key on creates: a repeat gets the first answer (same status, same bytes) and
// creates nothing; another body with the same key is 409; keys are per member, expire after
// 24 hours (movable clock) and go with the account; the tRPC path honours the same header.
// Runs on PGlite and PostgreSQL. The outage scenario is in idempotency-outage.pg.test.ts (PostgreSQL only).
import { createTRPCClient, httpLink } from '@trpc/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys } from '../../db/schema/index.js';
import { createJobRunner } from '../../server/jobs/runner.js';
import { expiredIdempotencyKeysSweep } from '../../server/jobs/sweeps.js';
import { IDEMPOTENCY_KEY_TTL_MS } from '../../server/lib/idempotency.js';
import type { AppRouter } from '../../server/composition.js';
import { insertMember } from '../security/callers.js';
import { createTestApp, unique, type TestApp } from '../setup/harness.js';

let t: TestApp;
let member: Awaited<ReturnType<typeof insertMember>>;

beforeAll(async () => {
  t = await createTestApp();
  member = await insertMember(t, { prefix: 'idem' });
});
afterAll(() => t.close());

const placeBody = (name = `Idem place ${unique('p')}`) => ({
  name,
  type: 'cafe',
  veganLevel: 'full',
  address: '1 Test Street',
  website: 'https://example.org',
  location: { lng: 13.4, lat: 52.5 },
});

const createPlace = (body: unknown, key: string | undefined, token = member.token) =>
  t.request('POST', '/api/places', { token, body, headers: key === undefined ? {} : { 'idempotency-key': key } });

async function placesNamed(name: string): Promise<number> {
  const [row] = await t.deps.database.rows<{ n: number }>(
    sql`select count(*)::int as n from places where name = ${name}`,
  );
  return Number(row!.n);
}

function trpcWithKey(token: string, key: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: 'http://test.local/trpc',
        headers: () => ({ authorization: `Bearer ${token}`, 'idempotency-key': key }),
        fetch: async (url, init) => t.app.request(String(url), init as RequestInit),
      }),
    ],
  });
}

describe('Idempotency-Key on creates', () => {
  it('a repeat answers the first answer, byte for byte, and creates one row', async () => {
    const body = placeBody();
    const key = `key-${unique('k')}`;
    const first = await createPlace(body, key);
    expect(first.status).toBe(201);
    const again = await createPlace(body, key);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    // Same request with its fields in another order: the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const third = await createPlace(reordered, key);
    expect(third.status).toBe(201);
    expect(third.body._id).toBe(first.body._id);
    expect(await placesNamed(body.name)).toBe(1);
  });

  it('without a key every POST creates (the header is what makes a retry safe)', async () => {
    const body = placeBody();
    expect((await createPlace(body, undefined)).status).toBe(201);
    expect((await createPlace(body, undefined)).status).toBe(201);
    expect(await placesNamed(body.name)).toBe(2);
  });

  it('the same key with a different body answers 409 conflict and creates nothing', async () => {
    const key = `key-${unique('k')}`;
    const body = placeBody();
    expect((await createPlace(body, key)).status).toBe(201);
    const other = placeBody();
    const res = await createPlace(other, key);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('conflict');
    expect(res.body.error.message).toMatch(/different request/);
    expect(await placesNamed(other.name)).toBe(0);
  });

  it('keys are per member', async () => {
    const other = await insertMember(t, { prefix: 'idem2' });
    const key = `shared-${unique('k')}`;
    const body = placeBody();
    const mine = await createPlace(body, key);
    const theirs = await createPlace(body, key, other.token);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body._id).not.toBe(mine.body._id);
    expect(await placesNamed(body.name)).toBe(2);
  });

  it('a failed attempt leaves the key free: a corrected request with it creates', async () => {
    const key = `key-${unique('k')}`;
    const body = placeBody();
    const invalid = await createPlace({ ...body, website: 'not a url' }, key);
    expect(invalid.status).toBe(400);
    const fixed = await createPlace(body, key);
    expect(fixed.status).toBe(201);
    expect(await placesNamed(body.name)).toBe(1);
  });

  it('concurrent duplicates with one key create one row and all get its answer', async () => {
    const key = `key-${unique('k')}`;
    const body = placeBody();
    const answers = await Promise.all([1, 2, 3].map(() => createPlace(body, key)));
    for (const a of answers) expect(a.status, a.text).toBe(201);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(await placesNamed(body.name)).toBe(1);
  });

  it('concurrent creates racing for one slug, each with its own key, all succeed', async () => {
    const name = `Slug race ${unique('s')}`;
    const answers = await Promise.all([1, 2, 3].map((i) => createPlace(placeBody(name), `race-${i}-${unique('k')}`)));
    for (const a of answers) expect(a.status, a.text).toBe(201);
    expect(new Set(answers.map((a) => a.body.slug)).size).toBe(3);
    expect(await placesNamed(name)).toBe(3);
  });

  it('a malformed key answers 400 and creates nothing', async () => {
    const body = placeBody();
    for (const key of ['x'.repeat(256), 'caf\u00e9', '   ']) {
      const res = await createPlace(body, key);
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.message).toMatch(/Idempotency-Key/);
    }
    expect((await createPlace(body, 'x'.repeat(255))).status).toBe(201);
    expect(await placesNamed(body.name)).toBe(1);
  });

  it('keys expire after 24 hours: then the key creates again, and the sweep deletes old keys', async () => {
    const key = `key-${unique('k')}`;
    const body = placeBody();
    const first = await createPlace(body, key);
    t.clock.advance(IDEMPOTENCY_KEY_TTL_MS - 1000);
    expect((await createPlace(body, key)).body._id).toBe(first.body._id);
    t.clock.advance(2000);
    const later = await createPlace(body, key);
    expect(later.status).toBe(201);
    expect(later.body._id).not.toBe(first.body._id);
    expect(await placesNamed(body.name)).toBe(2);

    const oldKey = `old-${unique('k')}`;
    expect((await createPlace(placeBody(), oldKey)).status).toBe(201);
    t.clock.advance(IDEMPOTENCY_KEY_TTL_MS + 1000);
    const runner = createJobRunner(t.deps, [expiredIdempotencyKeysSweep]);
    const summary = await runner.runOnce(expiredIdempotencyKeysSweep);
    expect(summary?.idempotencyKeys).toBeGreaterThanOrEqual(2);
    const left = await t.deps.database.rows<{ key: string }>(
      sql`select key from idempotency_keys where user_id = ${member.id}`,
    );
    expect(left.map((r) => r.key)).not.toContain(oldKey);
    expect(left.map((r) => r.key)).not.toContain(key);
  });

  it('the tRPC path honours the header, and REST and tRPC share the key', async () => {
    const key = `trpc-${unique('k')}`;
    const body = placeBody();
    const client = trpcWithKey(member.token, key);
    const first = await client.places.create.mutate(body as never);
    const again = await client.places.create.mutate(body as never);
    expect(again).toEqual(first);
    const viaRest = await createPlace(body, key);
    expect(viaRest.status).toBe(201);
    expect(viaRest.body).toEqual(first);
    await expect(client.places.create.mutate(placeBody() as never)).rejects.toMatchObject({
      data: { code: 'conflict', httpStatus: 409 },
    });
    expect(await placesNamed(body.name)).toBe(1);
  });

  it('routes that are not creates ignore the header; account deletion deletes the keys', async () => {
    const gone = await insertMember(t, { prefix: 'idem3' });
    const key = `key-${unique('k')}`;
    expect((await createPlace(placeBody(), key, gone.token)).status).toBe(201);
    const me = await t.request('GET', '/api/me', {
      token: gone.token,
      headers: { 'idempotency-key': 'x'.repeat(300) },
    });
    expect(me.status).toBe(200);
    expect((await t.request('DELETE', '/api/me', { token: gone.token })).status).toBe(200);
    const rows = await t.deps.database.db
      .select()
      .from(idempotencyKeys)
      .where(sql`${idempotencyKeys.userId} = ${gone.id}`);
    expect(rows).toEqual([]);
  });

  it('the OpenAPI document declares the header on member creates only', () => {
    const paths = t.openApiDocument.paths as Record<string, Record<string, { parameters?: { name: string }[] }>>;
    const has = (path: string, method: string) =>
      (paths[path]?.[method]?.parameters ?? []).some((p) => p.name === 'Idempotency-Key');
    expect(has('/api/places', 'post')).toBe(true);
    expect(has('/api/events', 'post')).toBe(true);
    expect(has('/api/admin/groves', 'post')).toBe(true);
    expect(has('/api/auth/register', 'post')).toBe(false);
    expect(has('/api/me/calendar-token', 'post')).toBe(false);
    expect(has('/api/places', 'get')).toBe(false);
  });
});
