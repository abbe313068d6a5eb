// A rejection's reason: given by the admin on the reject decision, stored, and shown as
// `rejectionReason` on the rejected place, which only its submitter and admins can read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { submitPlace } from './helpers.js';

let t: TestApp;
let submitter: TestMember;
let other: TestMember;
let admin: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  [submitter, other, admin] = await Promise.all([createMember(t), createMember(t), createMember(t, { admin: true })]);
});
afterAll(() => t.close());

const REASON = 'The address is a private flat, not a café open to the public.';

describe('PUT /api/admin/places/{id}/reject with a reason', () => {
  it('stores the reason and shows it to the submitter and admins only (REST)', async () => {
    const place = await submitPlace(t, submitter);
    const res = await t.request('PUT', `/api/admin/places/${place._id}/reject`, {
      token: admin.token,
      body: { reason: `  ${REASON}  ` },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'rejected', rejectionReason: REASON });

    const mine = await t.request('GET', `/api/places/${place.slug}`, { token: submitter.token });
    expect(mine.status).toBe(200);
    expect(mine.body.rejectionReason).toBe(REASON);
    const asAdmin = await t.request('GET', `/api/places/${place.slug}`, { token: admin.token });
    expect(asAdmin.body.rejectionReason).toBe(REASON);
    // Anyone else: the 404 of a missing place, so the reason cannot leak.
    expect((await t.request('GET', `/api/places/${place.slug}`, { token: other.token })).status).toBe(404);
    expect((await t.request('GET', `/api/places/${place.slug}`)).status).toBe(404);
  });

  it('takes the reason through the typed client too, and leaves it out when none was given', async () => {
    const withReason = await submitPlace(t, submitter);
    const rejected = await t.trpc(admin.token).places.reject.mutate({ id: withReason._id, reason: REASON });
    expect(rejected.rejectionReason).toBe(REASON);
    const read = await t.trpc(submitter.token).places.get.query({ slug: withReason.slug });
    expect(read.rejectionReason).toBe(REASON);

    const without = await submitPlace(t, submitter);
    const plain = await t.request('PUT', `/api/admin/places/${without._id}/reject`, { token: admin.token });
    expect(plain.status).toBe(200);
    expect(plain.body).not.toHaveProperty('rejectionReason');
  });

  it('never puts a reason on an approved place', async () => {
    const place = await submitPlace(t, submitter);
    const approved = await t.trpc(admin.token).places.approve.mutate({ id: place._id });
    expect(approved).not.toHaveProperty('rejectionReason');
    const listed = await t.request('GET', `/api/places/${place.slug}`);
    expect(listed.body).not.toHaveProperty('rejectionReason');
  });

  it('refuses an empty or too long reason (400) and rejects nothing', async () => {
    const place = await submitPlace(t, submitter);
    for (const reason of ['   ', 'x'.repeat(501)]) {
      const res = await t.request('PUT', `/api/admin/places/${place._id}/reject`, {
        token: admin.token,
        body: { reason },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    const still = await t.request('GET', `/api/places/${place.slug}`, { token: submitter.token });
    expect(still.body.status).toBe('pending');
  });
});
