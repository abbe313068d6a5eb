// Admin moderation: the pending queue and the pending → approved | rejected transitions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { STATS_TTL_MS } from '../../server/domains/stats/service.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { randomSpot, submitPlace } from './helpers.js';

let t: TestApp;
let member: TestMember;
let other: TestMember;
let admin: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  [member, other, admin] = await Promise.all([createMember(t), createMember(t), createMember(t, { admin: true })]);
});
afterAll(() => t.close());

/** The whole pending queue, following cursors. */
async function pendingQueue(token: string, limit = 100) {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const res: any = await t.request(
      'GET',
      `/api/admin/places/pending?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
      { token },
    );
    expect(res.status, res.text).toBe(200);
    items.push(...res.body.items);
    cursor = res.body.nextCursor;
  } while (cursor);
  return items;
}

describe('GET /api/admin/places/pending', () => {
  it('lists pending places only, oldest first, with cursor paging (REST and tRPC)', async () => {
    const a = await submitPlace(t, member);
    const b = await submitPlace(t, other);
    const c = await submitPlace(t, member);
    const approved = await submitPlace(t, member);
    const rejected = await submitPlace(t, member);
    await t.request('PUT', `/api/admin/places/${approved._id}/approve`, { token: admin.token });
    await t.request('PUT', `/api/admin/places/${rejected._id}/reject`, { token: admin.token });

    const queue = (await pendingQueue(admin.token, 2)).map((p) => p._id);
    expect(new Set(queue).size).toBe(queue.length);
    expect([...queue].sort()).toEqual(queue);
    expect(queue.filter((id) => [a._id, b._id, c._id].includes(id))).toEqual([a._id, b._id, c._id]);
    expect(queue).not.toContain(approved._id);
    expect(queue).not.toContain(rejected._id);

    const typed = await t.trpc(admin.token).places.adminListPending.query({ limit: 100 });
    expect(typed.items.every((p) => p.status === 'pending')).toBe(true);
  });

  it('keeps paging when the last place of a page was reviewed meanwhile', async () => {
    await submitPlace(t, member);
    await submitPlace(t, member);
    const first = await t.request('GET', '/api/admin/places/pending?limit=1', { token: admin.token });
    const last = first.body.items[0];
    await t.request('PUT', `/api/admin/places/${last._id}/approve`, { token: admin.token });
    const next = await t.request('GET', `/api/admin/places/pending?limit=1&cursor=${first.body.nextCursor}`, {
      token: admin.token,
    });
    expect(next.status).toBe(200);
  });

  it('needs an admin: anonymous 401, member 403 (security)', async () => {
    expect((await t.request('GET', '/api/admin/places/pending')).status).toBe(401);
    const asMember = await t.request('GET', '/api/admin/places/pending', { token: member.token });
    expect(asMember.status).toBe(403);
    expect(asMember.body.error.code).toBe('forbidden');
    await expect(t.trpc(member.token).places.adminListPending.query({})).rejects.toMatchObject({
      data: { code: 'forbidden', httpStatus: 403 },
    });
    await expect(t.trpc().places.adminListPending.query({})).rejects.toMatchObject({
      data: { code: 'unauthorized', httpStatus: 401 },
    });
  });

  it('rejects bad cursors and limits (error)', async () => {
    const bad = await t.request('GET', '/api/admin/places/pending?cursor=nope', { token: admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_cursor');
    const limit = await t.request('GET', '/api/admin/places/pending?limit=1000', { token: admin.token });
    expect(limit.status).toBe(400);
    expect(limit.body.error.code).toBe('validation_failed');
  });
});

describe('PUT /api/admin/places/{id}/approve and /reject', () => {
  it('approves a pending place: it appears in public reads (happy)', async () => {
    const spot = randomSpot();
    const place = await submitPlace(t, member, { location: spot.point(0) });
    expect((await t.request('GET', `/api/places?bbox=${spot.bbox}`)).body.items).toEqual([]);
    const res = await t.request('PUT', `/api/admin/places/${place._id}/approve`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...place, status: 'approved' });
    expect((await t.request('GET', `/api/places?bbox=${spot.bbox}`)).body.items).toEqual([res.body]);
    expect((await t.request('GET', `/api/places/${place.slug}`)).status).toBe(200);
  });

  it('rejects a pending place: it stays out of public reads (happy)', async () => {
    const spot = randomSpot();
    const place = await submitPlace(t, member, { location: spot.point(0) });
    const res = await t.request('PUT', `/api/admin/places/${place._id}/reject`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('rejected');
    expect((await t.request('GET', `/api/places?bbox=${spot.bbox}`)).body.items).toEqual([]);
    expect((await t.request('GET', `/api/places/${place.slug}`)).status).toBe(404);
  });

  it('works through the typed client', async () => {
    const a = await submitPlace(t, member);
    const b = await submitPlace(t, member);
    expect((await t.trpc(admin.token).places.approve.mutate({ id: a._id })).status).toBe('approved');
    expect((await t.trpc(admin.token).places.reject.mutate({ id: b._id })).status).toBe('rejected');
    await expect(t.trpc(admin.token).places.approve.mutate({ id: a._id })).rejects.toMatchObject({
      data: { code: 'conflict', httpStatus: 409 },
    });
  });

  it('answers 409 conflict for anything but a pending place (error)', async () => {
    const approved = await submitPlace(t, member);
    const rejected = await submitPlace(t, member);
    await t.request('PUT', `/api/admin/places/${approved._id}/approve`, { token: admin.token });
    await t.request('PUT', `/api/admin/places/${rejected._id}/reject`, { token: admin.token });
    for (const [id, action] of [
      [approved._id, 'approve'],
      [approved._id, 'reject'],
      [rejected._id, 'approve'],
      [rejected._id, 'reject'],
    ]) {
      const res = await t.request('PUT', `/api/admin/places/${id}/${action}`, { token: admin.token });
      expect(res.status, `${action} ${id}`).toBe(409);
      expect(res.body.error.code).toBe('conflict');
    }
    // The state did not change.
    expect((await t.request('GET', `/api/places/${rejected.slug}`, { token: admin.token })).body.status).toBe(
      'rejected',
    );
  });

  it('lets exactly one of two concurrent reviews win', async () => {
    const place = await submitPlace(t, member);
    const results = await Promise.all([
      t.request('PUT', `/api/admin/places/${place._id}/approve`, { token: admin.token }),
      t.request('PUT', `/api/admin/places/${place._id}/reject`, { token: admin.token }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('answers 404 for an unknown id and 400 for a malformed one (error)', async () => {
    for (const action of ['approve', 'reject']) {
      const unknown = await t.request('PUT', `/api/admin/places/${newId()}/${action}`, { token: admin.token });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('not_found');
      const malformed = await t.request('PUT', `/api/admin/places/not-an-id/${action}`, { token: admin.token });
      expect(malformed.status).toBe(400);
      expect(malformed.body.error.code).toBe('validation_failed');
    }
    await expect(t.trpc(admin.token).places.reject.mutate({ id: newId() })).rejects.toMatchObject({
      data: { code: 'not_found', httpStatus: 404 },
    });
  });

  it('needs an admin: anonymous 401, submitter and other members 403, nothing changes (security)', async () => {
    const place = await submitPlace(t, member);
    for (const action of ['approve', 'reject']) {
      const anonymous = await t.request('PUT', `/api/admin/places/${place._id}/${action}`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.code).toBe('unauthorized');
      for (const who of [member, other]) {
        const res = await t.request('PUT', `/api/admin/places/${place._id}/${action}`, { token: who.token });
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe('forbidden');
      }
    }
    await expect(t.trpc(member.token).places.approve.mutate({ id: place._id })).rejects.toMatchObject({
      data: { code: 'forbidden', httpStatus: 403 },
    });
    await expect(t.trpc().places.reject.mutate({ id: place._id })).rejects.toMatchObject({
      data: { code: 'unauthorized', httpStatus: 401 },
    });
    expect((await t.request('GET', `/api/places/${place.slug}`, { token: member.token })).body.status).toBe('pending');
  });
});

describe('/api/stats and places', () => {
  // The file has a database of its own (tests/setup/database.ts): the counts move by exactly one.
  it('counts a place once approved, after the 5-minute cache expires', async () => {
    t.clock.advance(STATS_TTL_MS + 1);
    const before = (await t.request('GET', '/api/stats')).body;
    expect(before.places.byType).toHaveProperty('sanctuary');
    const sanctuary = await submitPlace(t, member, { type: 'sanctuary' });
    t.clock.advance(STATS_TTL_MS + 1);
    const pending = (await t.request('GET', '/api/stats')).body;
    await t.request('PUT', `/api/admin/places/${sanctuary._id}/approve`, { token: admin.token });
    const cached = (await t.request('GET', '/api/stats')).body;
    expect(cached).toEqual(pending);
    t.clock.advance(STATS_TTL_MS + 1);
    const after = await t.trpc().stats.get.query({});
    expect(pending.places.byType.sanctuary).toBe(before.places.byType.sanctuary);
    expect(after.places.approved).toBe(pending.places.approved + 1);
    expect(after.places.byType.sanctuary).toBe(pending.places.byType.sanctuary + 1);
    expect(after.places.approved).toBe(Object.values(after.places.byType).reduce((a: number, b: number) => a + b, 0));
  });
});
