// Event capacity and the waitlist (issue #26): organizers set `capacity` on create and PATCH
// (REST and the typed client; 400 for values that are not whole numbers ≥ 1, 403 for members);
// a `going` RSVP to a full event waits (`myRsvp: waitlisted`, a position, counted apart); a
// withdrawal, a change to `interested`, a decline or a raised capacity promotes the first waiting,
// in order, with a push; a lowered capacity demotes nobody; waitlisted members never see an
// RSVP-only meeting point; pending RSVPs (events with approval) hold seats.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { waitlistPromotedPushKind } from '../../server/domains/events/waitlist.js';
import { usePushJobHarness } from '../notifications/push-job-harness.js';
import type { TestPushService } from '../notifications/push-service.js';
import { createMember, type TestApp, type TestMember } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from './helpers.js';

const harness = usePushJobHarness(waitlistPromotedPushKind);
const { runJob, subscribe, pushesTo } = harness;
let t: TestApp;
let push: TestPushService;
beforeAll(() => {
  ({ t, push } = harness);
});

async function rsvp(member: TestMember, eventId: string, status: 'going' | 'interested') {
  const res = await t.request('POST', `/api/events/${eventId}/rsvp`, { token: member.token, body: { status } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function mine(member: TestMember, slug: string) {
  const res = await t.request('GET', `/api/events/${slug}`, { token: member.token });
  expect(res.status).toBe(200);
  return res.body as { myRsvp: string | null; myWaitlistPosition: number | null; [k: string]: any };
}

async function members(n: number) {
  return Promise.all(Array.from({ length: n }, () => createMember(t)));
}

async function queued(eventId: string) {
  const rows = await t.deps.database.rows<{ recipient_id: string }>(
    sql`select recipient_id from push_outbox where kind = 'waitlistPromoted' and subject_id = ${eventId}::uuid order by id`,
  );
  return rows.map((r) => r.recipient_id);
}

describe('event capacity', () => {
  it('is set on create and PATCH by organizers (REST + typed client), shown on the event', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { capacity: 3 });
    expect(event).toMatchObject({ capacity: 3, seatsLeft: 3, rsvpCounts: { going: 0, interested: 0, waitlisted: 0 } });
    const unlimited = await createEvent(t, organizer, { groveId: grove._id });
    expect(unlimited).toMatchObject({ capacity: null, seatsLeft: null, myWaitlistPosition: null });

    const patched = await t.trpc(organizer.token).events.update.mutate({ event: event._id, capacity: 5 });
    expect(patched).toMatchObject({ capacity: 5, seatsLeft: 5 });
    const cleared = await t.request('PATCH', `/api/events/${event._id}`, {
      token: organizer.token,
      body: { capacity: null },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ capacity: null, seatsLeft: null });
    const viaClient = await t.trpc(organizer.token).events.get.query({ event: event.slug });
    expect(viaClient.capacity).toBeNull();
  });

  it('refuses capacities that are not whole numbers of at least 1 (400, documented envelope)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    for (const capacity of [0, -1, 2.5, '10']) {
      const created = await t.request('POST', '/api/events', {
        token: organizer.token,
        body: {
          groveId: grove._id,
          title: 'Too small',
          type: 'vigil',
          startsAt: event.startsAt,
          endsAt: event.endsAt,
          area: 'Testville',
          capacity,
        },
      });
      expect(created.status).toBe(400);
      expect(created.body.error).toMatchObject({ code: 'validation_failed' });
      const patched = await t.request('PATCH', `/api/events/${event._id}`, {
        token: organizer.token,
        body: { capacity },
      });
      expect(patched.status).toBe(400);
      expect(patched.body.error.code).toBe('validation_failed');
    }
    await expect(t.trpc(organizer.token).events.update.mutate({ event: event._id, capacity: 0 })).rejects.toThrow();
  });

  it('only organizers set it: 403 for a member who sees the event, nothing changes', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { capacity: 2 });
    const [member] = await members(1);
    const res = await t.request('PATCH', `/api/events/${event._id}`, { token: member!.token, body: { capacity: 50 } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    await expect(t.trpc(member!.token).events.update.mutate({ event: event._id, capacity: 50 })).rejects.toThrow();
    expect((await mine(member!, event.slug)).capacity).toBe(2);
  });

  it('waitlists going RSVPs to a full event in order; counts; withdrawal promotes the first with a push', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { capacity: 2 });
    const [a, b, c, d, e] = await members(5);
    const endpointC = await subscribe(c!);
    const endpointD = await subscribe(d!);
    expect(await rsvp(a!, event._id, 'going')).toMatchObject({ myRsvp: 'going', myWaitlistPosition: null });
    await rsvp(b!, event._id, 'going');
    // Full: the request says going, the answer says waitlisted with a place in the queue.
    expect(await rsvp(c!, event._id, 'going')).toMatchObject({
      myRsvp: 'waitlisted',
      myWaitlistPosition: 1,
      rsvpCounts: { going: 2, interested: 0, waitlisted: 1 },
    });
    const viaClient = await t.trpc(d!.token).events.rsvp.mutate({ id: event._id, status: 'going' });
    expect(viaClient).toMatchObject({ myRsvp: 'waitlisted', myWaitlistPosition: 2 });
    // Interested RSVPs need no seat.
    expect(await rsvp(e!, event._id, 'interested')).toMatchObject({
      myRsvp: 'interested',
      rsvpCounts: { going: 2, interested: 1, waitlisted: 2 },
    });
    expect(await mine(d!, event.slug)).toMatchObject({ myRsvp: 'waitlisted', myWaitlistPosition: 2, seatsLeft: 0 });
    // Saying going again keeps one's place.
    expect(await rsvp(d!, event._id, 'going')).toMatchObject({ myWaitlistPosition: 2 });

    // Everyone sees the counts; nobody but the member sees their own position.
    const anonymous = await t.request('GET', `/api/events/${event.slug}`);
    expect(anonymous.body).toMatchObject({
      rsvpCounts: { going: 2, interested: 1, waitlisted: 2 },
      myRsvp: null,
      myWaitlistPosition: null,
    });

    // A withdrawal promotes the first waiting (c), not d.
    const withdrawn = await t.request('DELETE', `/api/events/${event._id}/rsvp`, { token: a!.token });
    expect(withdrawn.body).toMatchObject({ myRsvp: null, rsvpCounts: { going: 2, waitlisted: 1 } });
    expect(await mine(c!, event.slug)).toMatchObject({ myRsvp: 'going', myWaitlistPosition: null });
    expect(await mine(d!, event.slug)).toMatchObject({ myRsvp: 'waitlisted', myWaitlistPosition: 1 });
    expect(await queued(event._id)).toEqual([c!.id]);
    expect(await runJob()).toMatchObject({ sent: 1, failedPushes: 0 });
    expect(push.rejected).toEqual([]);
    expect(pushesTo(endpointC).map((p) => p.payload)).toEqual([
      {
        type: 'waitlist-promoted',
        title: 'Off the waitlist',
        body: "A seat freed up at an event you waited for: you're going.",
        eventId: event._id,
      },
    ]);
    expect(pushesTo(endpointD)).toEqual([]);

    // A change from going to interested frees a seat too: d is promoted.
    await rsvp(b!, event._id, 'interested');
    expect(await mine(d!, event.slug)).toMatchObject({ myRsvp: 'going' });
    expect(await queued(event._id)).toEqual([d!.id]);
    await runJob();
    expect(pushesTo(endpointD)).toHaveLength(1);
    // Going again after leaving the seat: to the back of the queue.
    expect(await rsvp(b!, event._id, 'going')).toMatchObject({ myRsvp: 'waitlisted', myWaitlistPosition: 1 });
  });

  it('a raised capacity promotes in order; a lowered one demotes nobody', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { capacity: 1 });
    const [a, b, c, d] = await members(4);
    for (const m of [a!, b!, c!, d!]) await rsvp(m, event._id, 'going');
    expect((await mine(a!, event.slug)).rsvpCounts).toEqual({ going: 1, interested: 0, waitlisted: 3 });
    const raised = await t.request('PATCH', `/api/events/${event._id}`, {
      token: organizer.token,
      body: { capacity: 3 },
    });
    expect(raised.body).toMatchObject({ capacity: 3, seatsLeft: 0, rsvpCounts: { going: 3, waitlisted: 1 } });
    expect((await mine(b!, event.slug)).myRsvp).toBe('going');
    expect((await mine(c!, event.slug)).myRsvp).toBe('going');
    expect(await mine(d!, event.slug)).toMatchObject({ myRsvp: 'waitlisted', myWaitlistPosition: 1 });
    expect(await queued(event._id)).toEqual([b!.id, c!.id]);

    const lowered = await t.request('PATCH', `/api/events/${event._id}`, {
      token: organizer.token,
      body: { capacity: 1 },
    });
    expect(lowered.body).toMatchObject({ capacity: 1, seatsLeft: 0, rsvpCounts: { going: 3, waitlisted: 1 } });
    // One leaves: still two going for one seat, so d keeps waiting.
    await t.request('DELETE', `/api/events/${event._id}/rsvp`, { token: a!.token });
    expect((await mine(d!, event.slug)).myRsvp).toBe('waitlisted');
    // Unlimited again: everyone waiting is seated.
    await t.request('PATCH', `/api/events/${event._id}`, { token: organizer.token, body: { capacity: null } });
    expect((await mine(d!, event.slug)).myRsvp).toBe('going');
  });

  it('attendee lists show the waitlist apart, with positions, to organizers only', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { capacity: 1 });
    const [a, b, c] = await members(3);
    for (const m of [a!, b!, c!]) await rsvp(m, event._id, 'going');
    const all = await t.request('GET', `/api/events/${event._id}/attendees`, { token: organizer.token });
    expect(all.status).toBe(200);
    const byHandle = Object.fromEntries(
      all.body.items.map((i: { handle: string; waitlistPosition: number | null }) => [i.handle, i.waitlistPosition]),
    );
    expect(byHandle).toEqual({ [a!.handle]: null, [b!.handle]: 1, [c!.handle]: 2 });
    const waitlist = await t.trpc(organizer.token).events.attendees.query({ id: event._id, waitlisted: 'true' });
    expect(waitlist.items.map((i) => [i.handle, i.waitlistPosition])).toEqual([
      [b!.handle, 1],
      [c!.handle, 2],
    ]);
    const seated = await t.request('GET', `/api/events/${event._id}/attendees?waitlisted=false`, {
      token: organizer.token,
    });
    expect(seated.body.items.map((i: { handle: string }) => i.handle)).toEqual([a!.handle]);
    const refused = await t.request('GET', `/api/events/${event._id}/attendees?waitlisted=true`, { token: b!.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
  });

  it('keeps an RSVP-only meeting point from waitlisted members; pending RSVPs hold seats; a decline promotes', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const open = await createEvent(
      t,
      organizer,
      { groveId: grove._id },
      { capacity: 1, meetingPoint: { text: 'Side gate' }, meetingPointVisibility: 'rsvp', rsvpApproval: false },
    );
    const [a, b] = await members(2);
    await rsvp(a!, open._id, 'going');
    await rsvp(b!, open._id, 'going');
    expect(await mine(a!, open.slug)).toMatchObject({ meetingPoint: { text: 'Side gate' }, meetingPointHidden: false });
    expect(await mine(b!, open.slug)).toMatchObject({
      myRsvp: 'waitlisted',
      meetingPoint: null,
      meetingPointHidden: true,
    });
    await t.request('DELETE', `/api/events/${open._id}/rsvp`, { token: a!.token });
    expect(await mine(b!, open.slug)).toMatchObject({ myRsvp: 'going', meetingPoint: { text: 'Side gate' } });

    // With approval: the pending RSVP holds the seat; the next waits; a decline seats the next,
    // who then waits for approval like anyone.
    const approval = await createEvent(
      t,
      organizer,
      { groveId: grove._id },
      { capacity: 1, meetingPoint: { text: 'Back door' }, meetingPointVisibility: 'rsvp' },
    );
    const [p, q] = await members(2);
    expect(await rsvp(p!, approval._id, 'going')).toMatchObject({ myRsvp: 'going', myRsvpPending: true });
    expect(await rsvp(q!, approval._id, 'going')).toMatchObject({ myRsvp: 'waitlisted', myRsvpPending: true });
    expect(await mine(q!, approval.slug)).toMatchObject({ seatsLeft: 0, rsvpCounts: { going: 0, waitlisted: 0 } });
    const declined = await t.request('PUT', `/api/events/${approval._id}/rsvps/${p!.handle}/decline`, {
      token: organizer.token,
    });
    expect(declined.status).toBe(200);
    expect(await mine(q!, approval.slug)).toMatchObject({
      myRsvp: 'going',
      myRsvpPending: true,
      meetingPointHidden: true,
    });
    await t.request('PUT', `/api/events/${approval._id}/rsvps/${q!.handle}/approve`, { token: organizer.token });
    expect(await mine(q!, approval.slug)).toMatchObject({ myRsvp: 'going', meetingPoint: { text: 'Back door' } });
  });

  it('promotes nobody once the event is cancelled', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { capacity: 1 });
    const [a, b] = await members(2);
    await rsvp(a!, event._id, 'going');
    await rsvp(b!, event._id, 'going');
    await t.request('PATCH', `/api/events/${event._id}`, { token: organizer.token, body: { status: 'cancelled' } });
    await t.request('DELETE', `/api/events/${event._id}/rsvp`, { token: a!.token });
    expect((await mine(b!, event.slug)).myRsvp).toBe('waitlisted');
    expect(await queued(event._id)).toEqual([]);
  });

  it("a grove ban frees the banned member's seat for the first waiting; a newcomer never jumps the queue", async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { capacity: 1 });
    const [a, b, c, d] = await members(4);
    for (const m of [a!, b!, c!]) await rsvp(m, event._id, 'going');
    const ban = await t.request('POST', `/api/groves/${grove._id}/bans`, {
      token: organizer.token,
      body: { handle: a!.handle },
    });
    expect(ban.status).toBeLessThan(300);
    expect(await mine(b!, event.slug)).toMatchObject({ myRsvp: 'going' });
    expect(await mine(c!, event.slug)).toMatchObject({ myRsvp: 'waitlisted', myWaitlistPosition: 1 });
    expect(await queued(event._id)).toEqual([b!.id]);

    // A seat freed without a promotion (as when an account is deleted): the next RSVP queues
    // behind c, and c gets the seat.
    await t.deps.database.rows(
      sql`delete from event_rsvps where event_id = ${event._id}::uuid and user_id = ${b!.id}::uuid`,
    );
    expect(await rsvp(d!, event._id, 'going')).toMatchObject({ myRsvp: 'waitlisted', myWaitlistPosition: 1 });
    expect(await mine(c!, event.slug)).toMatchObject({ myRsvp: 'going' });
    expect(await queued(event._id)).toEqual([b!.id, c!.id]);
  });

  it("a deleted account's seat passes to the first waiting member, with a push; its waiting place goes", async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { capacity: 1 });
    const other = await createEvent(t, organizer, { groveId: grove._id }, { capacity: 1 });
    const [a, b, c] = await members(3);
    for (const m of [a!, b!, c!]) await rsvp(m, event._id, 'going');
    await rsvp(c!, other._id, 'going');
    await rsvp(a!, other._id, 'going');

    const deleted = await t.request('DELETE', '/api/me', { token: a!.token });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await mine(b!, event.slug)).toMatchObject({ myRsvp: 'going', myWaitlistPosition: null });
    expect(await mine(c!, event.slug)).toMatchObject({ myRsvp: 'waitlisted', myWaitlistPosition: 1 });
    expect(await queued(event._id)).toEqual([b!.id]);
    // In the other event the deleted member only waited: nobody moves, nobody is told.
    expect(await mine(c!, other.slug)).toMatchObject({ myRsvp: 'going' });
    expect(await queued(other._id)).toEqual([]);

    const viaClient = await t.trpc(b!.token).me.delete.mutate({});
    expect(viaClient).toEqual({ ok: true });
    expect(await mine(c!, event.slug)).toMatchObject({ myRsvp: 'going' });
    // b's own promotion push went with b's account.
    expect(await queued(event._id)).toEqual([c!.id]);
  });
});
