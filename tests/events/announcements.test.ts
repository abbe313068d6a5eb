// Event announcements (issue #26): organizers send a text to the members going (and, if asked,
// waitlisted); it is stored with its audience, listed for those members while they still hold
// their RSVP, pushed (never its text) to recipients only, and rate-limited per event. Through
// REST and the typed client; each role's answer (organizer, going, waitlisted, pending,
// withdrawn, outsider, hidden event, anonymous); the retention sweep and the data export.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sentAnnouncementsSection, rsvpsSection } from '../../server/domains/data-export/sections.js';
import { eventAnnouncementPushKind } from '../../server/domains/event-announcements/pushes.js';
import { ANNOUNCEMENTS_PER_EVENT_PER_HOUR } from '../../server/domains/event-announcements/schemas.js';
import { rsvpSweep } from '../../server/domains/events/rsvp-sweep.js';
import { createJobRunner } from '../../server/jobs/runner.js';
import { usePushJobHarness } from '../notifications/push-job-harness.js';
import type { TestPushService } from '../notifications/push-service.js';
import { createMember, type TestApp, type TestMember } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from './helpers.js';

const harness = usePushJobHarness(eventAnnouncementPushKind);
const { runJob, subscribe, pushesTo } = harness;
let t: TestApp;
let push: TestPushService;
beforeAll(() => {
  ({ t, push } = harness);
});

const DAY = 86_400_000;

