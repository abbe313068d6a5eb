// Push notifications for event cancellations and changes against a real Web Push service
// (push-service.ts verifies the VAPID signature and decrypts every payload): members going get
// one push per browser for a new time or place and for a cancellation, details only when they
// allowed them, never the meeting point; interested members, members who turned event updates
// off and whoever made the change get none; edits of the title or description queue nothing;
// several changes before a run make one push, a cancellation winning. The job is run by hand.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventUpdatePushKind } from '../../server/domains/events/event-update-pushes.js';
import { createEvent, groveWithOrganizer } from '../events/helpers.js';
import { createMember, type TestApp, type TestMember } from '../setup/harness.js';
import type { TestPushService } from './push-service.js';
import { usePushJobHarness } from './push-job-harness.js';

const HOUR = 3_600_000;
const harness = usePushJobHarness(eventUpdatePushKind);
const { runJob, subscribe, pushesTo } = harness;
let t: TestApp;
let push: TestPushService;
beforeAll(() => {
  ({ t, push } = harness);
});

async function queued(eventId: string): Promise<number> {
  const [row] = await t.deps.database.rows<{ n: number }>(
    sql`select count(*)::int as n from push_outbox where kind = 'eventUpdate' and subject_id = ${eventId}::uuid`,
  );
  return Number(row!.n);
}

async function rsvp(member: TestMember, eventId: string, status: 'going' | 'interested') {
  const res = await t.request('POST', `/api/events/${eventId}/rsvp`, { token: member.token, body: { status } });
  expect(res.status).toBe(200);
}

async function patch(organizer: TestMember, eventId: string, body: Record<string, unknown>) {
  const res = await t.request('PATCH', `/api/events/${eventId}`, { token: organizer.token, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe('pushes for event changes', () => {
  it('tell members going of a new time and a cancellation, once each, details only when allowed', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(
      t,
      organizer,
      { groveId: grove._id },
      { title: 'Vigil at the gates', meetingPoint: { text: 'Behind the feed store' } },
    );
    const [plain, detailed, interested, muted] = await Promise.all(
      ['pln', 'dtl', 'int', 'mut'].map((prefix) => createMember(t, { prefix })),
    );
    const endpoints = {
      plain: await subscribe(plain!),
      detailed: await subscribe(detailed!),
      interested: await subscribe(interested!),
      muted: await subscribe(muted!),
      organizer: await subscribe(organizer),
    };
    for (const m of [plain!, detailed!, muted!, organizer]) await rsvp(m, event._id, 'going');
    await rsvp(interested!, event._id, 'interested');
    await t.request('PUT', '/api/me/notification-preferences', {
      token: detailed!.token,
      body: { pushShowsDetails: true },
    });
    await t.request('PUT', '/api/me/notification-preferences', {
      token: muted!.token,
      body: { push: { eventUpdates: false } },
    });

    // Words only: nothing to announce.
    await patch(organizer, event._id, { title: 'Vigil at the north gates', description: 'Bring water.' });
    await patch(organizer, event._id, { meetingPoint: { text: 'Behind the feed store' } });
    expect(await queued(event._id)).toBe(0);

    const later = new Date(Date.parse(event.startsAt) + 2 * HOUR);
    await patch(organizer, event._id, {
      startsAt: later.toISOString(),
      endsAt: new Date(later.getTime() + 2 * HOUR).toISOString(),
    });
    expect(await runJob()).toMatchObject({ sent: 2, stale: 0, failedPushes: 0 });
    expect(push.rejected).toEqual([]);
    expect(pushesTo(endpoints.plain).map((p) => p.payload)).toEqual([
      {
        type: 'event-update',
        title: 'Event update',
        body: "An event you're going to has a new time or place.",
        eventId: event._id,
      },
    ]);
    expect(pushesTo(endpoints.detailed).map((p) => p.payload)).toEqual([
      {
        type: 'event-update',
        title: 'Vigil at the north gates',
        body: 'New time or place: open the event.',
        eventId: event._id,
        startsAt: later.toISOString(),
      },
    ]);
    for (const endpoint of [endpoints.interested, endpoints.muted, endpoints.organizer])
      expect(pushesTo(endpoint)).toEqual([]);
    const [first] = pushesTo(endpoints.plain);
    expect(first!.headers.topic).toBe(event._id.replace(/-/g, ''));
    expect(JSON.stringify(push.received)).not.toContain('feed store');

    // A new meeting point, then a cancellation, before the job runs: one push, the cancellation.
    await patch(organizer, event._id, { meetingPoint: { text: 'At the bus stop' } });
    await patch(organizer, event._id, { status: 'cancelled' });
    expect(await queued(event._id)).toBe(2);
    expect(await runJob()).toMatchObject({ sent: 2 });
    expect(pushesTo(endpoints.plain).map((p) => p.payload.body)).toEqual([
      "An event you're going to has a new time or place.",
      "An event you're going to was cancelled.",
    ]);
    expect(pushesTo(endpoints.detailed).at(-1)!.payload).toMatchObject({
      title: 'Vigil at the north gates',
      body: 'Cancelled.',
    });
    expect(pushesTo(endpoints.organizer)).toEqual([]);
    expect(await queued(event._id)).toBe(0);
    expect(JSON.stringify(push.received)).not.toContain('bus stop');
  });

  it('drops a change queued longer than the stale limit', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const member = await createMember(t);
    const endpoint = await subscribe(member);
    await rsvp(member, event._id, 'going');
    await patch(organizer, event._id, { venueName: 'The other square' });
    t.clock.advance(16 * 60_000);
    try {
      expect(await runJob()).toMatchObject({ sent: 0, stale: 1 });
    } finally {
      t.clock.advance(-16 * 60_000);
    }
    expect(pushesTo(endpoint)).toEqual([]);
  });
});
