// The events counters in GET /api/stats count public upcoming events only. The file starts on
// an empty database of its own (tests/setup/database.ts), so the counts are exact.
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
  expect(before).toEqual({ upcomingPublic: 0, groves: 0, organizations: 0 });
  const { grove, organizer, admin } = await groveWithOrganizer(t);
  await createOrganization(t, admin);
  await createEvent(t, organizer, { groveId: grove._id });
  await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'grove' });
  await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'friends' });
  t.clock.advance(6 * 60_000);
  const after = (await t.trpc().stats.get.query({})).events;
  expect(after).toEqual({ upcomingPublic: 1, groves: 1, organizations: 1 });

  // An event that has ended and a cancelled one are not upcoming.
  const soon = t.clock.now().getTime() + 3_600_000;
  await createEvent(
    t,
    organizer,
    { groveId: grove._id },
    {
      startsAt: new Date(soon).toISOString(),
      endsAt: new Date(soon + 3_600_000).toISOString(),
    },
  );
  const cancelled = await createEvent(t, organizer, { groveId: grove._id });
  const cancel = await t.request('PATCH', `/api/events/${cancelled._id}`, {
    token: organizer.token,
    body: { status: 'cancelled' },
  });
  expect(cancel.status).toBe(200);
  t.clock.advance(6 * 60_000);
  expect((await t.request('GET', '/api/stats')).body.events).toEqual({
    upcomingPublic: 2,
    groves: 1,
    organizations: 1,
  });
  t.clock.advance(3 * 3_600_000);
  expect((await t.request('GET', '/api/stats')).body.events).toEqual({
    upcomingPublic: 1,
    groves: 1,
    organizations: 1,
  });
});