async function rsvp(member: TestMember, eventId: string, status: 'going' | 'interested' = 'going') {
  const res = await t.request('POST', `/api/events/${eventId}/rsvp`, { token: member.token, body: { status } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function announce(organizer: TestMember, eventId: string, body: Record<string, unknown>) {
  return t.request('POST', `/api/events/${eventId}/announcements`, { token: organizer.token, body });
}

async function list(member: TestMember | null, eventId: string) {
  return t.request('GET', `/api/events/${eventId}/announcements`, member ? { token: member.token } : {});
}

/** An event with capacity 1: `going` seated, `waiting` on the waitlist, `interested` not going. */
async function scene() {
  const { admin, grove, organizer } = await groveWithOrganizer(t);
  const event = await createEvent(t, organizer, { groveId: grove._id }, { capacity: 1 });
  const [going, waiting, interested, outsider] = await Promise.all([1, 2, 3, 4].map(() => createMember(t)));
  await rsvp(going!, event._id);
  await rsvp(waiting!, event._id);
  await rsvp(interested!, event._id, 'interested');
  return {
    admin,
    grove,
    organizer,
    event,
    going: going!,
    waiting: waiting!,
    interested: interested!,
    outsider: outsider!,
  };
}

describe('sending an announcement', () => {
  it('stores it for the members going (REST + typed client); waitlisted ones only when asked', async () => {
    const s = await scene();
    const first = await announce(s.organizer, s.event._id, { text: '  Meet at the north entrance.  ' });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toEqual({
      _id: expect.any(String),
      eventId: s.event._id,
      text: 'Meet at the north entrance.',
      audience: 'going',
      createdAt: expect.any(String),
      author: s.organizer.handle,
      recipientCount: 1,
    });
    const second = await t
      .trpc(s.organizer.token)
      .events.createAnnouncement.mutate({ id: s.event._id, text: 'Bring water.', includeWaitlisted: true });
    expect(second).toMatchObject({ audience: 'goingAndWaitlisted', recipientCount: 2 });

    // Organizers: everything, newest first, with author and count.
    const all = await list(s.organizer, s.event._id);
    expect(all.status).toBe(200);
    expect(all.body.items.map((a: any) => a.text)).toEqual(['Bring water.', 'Meet at the north entrance.']);
    expect(all.body.nextCursor).toBeNull();
    // Going: both, without author or count.
    const seen = await t.trpc(s.going.token).events.listAnnouncements.query({ id: s.event._id });
    expect(seen.items.map((a) => a.text)).toEqual(['Bring water.', 'Meet at the north entrance.']);
    for (const item of seen.items) {
      expect(item).not.toHaveProperty('author');
      expect(item).not.toHaveProperty('recipientCount');
    }
    // Waitlisted: only the one that included the waitlist.
    expect((await list(s.waiting, s.event._id)).body.items.map((a: any) => a.text)).toEqual(['Bring water.']);
  });

  it('pages newest first with the list envelope', async () => {
    const s = await scene();
    for (const text of ['one', 'two', 'three'])
      expect((await announce(s.organizer, s.event._id, { text })).status).toBe(201);
    const page1 = await t.request('GET', `/api/events/${s.event._id}/announcements?limit=2`, { token: s.going.token });
    expect(page1.body.items.map((a: any) => a.text)).toEqual(['three', 'two']);
    const page2 = await t.request(
      'GET',
      `/api/events/${s.event._id}/announcements?limit=2&cursor=${page1.body.nextCursor}`,
      { token: s.going.token },
    );
    expect(page2.body).toMatchObject({ items: [{ text: 'one' }], nextCursor: null });
  });

  it('answers each role: 403 for non-organizers who see the event, 404 for a hidden one, 401 anonymous', async () => {
    const s = await scene();
    const body = { text: 'Hello' };
    for (const member of [s.going, s.waiting, s.interested, s.outsider, s.admin]) {
      const res = await announce(member, s.event._id, body);
      expect(res.status, member.handle).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    expect((await t.request('POST', `/api/events/${s.event._id}/announcements`, { body })).status).toBe(401);
    await expect(
      t.trpc(s.going.token).events.createAnnouncement.mutate({ id: s.event._id, ...body }),
    ).rejects.toMatchObject({
      data: { code: 'forbidden', httpStatus: 403 },
    });
    // Listing: interested, outsiders and site admins (not organizers) 403; anonymous 401.
    for (const member of [s.interested, s.outsider, s.admin])
      expect((await list(member, s.event._id)).status).toBe(403);
    expect((await list(null, s.event._id)).status).toBe(401);

    // A grove-only event: a non-member cannot tell it exists (same 404 as an unknown id).
    const hidden = await createEvent(t, s.organizer, { groveId: s.grove._id }, { visibility: 'grove' });
    const unknown = '01900000-0000-7000-8000-000000000000';
    for (const id of [hidden._id, unknown]) {
      const sent = await announce(s.outsider, id, body);
      const listed = await list(s.outsider, id);
      expect([sent.status, listed.status]).toEqual([404, 404]);
      expect(sent.body).toEqual((await announce(s.outsider, unknown, body)).body);
    }
    // Validation: empty or too long text.
    expect((await announce(s.organizer, s.event._id, { text: '   ' })).status).toBe(400);
    expect((await announce(s.organizer, s.event._id, { text: 'x'.repeat(2001) })).status).toBe(400);
  });

  it('leaves out pending RSVPs and the sender; a member who withdraws lists nothing any more', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(
      t,
      organizer,
      { groveId: grove._id },
      { meetingPoint: { text: 'Gate 3' }, meetingPointVisibility: 'rsvp', rsvpApproval: true },
    );
    const [approved, pending] = await Promise.all([createMember(t), createMember(t)]);
    await rsvp(approved!, event._id);
    await rsvp(pending!, event._id);
    await rsvp(organizer, event._id);
    expect(
      (await t.request('PUT', `/api/events/${event._id}/rsvps/${approved!.handle}/approve`, { token: organizer.token }))
        .status,
    ).toBe(200);
    const sent = await announce(organizer, event._id, { text: 'Gate 3 is closed, use gate 4.' });
    expect(sent.body.recipientCount).toBe(1);
    expect((await list(pending!, event._id)).status).toBe(403);
    expect((await list(approved!, event._id)).body.items).toHaveLength(1);

    expect((await t.request('DELETE', `/api/events/${event._id}/rsvp`, { token: approved!.token })).status).toBe(200);
    expect((await list(approved!, event._id)).status).toBe(403);
    // Going again: what was sent to them lists again; what was sent while they were away does not.
    await announce(organizer, event._id, { text: 'Sent while away.' });
    await rsvp(approved!, event._id);
    await t.request('PUT', `/api/events/${event._id}/rsvps/${approved!.handle}/approve`, { token: organizer.token });
    expect((await list(approved!, event._id)).body.items.map((a: any) => a.text)).toEqual([
      'Gate 3 is closed, use gate 4.',
    ]);
  });

  it('is allowed on a cancelled event, refused (409) once the event is over', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const cancelled = await createEvent(t, organizer, { groveId: grove._id });
    const going = await createMember(t);
    await rsvp(going, cancelled._id);
    const cancel = await t.request('PATCH', `/api/events/${cancelled._id}`, {
      token: organizer.token,
      body: { status: 'cancelled' },
    });
    expect(cancel.status).toBe(200);
    const res = await announce(organizer, cancelled._id, { text: 'Cancelled because of the storm.' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.recipientCount).toBe(1);

    const start = t.clock.now().getTime() - 3 * 3_600_000;
    const over = await createEvent(t, organizer, { groveId: grove._id });
    await t.deps.database.rows(
      sql`update events set starts_at = ${new Date(start).toISOString()}::timestamptz, ends_at = ${new Date(start + 3_600_000).toISOString()}::timestamptz where id = ${over._id}::uuid`,
    );
    const late = await announce(organizer, over._id, { text: 'Thanks for coming!' });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('conflict');
  });

  it(`takes ${ANNOUNCEMENTS_PER_EVENT_PER_HOUR} per event per hour (shared by its organizers), then 429 with Retry-After`, async () => {
    const { admin, grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const other = await createEvent(t, organizer, { groveId: grove._id });
    const second = await createMember(t);
    await t.request('POST', `/api/admin/groves/${grove._id}/organizers`, {
      token: admin.token,
      body: { handle: second.handle },
    });
    for (let i = 0; i < ANNOUNCEMENTS_PER_EVENT_PER_HOUR; i++)
      expect((await announce(i % 2 ? second : organizer, event._id, { text: `note ${i}` })).status).toBe(201);
    const refused = await announce(second, event._id, { text: 'one more' });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    await expect(
      t.trpc(organizer.token).events.createAnnouncement.mutate({ id: event._id, text: 'and more' }),
    ).rejects.toMatchObject({ data: { code: 'rate_limited', httpStatus: 429 } });
    // Another event of the same organizers is not held back.
    expect((await announce(organizer, other._id, { text: 'elsewhere' })).status).toBe(201);
    t.clock.advance(3_601_000);
    expect((await announce(organizer, event._id, { text: 'an hour later' })).status).toBe(201);
  });
});

describe('the announcement push', () => {
  it('goes to recipients who still hold their RSVP, never with the text, never to the withdrawn', async () => {
    const s = await scene();
    // Seated members only (no waitlist): one stays, one withdraws before the push is sent.
    const open = await createEvent(t, s.organizer, { groveId: s.grove._id });
    const leaving = await createMember(t);
    for (const m of [s.going, leaving]) await rsvp(m, open._id);
    await rsvp(s.interested, open._id, 'interested');
    const [going, interested, left, organizer] = await Promise.all(
      [s.going, s.interested, leaving, s.organizer].map((m) => subscribe(m)),
    );
    const sent = await announce(s.organizer, open._id, { text: 'Secret plan: meet at the fountain.' });
    expect(sent.body.recipientCount).toBe(2);
    expect((await t.request('DELETE', `/api/events/${open._id}/rsvp`, { token: leaving.token })).status).toBe(200);
    await runJob();
    expect(pushesTo(going!).map((p) => p.payload)).toEqual([
      {
        type: 'event-announcement',
        eventId: open._id,
        announcementId: sent.body._id,
        title: 'Event announcement',
        body: "The organizers of an event you're going to sent an announcement.",
      },
    ]);
    for (const endpoint of [interested!, left!, organizer!]) expect(pushesTo(endpoint)).toEqual([]);
    expect(JSON.stringify(push.received)).not.toContain('fountain');
  });

  it('respects push.eventUpdates and shows the event title only with pushShowsDetails', async () => {
    const s = await scene();
    const endpoint = await subscribe(s.going);
    const waitingEndpoint = await subscribe(s.waiting);
    await t.request('PUT', '/api/me/notification-preferences', {
      token: s.going.token,
      body: { pushShowsDetails: true },
    });
    await t.request('PUT', '/api/me/notification-preferences', {
      token: s.waiting.token,
      body: { push: { eventUpdates: false } },
    });
    await announce(s.organizer, s.event._id, { text: 'Hello all', includeWaitlisted: true });
    await runJob();
    expect(pushesTo(endpoint).map((p) => p.payload)).toEqual([
      expect.objectContaining({ title: s.event.title, body: 'The organizers sent an announcement.' }),
    ]);
    expect(pushesTo(waitingEndpoint)).toEqual([]);
  });
});

describe('retention and export', () => {
  it('goes with the RSVPs 30 days after the event; the sender exports their own announcements', async () => {
    const s = await scene();
    const sent = await announce(s.organizer, s.event._id, { text: 'Export me' });
    const reader = { db: t.deps.database.db, database: t.deps.database, now: t.clock.now() } as any;
    expect(await sentAnnouncementsSection({ ...reader, userId: s.organizer.id })).toEqual([
      expect.objectContaining({ _id: sent.body._id, text: 'Export me', audience: 'going', recipientCount: 1 }),
    ]);
    expect(await sentAnnouncementsSection({ ...reader, userId: s.going.id })).toEqual([]);
    expect((await rsvpsSection({ ...reader, userId: s.going.id }))[0]).toMatchObject({ checkedInAt: null });

    t.clock.advance(33 * DAY);
    await createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [rsvpSweep]).runOnce(
      rsvpSweep,
    );
    const [left] = await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from event_announcements where event_id = ${s.event._id}::uuid`,
    );
    expect(Number(left!.n)).toBe(0);
  });
});
