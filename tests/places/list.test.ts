// GET /api/places: approved places only, bounding box (antimeridian included), filters, text
// search and cursor paging. Each test works inside its own random spot (see helpers.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../server/lib/pagination.js';
import { newId } from '../../db/ids.js';
import { createMember, createTestApp, unique, type TestApp, type TestMember } from '../setup/harness.js';
import { approvedPlace, listAll, randomSpot, submitPlace } from './helpers.js';

let t: TestApp;
let member: TestMember;
let admin: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  [member, admin] = await Promise.all([createMember(t), createMember(t, { admin: true })]);
});
afterAll(() => t.close());

const ids = (items: Array<{ _id: string }>) => items.map((p) => p._id);

describe('GET /api/places: bounding box', () => {
  it('lists approved places inside the box only, through REST and tRPC (happy)', async () => {
    const spot = randomSpot();
    const inside = await approvedPlace(t, member, admin, { location: spot.point(1) });
    const pending = await submitPlace(t, member, { location: spot.point(2) });
    const rejected = await submitPlace(t, member, { location: spot.point(3) });
    expect((await t.request('PUT', `/api/admin/places/${rejected._id}/reject`, { token: admin.token })).status).toBe(
      200,
    );
    const outside = await approvedPlace(t, member, admin, { location: { lng: spot.lng + 0.02, lat: spot.lat } });

    const res = await t.request('GET', `/api/places?bbox=${spot.bbox}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [inside], nextCursor: null });
    const typed = await t.trpc().places.list.query({ bbox: spot.bbox });
    expect(typed).toEqual({ items: [inside], nextCursor: null });
    // Pending and rejected places stay hidden even from their submitter and from admins.
    for (const token of [member.token, admin.token]) {
      const listed = await t.request('GET', `/api/places?bbox=${spot.bbox}`, { token });
      expect(ids(listed.body.items)).toEqual([inside._id]);
    }
    expect(ids(res.body.items)).not.toContain(pending._id);
    expect(ids(res.body.items)).not.toContain(outside._id);
  });

  it('handles a box that crosses the antimeridian (west > east)', async () => {
    const lat = Math.round((-60 + Math.random() * 120) * 1e5) / 1e5;
    const east = await approvedPlace(t, member, admin, { location: { lng: 179.995, lat } });
    const west = await approvedPlace(t, member, admin, { location: { lng: -179.995, lat } });
    const edge = await approvedPlace(t, member, admin, { location: { lng: 180, lat } });
    const farAway = await approvedPlace(t, member, admin, { location: { lng: 0, lat } });
    const justOutside = await approvedPlace(t, member, admin, { location: { lng: 179.8, lat } });
    const bbox = `179.9,${lat - 0.001},-179.9,${lat + 0.001}`;
    const found = ids(await listAll(t, `bbox=${bbox}`));
    expect(found.sort()).toEqual([east._id, west._id, edge._id].sort());
    expect(found).not.toContain(farAway._id);
    expect(found).not.toContain(justOutside._id);
    const typed = await t.trpc().places.list.query({ bbox, limit: 100 });
    expect(ids(typed.items).sort()).toEqual([east._id, west._id, edge._id].sort());
    // The same points through an ordinary box on either side.
    expect(ids(await listAll(t, `bbox=179.9,${lat - 0.001},180,${lat + 0.001}`)).sort()).toEqual(
      [east._id, edge._id].sort(),
    );
    expect(ids(await listAll(t, `bbox=-180,${lat - 0.001},-179.9,${lat + 0.001}`))).toEqual([west._id]);
  });

  it('keeps antimeridian results in _id order across pages', async () => {
    const lat = Math.round((-60 + Math.random() * 120) * 1e5) / 1e5;
    const created: string[] = [];
    for (let i = 0; i < 5; i++)
      created.push((await approvedPlace(t, member, admin, { location: { lng: i % 2 ? 179.99 : -179.99, lat } }))._id);
    const found = ids(await listAll(t, `bbox=179.9,${lat - 0.001},-179.9,${lat + 0.001}`, 2));
    expect(found).toEqual(created);
  });

  const badBoxes = [
    '',
    '1,2,3',
    '1,2,3,4,5',
    'a,b,c,d',
    'NaN,0,1,1',
    'Infinity,0,1,1',
    '1e400,0,1,1',
    '0,0x10,1,1',
    '181,0,182,1',
    '0,0,-181,1',
    '0,-91,1,0',
    '0,0,1,90.5',
    '0,10,1,5',
    '0,,1,1',
  ];
  it.each(badBoxes)('rejects bbox=%j with 400 validation_failed (error)', async (bbox) => {
    const res = await t.request('GET', `/api/places?bbox=${encodeURIComponent(bbox)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.message).toMatch(/bbox/);
  });

  it('rejects a bad bbox through the typed client (error)', async () => {
    await expect(t.trpc().places.list.query({ bbox: '0,10,1,5' })).rejects.toMatchObject({
      data: { code: 'validation_failed', httpStatus: 400 },
    });
  });

  it('accepts the whole world and degenerate boxes', async () => {
    const spot = randomSpot();
    const place = await approvedPlace(t, member, admin, { location: spot.point(0) });
    const world = await t.request('GET', '/api/places?bbox=-180,-90,180,90&limit=1');
    expect(world.status).toBe(200);
    const point = await t.request(
      'GET',
      `/api/places?bbox=${place.location.lng},${place.location.lat},${place.location.lng},${place.location.lat}`,
    );
    expect(ids(point.body.items)).toEqual([place._id]);
  });
});

describe('GET /api/places: filters and search', () => {
  it('filters by type and veganLevel', async () => {
    const spot = randomSpot();
    const cafe = await approvedPlace(t, member, admin, { type: 'cafe', veganLevel: 'full', location: spot.point(0) });
    const cafeOptions = await approvedPlace(t, member, admin, {
      type: 'cafe',
      veganLevel: 'options',
      location: spot.point(1),
    });
    const shop = await approvedPlace(t, member, admin, {
      type: 'shop',
      veganLevel: 'options',
      location: spot.point(2),
    });
    expect(ids((await t.request('GET', `/api/places?bbox=${spot.bbox}&type=cafe`)).body.items)).toEqual([
      cafe._id,
      cafeOptions._id,
    ]);
    expect(ids((await t.request('GET', `/api/places?bbox=${spot.bbox}&veganLevel=options`)).body.items)).toEqual([
      cafeOptions._id,
      shop._id,
    ]);
    expect(
      ids((await t.request('GET', `/api/places?bbox=${spot.bbox}&type=cafe&veganLevel=options`)).body.items),
    ).toEqual([cafeOptions._id]);
    expect(ids((await t.trpc().places.list.query({ bbox: spot.bbox, type: 'shop' })).items)).toEqual([shop._id]);
    for (const bad of ['type=bakery', 'veganLevel=mostly', 'type=']) {
      const res = await t.request('GET', `/api/places?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
  });

  it('searches name, address and tags by word prefix (q)', async () => {
    const word = unique('zq').toLowerCase();
    const byName = await approvedPlace(t, member, admin, { name: `The ${word} Kitchen` });
    const byAddress = await approvedPlace(t, member, admin, { address: `12 ${word} Road, Leeds` });
    const byTag = await approvedPlace(t, member, admin, { tags: [`${word} special`] });
    const pending = await submitPlace(t, member, { name: `${word} pending` });
    const all = [byName._id, byAddress._id, byTag._id];
    expect(ids(await listAll(t, `q=${word}`))).toEqual(all);
    expect(ids(await listAll(t, `q=${word.toUpperCase().slice(0, -1)}`))).toEqual(all); // prefix, any case
    expect(ids(await listAll(t, `q=${encodeURIComponent(`${word} kitchen`)}`))).toEqual([byName._id]); // every word must match
    expect(ids(await listAll(t, `q=${encodeURIComponent(`${word}, leeds!`)}`))).toEqual([byAddress._id]); // punctuation ignored
    expect(ids(await listAll(t, `q=${word}&type=restaurant&bbox=-180,-90,180,90`))).toEqual(all);
    expect(ids(await listAll(t, `q=${word}`))).not.toContain(pending._id);
    expect(ids((await t.trpc().places.list.query({ q: `${word} special` })).items)).toEqual([byTag._id]);
    expect((await t.request('GET', `/api/places?q=${word}nothing`)).body).toEqual({ items: [], nextCursor: null });
  });

  it.each(['', '   ', '!!!', 'x'.repeat(101)])('rejects q=%j with 400 validation_failed (error)', async (q) => {
    const res = await t.request('GET', `/api/places?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
  });
});

describe('GET /api/places: paging', () => {
  it('pages through a box with no duplicates and no gaps, in _id order (REST and tRPC)', async () => {
    const spot = randomSpot();
    const created: string[] = [];
    for (let i = 0; i < 7; i++) created.push((await approvedPlace(t, member, admin, { location: spot.point(i) }))._id);
    await submitPlace(t, member, { location: spot.point(20) }); // pending: never listed

    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const res: any = await t.request(
        'GET',
        `/api/places?bbox=${spot.bbox}&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      pages.push(ids(res.body.items));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(created);

    const typedPages: string[][] = [];
    let typedCursor: string | undefined;
    do {
      const page = await t.trpc().places.list.query({ bbox: spot.bbox, limit: 2, cursor: typedCursor });
      typedPages.push(ids(page.items));
      typedCursor = page.nextCursor ?? undefined;
    } while (typedCursor);
    expect(typedPages.map((p) => p.length)).toEqual([2, 2, 2, 1]);
    expect(typedPages.flat()).toEqual(created);
  });

  it('ends with nextCursor null when the last page is exactly full', async () => {
    const spot = randomSpot();
    for (let i = 0; i < 2; i++) await approvedPlace(t, member, admin, { location: spot.point(i) });
    const res = await t.request('GET', `/api/places?bbox=${spot.bbox}&limit=2`);
    expect(res.body.items).toHaveLength(2);
    expect(res.body.nextCursor).toBeNull();
  });

  it('rejects malformed and unknown cursors with 400 invalid_cursor (error)', async () => {
    const pending = await submitPlace(t, member);
    const bad = [
      'nope',
      'x'.repeat(23),
      '%2B%2B%2B',
      Buffer.from('hello world!!!!!').toString('base64url'),
      encodeCursor(newId()),
      encodeCursor(pending._id),
    ];
    for (const cursor of bad) {
      const res = await t.request('GET', `/api/places?cursor=${cursor}`);
      expect(res.status, cursor).toBe(400);
      expect(res.body.error.code).toBe('invalid_cursor');
    }
    await expect(t.trpc().places.list.query({ cursor: 'nope' })).rejects.toMatchObject({
      data: { code: 'invalid_cursor', httpStatus: 400 },
    });
  });

  it.each(['0', '101', 'abc', '2.5', '-1'])('rejects limit=%s with 400 validation_failed (error)', async (limit) => {
    const res = await t.request('GET', `/api/places?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
  });

  it('defaults to 20 items per page', async () => {
    const res = await t.request('GET', '/api/places');
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(20);
  });
});
