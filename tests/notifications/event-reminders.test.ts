// The event reminder job against a real Web Push service (tests/notifications/push-service.ts):
// the test's server verifies the VAPID signature and decrypts each payload with the keys of the
// subscription it generated. The job is driven by the manual clock. Members on an event's
// waitlist get no reminder (they have no seat).
import { sql } from 'drizzle-orm';
import webPush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventReminderJob, eventReminderPushKind } from '../../server/domains/events/event-reminders.js';
import { createJobRunner } from '../../server/jobs/runner.js';
import { createWebPushSender } from '../../server/push/web-push.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from '../events/helpers.js';
import { makeFriends } from '../friends/helpers.js';
import { outboxJobOf } from './push-job-harness.js';
import { startTestPushService, subscribeBrowser, type TestPushService, webPushTestConfig } from './push-service.js';

const HOUR = 3_600_000;
let t: TestApp;
let push: TestPushService;
const vapid = webPush.generateVAPIDKeys();
let start: Date;

beforeAll(async () => {
  t = await createTestApp(webPushTestConfig(vapid));
  push = await startTestPushService();
  start = t.clock.now();
});
afterAll(async () => {
  t.clock.set(start);
  await push.close();
  await t.close();
});

/** The reminder scan, then the push outbox job that sends what it queued; both summaries. */
function reminderJob() {
  const job = createEventReminderJob({
    push: createWebPushSender({ config: t.config, log: t.deps.log }),
    database: t.deps.database,
  });
  const outbox = outboxJobOf(t, [eventReminderPushKind]);
  const runner = createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [job, outbox]);
  return {
    job,
    run: async () => ({ ...(await runner.runOnce(job)), ...(await runner.runOnce(outbox)) }),
  };
}

const subscribe = (member: TestMember) => subscribeBrowser(t, push, member);

async function rsvp(member: TestMember, eventId: string, status: 'going' | 'interested') {
  const res = await t.request('POST', `/api/events/${eventId}/rsvp`, { token: member.token, body: { status } });
  expect(res.status).toBe(200);
}

const pushesTo = (endpoint: string) => push.received.filter((p) => p.endpoint === endpoint);

async function deliveries(eventId: string) {
  const rows = await t.deps.database.rows<{ n: number }>(
    sql`select count(*)::int as n from event_reminder_deliveries where event_id = ${eventId}`,
  );
  return Number(rows[0]!.n);
}

