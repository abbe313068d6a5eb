// The events counters in GET /api/stats count public upcoming events only.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../setup/harness.js';
import { createEvent, createOrganization, groveWithOrganizer } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it('counts upcoming public events, groves and organizations; not grove or friends events', async () => {
  const before = (await t.request('GET', '/api/stats')).body.events;
  expect(before).toEqual({
    upcomingPublic: expect.any(Number),
    groves: expect.any(Number),
    organizations: expect.any(Number),
  });
  const { grove, organizer, admin } = await groveWithOrganizer(t);
  await createOrganization(t, admin);
  await createEvent(t, organizer, { groveId: grove._id });
  await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'grove' });
  await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'friends' });
  t.clock.advance(6 * 60_000);
  const after = (await t.trpc().stats.get.query({})).events;
  expect(after.groves).toBeGreaterThanOrEqual(before.groves + 1);
  expect(after.organizations).toBeGreaterThanOrEqual(before.organizations + 1);
  expect(after.upcomingPublic).toBeGreaterThanOrEqual(before.upcomingPublic + 1);
});
