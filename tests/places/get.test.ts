// GET /api/places/{slug}: approved places are public; pending and rejected ones exist only for
// their submitter and admins, and look exactly like a missing slug to everyone else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, unique, type TestApp, type TestMember } from '../setup/harness.js';
import { approvePlace, submitPlace } from './helpers.js';

let t: TestApp;
let submitter: TestMember;
let other: TestMember;
let admin: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  [submitter, other, admin] = await Promise.all([createMember(t), createMember(t), createMember(t, { admin: true })]);
});
afterAll(() => t.close());

async function placeIn(state: 'pending' | 'approved' | 'rejected') {
  const place = await submitPlace(t, submitter);
  if (state !== 'pending') {
    const res = await t.request(
      'PUT',
      `/api/admin/places/${place._id}/${state === 'approved' ? 'approve' : 'reject'}`,
      { token: admin.token },
    );
    expect(res.status).toBe(200);
  }
  return place;
}

describe('GET /api/places/{slug}', () => {
  it('shows an approved place to everyone, through REST and tRPC (happy)', async () => {
    const place = await approvePlace(t, admin, (await submitPlace(t, submitter))._id);
    for (const token of [undefined, other.token, submitter.token, admin.token]) {
      const res = await t.request('GET', `/api/places/${place.slug}`, { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(place);
    }
    expect(await t.trpc().places.get.query({ slug: place.slug })).toEqual(place);
    expect(await t.trpc(other.token).places.get.query({ slug: place.slug })).toEqual(place);
  });

  it('answers 404 not_found for a slug that never existed (error)', async () => {
    const res = await t.request('GET', `/api/places/${unique('nothing-here')}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    await expect(t.trpc().places.get.query({ slug: unique('nothing') })).rejects.toMatchObject({
      data: { code: 'not_found', httpStatus: 404 },
    });
  });

  for (const state of ['pending', 'rejected'] as const) {
    it(`shows a ${state} place to its submitter and to admins only (security)`, async () => {
      const place = await placeIn(state);
      const mine = await t.request('GET', `/api/places/${place.slug}`, { token: submitter.token });
      expect(mine.status).toBe(200);
      expect(mine.body.status).toBe(state);
      const asAdmin = await t.request('GET', `/api/places/${place.slug}`, { token: admin.token });
      expect(asAdmin.status).toBe(200);
      expect((await t.trpc(submitter.token).places.get.query({ slug: place.slug }))._id).toBe(place._id);
      expect((await t.trpc(admin.token).places.get.query({ slug: place.slug }))._id).toBe(place._id);
    });

    it(`hides a ${state} place from anonymous callers and other members, exactly like a missing slug (security)`, async () => {
      const place = await placeIn(state);
      const missing = await t.request('GET', `/api/places/${unique('missing')}`);
      for (const token of [undefined, other.token]) {
        const res = await t.request('GET', `/api/places/${place.slug}`, { token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(missing.body);
        await expect(t.trpc(token).places.get.query({ slug: place.slug })).rejects.toMatchObject({
          data: { code: 'not_found', httpStatus: 404 },
        });
      }
    });
  }

  it('refuses an invalid bearer token even on this public route (security)', async () => {
    const res = await t.request('GET', '/api/places/anything', { token: 'x'.repeat(52) });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });

  it('treats a too-long slug as invalid input (error)', async () => {
    const res = await t.request('GET', `/api/places/${'a'.repeat(201)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
  });
});
