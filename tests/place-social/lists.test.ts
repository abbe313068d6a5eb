// Place lists over REST and the typed client: private by default (404 to everyone else,
// identical to missing), public lists by id or slug without an owner unless chosen, owner-only
// changes, approved places only, the size bounds, cursor paging, account deletion.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLACE_LIST_LIMITS } from '../../server/domains/place-social/schemas.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { approvedPlace, createList, submitPlace, trpcCode } from './helpers.js';

let t: TestApp;
let admin: TestMember;
let submitter: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createMember(t, { admin: true });
  submitter = await createMember(t, { prefix: 'sub' });
});
afterAll(() => t.close());

const MISSING = '0190d3b2-6f1e-7c3a-8b2d-1234567890ab';

describe('POST and GET /api/place-lists', () => {
  it('creates a private list by default (201) and lists the caller’s own lists by cursor (happy)', async () => {
    const owner = await createMember(t);
    const res = await t.request('POST', '/api/place-lists', {
      token: owner.token,
      body: { name: '  Berlin brunch  ', description: 'Weekend favourites.' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      slug: expect.stringMatching(/^berlin-brunch-[a-z0-9]{6}$/),
      name: 'Berlin brunch',
      description: 'Weekend favourites.',
      isPublic: false,
      showHandle: false,
      placeCount: 0,
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
    });
    const second = await t.trpc(owner.token).placeLists.create.mutate({ name: 'Sanctuaries', isPublic: true });
    expect(second).toMatchObject({ name: 'Sanctuaries', isPublic: true, description: null });
    await createList(t, await createMember(t)); // someone else's
    const page1 = await t.request('GET', '/api/place-lists?limit=1', { token: owner.token });
    expect(page1.body.items).toEqual([res.body]);
    const page2 = await t.trpc(owner.token).placeLists.list.query({ limit: 1, cursor: page1.body.nextCursor });
    expect(page2).toEqual({ items: [second], nextCursor: null });
    expect((await t.request('GET', '/api/place-lists?cursor=bad', { token: owner.token })).status).toBe(400);
    expect((await t.request('GET', '/api/place-lists')).status).toBe(401);
  });

  it('refuses bad input (400) and caps the lists a member keeps (409)', async () => {
    const owner = await createMember(t);
    for (const body of [
      {},
      { name: '' },
      { name: 'x'.repeat(101) },
      { name: 'x', isPublic: 'true' },
      { name: 'x', userId: owner.id },
    ])
      expect(
        (await t.request('POST', '/api/place-lists', { token: owner.token, body })).status,
        JSON.stringify(body),
      ).toBe(400);
    await t.deps.database.rows(sql`
      insert into place_lists (id, user_id, slug, name)
      select gen_random_uuid(), ${owner.id}, 'bulk-' || ${owner.id} || '-' || n, 'Bulk'
      from generate_series(1, ${PLACE_LIST_LIMITS.listsPerMember}) n`);
    const full = await t.request('POST', '/api/place-lists', { token: owner.token, body: { name: 'One more' } });
    expect(full.status).toBe(409);
    expect(full.body.error.code).toBe('conflict');
  });
});

describe('reading a list: GET /api/place-lists/{id} and /places', () => {
  it('a private list answers 404 to everyone but its owner, identical to a missing list', async () => {
    const owner = await createMember(t);
    const other = await createMember(t);
    const list = await createList(t, owner, { name: 'Secret spots' });
    const place = await approvedPlace(t, submitter, admin);
    await t.request('PUT', `/api/place-lists/${list._id}/places/${place._id}`, { token: owner.token });
    expect((await t.request('GET', `/api/place-lists/${list._id}`, { token: owner.token })).body).toMatchObject({
      _id: list._id,
      placeCount: 1,
    });
    expect((await t.request('GET', `/api/place-lists/${list.slug}`, { token: owner.token })).status).toBe(200);
    const missing = await t.request('GET', `/api/place-lists/${MISSING}`);
    expect(missing.status).toBe(404);
    for (const who of [undefined, other, admin])
      for (const path of [
        `/api/place-lists/${list._id}`,
        `/api/place-lists/${list.slug}`,
        `/api/place-lists/${list._id}/places`,
        `/api/place-lists/${list.slug}/places`,
      ]) {
        const res = await t.request('GET', path, { token: who?.token });
        expect(res.status, path).toBe(404);
        expect(res.body).toEqual(missing.body);
      }
    expect(await trpcCode(t.trpc(other.token).placeLists.get.query({ id: list._id }))).toBe('not_found');
    expect(await trpcCode(t.trpc().placeLists.listPlaces.query({ id: list.slug }))).toBe('not_found');
  });

  it('a public list is readable by anyone, by id or slug, and shows no owner unless chosen', async () => {
    const owner = await createMember(t);
    const list = await createList(t, owner, { name: 'Open list', isPublic: true });
    const places = [];
    for (let i = 0; i < 3; i++) places.push(await approvedPlace(t, submitter, admin));
    for (const place of places)
      await t.request('PUT', `/api/place-lists/${list._id}/places/${place._id}`, { token: owner.token });
    const anonymous = await t.request('GET', `/api/place-lists/${list.slug}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toMatchObject({ _id: list._id, isPublic: true, showHandle: false, placeCount: 3 });
    expect('ownerHandle' in anonymous.body).toBe(false);
    expect(JSON.stringify(anonymous.body)).not.toContain(owner.handle);
    expect(JSON.stringify(anonymous.body)).not.toContain(owner.id);
    expect(await t.trpc().placeLists.get.query({ id: list._id })).toEqual(anonymous.body);

    const page1 = await t.request('GET', `/api/place-lists/${list._id}/places?limit=2`);
    const ids = places.map((p) => p._id).sort();
    expect(page1.body.items.map((p: { _id: string }) => p._id)).toEqual(ids.slice(0, 2));
    expect(page1.body.items[0]).toMatchObject({ averageRating: null, reviewCount: 0, status: 'approved' });
    const page2 = await t
      .trpc()
      .placeLists.listPlaces.query({ id: list.slug, limit: 2, cursor: page1.body.nextCursor });
    expect(page2.items.map((p) => p._id)).toEqual(ids.slice(2));
    expect(page2.nextCursor).toBeNull();
    expect((await t.request('GET', `/api/place-lists/${list._id}/places?cursor=zzz`)).status).toBe(400);
    expect((await t.request('GET', '/api/place-lists/Not_A_Slug')).status).toBe(400);

    const shown = await t.request('PATCH', `/api/place-lists/${list._id}`, {
      token: owner.token,
      body: { showHandle: true },
    });
    expect(shown.body).toMatchObject({ showHandle: true, ownerHandle: owner.handle });
    expect((await t.request('GET', `/api/place-lists/${list._id}`)).body.ownerHandle).toBe(owner.handle);
    // Back to private: gone for everyone else.
    await t.request('PATCH', `/api/place-lists/${list._id}`, { token: owner.token, body: { isPublic: false } });
    expect((await t.request('GET', `/api/place-lists/${list._id}`)).status).toBe(404);
  });
});

describe('changing a list: PATCH, DELETE, PUT/DELETE /places/{placeId}', () => {
  it('only the owner changes a list; anyone else gets 404, public list or not', async () => {
    const owner = await createMember(t);
    const other = await createMember(t);
    const list = await createList(t, owner, { isPublic: true });
    const place = await approvedPlace(t, submitter, admin);
    const attempts: [string, string, unknown?][] = [
      ['PATCH', `/api/place-lists/${list._id}`, { name: 'Mine now' }],
      ['PUT', `/api/place-lists/${list._id}/places/${place._id}`],
      ['DELETE', `/api/place-lists/${list._id}/places/${place._id}`],
      ['DELETE', `/api/place-lists/${list._id}`],
    ];
    for (const who of [other, admin])
      for (const [method, path, body] of attempts) {
        const res = await t.request(method, path, { token: who.token, body });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      }
    for (const [method, path, body] of attempts) expect((await t.request(method, path, { body })).status).toBe(401);
    const typed = t.trpc(other.token).placeLists;
    expect(await trpcCode(typed.update.mutate({ id: list._id, name: 'x' }))).toBe('not_found');
    expect(await trpcCode(typed.addPlace.mutate({ id: list._id, placeId: place._id }))).toBe('not_found');
    expect(await trpcCode(typed.removePlace.mutate({ id: list._id, placeId: place._id }))).toBe('not_found');
    expect(await trpcCode(typed.delete.mutate({ id: list._id }))).toBe('not_found');
    expect((await t.request('GET', `/api/place-lists/${list._id}`)).body).toMatchObject({
      name: list.name,
      placeCount: 0,
    });
  });

  it('the owner renames, adds and removes places (idempotent), approved places only, then deletes', async () => {
    const owner = await createMember(t);
    const list = await createList(t, owner);
    const place = await approvedPlace(t, submitter, admin);
    const pending = await submitPlace(t, submitter);
    t.clock.advance(1000);
    const renamed = await t.request('PATCH', `/api/place-lists/${list._id}`, {
      token: owner.token,
      body: { name: 'Renamed', description: null, isPublic: true },
    });
    expect(renamed.body).toEqual({
      ...list,
      name: 'Renamed',
      description: null,
      isPublic: true,
      updatedAt: t.clock.now().toISOString(),
    });
    for (const body of [{}, { name: '' }, { slug: 'mine' }])
      expect((await t.request('PATCH', `/api/place-lists/${list._id}`, { token: owner.token, body })).status).toBe(400);

    const added = await t.request('PUT', `/api/place-lists/${list._id}/places/${place._id}`, { token: owner.token });
    expect(added.status, added.text).toBe(200);
    expect(added.body.placeCount).toBe(1);
    const typed = t.trpc(owner.token).placeLists;
    expect((await typed.addPlace.mutate({ id: list._id, placeId: place._id })).placeCount).toBe(1);
    for (const id of [pending._id, MISSING]) {
      const res = await t.request('PUT', `/api/place-lists/${list._id}/places/${id}`, { token: owner.token });
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe('No such place.');
    }
    expect((await t.request('PUT', `/api/place-lists/${list._id}/places/nope`, { token: owner.token })).status).toBe(
      400,
    );
    expect((await typed.removePlace.mutate({ id: list._id, placeId: place._id })).placeCount).toBe(0);
    const again = await t.request('DELETE', `/api/place-lists/${list._id}/places/${place._id}`, { token: owner.token });
    expect(again.status).toBe(200);
    expect(again.body.placeCount).toBe(0);

    expect(await typed.update.mutate({ id: list._id, showHandle: true })).toMatchObject({ ownerHandle: owner.handle });
    expect(await typed.delete.mutate({ id: list._id })).toEqual({ ok: true });
    expect((await t.request('DELETE', `/api/place-lists/${list._id}`, { token: owner.token })).status).toBe(404);
    expect((await t.request('GET', `/api/place-lists/${list._id}`, { token: owner.token })).status).toBe(404);
    // The place itself stays.
    expect((await t.request('GET', `/api/places/${place.slug}`)).status).toBe(200);
  });

  it(`holds at most ${PLACE_LIST_LIMITS.placesPerList} places (409 past that)`, async () => {
    const owner = await createMember(t);
    const list = await createList(t, owner);
    const place = await approvedPlace(t, submitter, admin);
    // Fill the list straight in the database with approved places of its own.
    await t.deps.database.rows(sql`
      with made as (
        insert into places (id, slug, name, type, vegan_level, address, website, location, status)
        select gen_random_uuid(), 'bulk-' || ${list._id} || '-' || n, 'Bulk', 'cafe', 'full', 'x', 'https://x.example',
               ST_SetSRID(ST_MakePoint(0, 0), 4326), 'approved'
        from generate_series(1, ${PLACE_LIST_LIMITS.placesPerList}) n
        returning id)
      insert into place_list_items (list_id, place_id) select ${list._id}, id from made`);
    const full = await t.request('PUT', `/api/place-lists/${list._id}/places/${place._id}`, { token: owner.token });
    expect(full.status).toBe(409);
    expect(full.body.error.code).toBe('conflict');
  });
});

describe('account deletion', () => {
  it('removes the member’s lists', async () => {
    const owner = await createMember(t);
    const list = await createList(t, owner, { isPublic: true, showHandle: true });
    await t.request('PUT', `/api/place-lists/${list._id}/places/${(await approvedPlace(t, submitter, admin))._id}`, {
      token: owner.token,
    });
    expect((await t.request('DELETE', '/api/me', { token: owner.token })).status).toBe(200);
    expect((await t.request('GET', `/api/place-lists/${list._id}`)).status).toBe(404);
    expect(await t.deps.database.rows(sql`select 1 from place_lists where user_id = ${owner.id}`)).toEqual([]);
    expect(await t.deps.database.rows(sql`select 1 from place_list_items where list_id = ${list._id}`)).toEqual([]);
  });
});