describe('event reminders', () => {
  it('reach going members ~24 h ahead, once, with details only when allowed; gone subscriptions are deleted', async () => {
    t.clock.set(start);
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { title: 'Vigil for the hens' });
    const startsAt = Date.parse(event.startsAt);
    const [plain, detailed, interested, muted, unsubscribed, twoDevices] = await Promise.all(
      ['pln', 'dtl', 'int', 'mut', 'uns', 'two'].map((prefix) => createMember(t, { prefix })),
    );
    const endpoints = {
      plain: await subscribe(plain!),
      detailed: await subscribe(detailed!),
      interested: await subscribe(interested!),
      muted: await subscribe(muted!),
      unsubscribed: await subscribe(unsubscribed!),
      phone: await subscribe(twoDevices!),
      laptop: await subscribe(twoDevices!),
    };
    for (const m of [plain, detailed, muted, unsubscribed, twoDevices]) await rsvp(m!, event._id, 'going');
    await rsvp(interested!, event._id, 'interested');
    await t.request('PUT', '/api/me/notification-preferences', {
      token: detailed!.token,
      body: { pushShowsDetails: true },
    });
    await t.request('PUT', '/api/me/notification-preferences', {
      token: muted!.token,
      body: { push: { eventReminders: false } },
    });
    push.answer(endpoints.unsubscribed, 410);
    const { run } = reminderJob();

    // More than 24 h ahead: nothing yet.
    t.clock.set(new Date(startsAt - 24 * HOUR - 60_000));
    await run();
    expect(push.received.filter((p) => p.payload.eventId === event._id)).toEqual([]);

    t.clock.set(new Date(startsAt - 24 * HOUR + 60_000));
    const summary = await run();
    expect(summary).toMatchObject({ goneSubscriptions: 1 });
    expect(push.rejected).toEqual([]);

    const [toPlain] = pushesTo(endpoints.plain);
    expect(pushesTo(endpoints.plain)).toHaveLength(1);
    // No personal data by default: a generic text and the event id.
    expect(toPlain!.payload).toEqual({
      type: 'event-reminder',
      title: 'Event reminder',
      body: "An event you're going to starts in about 24 hours.",
      eventId: event._id,
    });
    expect(JSON.stringify(toPlain!.payload)).not.toContain('hens');
    expect(toPlain!.vapidPublicKey).toBe(vapid.publicKey);
    expect(toPlain!.headers.encoding).toBe('aes128gcm');
    expect(Number(toPlain!.headers.ttl)).toBeGreaterThan(23 * 3600);
    expect(Number(toPlain!.headers.ttl)).toBeLessThanOrEqual(24 * 3600);
    expect(toPlain!.headers.topic).toBe(event._id.replace(/-/g, ''));

    expect(pushesTo(endpoints.detailed).map((p) => p.payload)).toEqual([
      {
        type: 'event-reminder',
        title: 'Vigil for the hens',
        // The start in the member's zone, named: UTC, as they chose none (push-languages.test.ts: others).
        body: `Starts in about 24 hours: ${new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(startsAt)} (UTC).`,
        eventId: event._id,
        startsAt: event.startsAt,
      },
    ]);
    expect(pushesTo(endpoints.phone)).toHaveLength(1);
    expect(pushesTo(endpoints.laptop)).toHaveLength(1);
    expect(pushesTo(endpoints.interested)).toEqual([]);
    expect(pushesTo(endpoints.muted)).toEqual([]);
    // The push service said 410: that subscription is gone from the database.
    expect((await t.trpc(unsubscribed!.token).pushTokens.list.query({})).items).toEqual([]);
    expect(await deliveries(event._id)).toBe(3);

    // Sent once: later runs, and a fresh job as after a restart, send nothing more.
    t.clock.advance(HOUR);
    await run();
    await reminderJob().run();
    expect(push.received.filter((p) => p.payload.eventId === event._id)).toHaveLength(4);

    // Rows go once the event has ended.
    t.clock.set(new Date(Date.parse(event.endsAt) + 1000));
    await run();
    expect(await deliveries(event._id)).toBe(0);
  });

  it('retries a member whose push service failed, and skips events they can no longer see', async () => {
    t.clock.set(start);
    const { grove, organizer } = await groveWithOrganizer(t);
    const [flaky, friend] = await Promise.all([createMember(t, { prefix: 'flk' }), createMember(t, { prefix: 'frn' })]);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    await makeFriends(t, organizer, friend);
    const friendsOnly = await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'friends' });
    const flakyEndpoint = await subscribe(flaky);
    const friendEndpoint = await subscribe(friend);
    await rsvp(flaky, event._id, 'going');
    await rsvp(friend, friendsOnly._id, 'going');
    // The friendship ends before the reminder: the friends-only event is no longer theirs to see.
    await t.request('DELETE', `/api/friends/${organizer.id}`, { token: friend.token });
    push.answer(flakyEndpoint, 500);
    const { run } = reminderJob();

    t.clock.set(new Date(Date.parse(event.startsAt) - 23 * HOUR));
    const first = await run();
    expect(first?.failedPushes).toBeGreaterThanOrEqual(1);
    // The claim stays while the push outbox retries the member (after its backoff).
    expect(first).toMatchObject({ retried: 1 });
    expect(await deliveries(event._id)).toBe(1);
    expect(pushesTo(friendEndpoint)).toEqual([]);

    push.answer(flakyEndpoint, 201);
    t.clock.advance(HOUR);
    await run();
    expect(pushesTo(flakyEndpoint).map((p) => p.payload.body)).toEqual([
      "An event you're going to starts in about 22 hours.",
    ]);
    expect(await deliveries(event._id)).toBe(1);
    expect(pushesTo(friendEndpoint)).toEqual([]);
  });

  it('does nothing for a cancelled event or one that already started', async () => {
    t.clock.set(start);
    const { grove, organizer } = await groveWithOrganizer(t);
    const member = await createMember(t, { prefix: 'cnl' });
    const cancelled = await createEvent(t, organizer, { groveId: grove._id });
    const endpoint = await subscribe(member);
    await rsvp(member, cancelled._id, 'going');
    const cancel = await t.request('PATCH', `/api/events/${cancelled._id}`, {
      token: organizer.token,
      body: { status: 'cancelled' },
    });
    expect(cancel.status).toBe(200);
    const { run } = reminderJob();
    t.clock.set(new Date(Date.parse(cancelled.startsAt) - 2 * HOUR));
    await run();
    t.clock.set(new Date(Date.parse(cancelled.startsAt) + 60_000));
    await run();
    expect(pushesTo(endpoint)).toEqual([]);
  });

  it('skips members still on the waitlist (events with a capacity)', async () => {
    t.clock.set(start);
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { capacity: 1 });
    const [seated, waiting] = await Promise.all(['sit', 'wai'].map((prefix) => createMember(t, { prefix })));
    const seatedEndpoint = await subscribe(seated!);
    const waitingEndpoint = await subscribe(waiting!);
    await rsvp(seated!, event._id, 'going');
    await rsvp(waiting!, event._id, 'going');
    const { run } = reminderJob();
    t.clock.set(new Date(Date.parse(event.startsAt) - 24 * HOUR + 60_000));
    await run();
    expect(pushesTo(seatedEndpoint)).toHaveLength(1);
    expect(pushesTo(waitingEndpoint)).toEqual([]);
  });
});

describe('VAPID keys', () => {
  it('sends with the configured key pair (checked by the push service above)', () => {
    expect(push.received.every((p) => p.vapidPublicKey === vapid.publicKey)).toBe(true);
  });
});
