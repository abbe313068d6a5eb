// The guest rules that reach into events: the RSVP-only meeting point (hidden until an organizer
// approves, then mailed and logged), seats (guests take them under the members' seat lock and
// never wait on the waitlist), and retention (30 days after the event, like members' RSVPs).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestRsvpSweep } from '../../server/domains/guest-rsvps/sweep.js';
import { createJobRunner } from '../../server/jobs/runner.js';
import { registeredJobs } from '../setup/registered-jobs.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from '../events/helpers.js';
import { APPROVED_SUBJECT, askAsGuest, CONFIRM_SUBJECT, guestEmail, guestGoing, tokenIn } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;
const HOUR = 3_600_000;
const point = { meetingPoint: { text: 'Side gate of the park, 7 pm' }, meetingPointVisibility: 'rsvp' };

async function rows(table: 'event_guest_rsvps' | 'event_guest_reveals', eventId: string) {
  const [row] = await t.deps.database.rows<{ n: number }>(
    sql`select count(*)::int as n from ${sql.identifier(table)} where event_id = ${eventId}`,
  );
  return Number(row!.n);
}

describe('the RSVP-only meeting point', () => {
  it('stays hidden from a guest until an organizer approves; then it is mailed and logged, also after withdrawal', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    // Without rsvpApproval too: guests never get an RSVP-only point unapproved.
    const event = await createEvent(t, organizer, { groveId: grove._id }, point);
    const guest = await guestGoing(t, event._id);
    expect(guest.pending).toBe(true);
    const confirmedMail = t.mailer.to(guest.email).at(-1)!;
    expect(confirmedMail.text).not.toContain('Side gate');
    expect(confirmedMail.text).toMatch(/once an organizer approves/);
    // Pending: not counted, but holding nothing else either; the point stays hidden to the anonymous.
    const read = await t.request('GET', `/api/events/${event.slug}`);
    expect(read.body).toMatchObject({ meetingPoint: null, meetingPointHidden: true, rsvpCounts: { going: 0 } });

    const list = await t.request('GET', `/api/events/${event._id}/guest-rsvps`, { token: organizer.token });
    const [listed] = list.body.items;
    expect(listed).toMatchObject({ pending: true, status: 'going' });
    const member = await createMember(t);
    const approvePath = `/api/events/${event._id}/guest-rsvps/${listed._id}/approve`;
    expect((await t.request('PUT', approvePath, { token: member.token })).status).toBe(403);
    expect(
      (await t.request('PUT', `/api/events/${event._id}/guest-rsvps/${event._id}/approve`, { token: organizer.token }))
        .status,
    ).toBe(404);
    expect(await rows('event_guest_reveals', event._id)).toBe(0);
    expect(t.mailer.to(guest.email).some((m) => m.text.includes('Side gate'))).toBe(false);

    const approved = await t.request('PUT', approvePath, { token: organizer.token });
    expect(approved.status).toBe(200);
    await t.settleMail();
    const mail = await t.mailer.waitForMail(guest.email, APPROVED_SUBJECT);
    expect(mail.text).toContain('Side gate of the park, 7 pm');
    expect((await t.request('GET', `/api/events/${event.slug}`)).body.rsvpCounts.going).toBe(1);
    // Approving again mails nothing more.
    const mails = t.mailer.to(guest.email).length;
    await t.trpc(organizer.token).events.approveGuestRsvp.mutate({ id: event._id, guestId: listed._id });
    await t.settleMail();
    expect(t.mailer.to(guest.email)).toHaveLength(mails);

    const reveals = await t.request('GET', `/api/events/${event._id}/guest-reveals`, { token: organizer.token });
    expect(reveals.status).toBe(200);
    expect(reveals.body.items).toEqual([
      {
        _id: expect.any(String),
        email: `${guest.email[0]}…@example.org`,
        firstRevealedAt: expect.any(String),
        rsvp: 'going',
      },
    ]);
    expect((await t.request('GET', `/api/events/${event._id}/guest-reveals`, { token: member.token })).status).toBe(
      403,
    );
    // Withdrawn: the log keeps the reveal.
    expect((await t.request('DELETE', `/api/guest-rsvps/${guest.withdrawToken}`)).status).toBe(200);
    const after = await t.trpc(organizer.token).events.listGuestReveals.query({ id: event._id });
    expect(after.items).toEqual([expect.objectContaining({ rsvp: null })]);
  });

  it('is not withheld from guests of an event whose point is for everyone', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { meetingPoint: { text: 'Fountain' } });
    const guest = await guestGoing(t, event._id);
    expect(guest.pending).toBe(false);
  });
});

describe('seats', () => {
  it('a going guest takes a seat under the members’ lock; a full event refuses the next guest (409) and frees on withdrawal', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { capacity: 1 });
    const guest = await guestGoing(t, event._id);
    expect((await t.request('GET', `/api/events/${event.slug}`)).body).toMatchObject({
      seatsLeft: 0,
      rsvpCounts: { going: 1 },
    });
    const member = await createMember(t);
    const rsvp = await t.request('POST', `/api/events/${event._id}/rsvp`, {
      token: member.token,
      body: { status: 'going' },
    });
    expect(rsvp.body).toMatchObject({ myRsvp: 'waitlisted', rsvpCounts: { going: 1, waitlisted: 1 } });

    // A second going guest finds the event full: refused at confirmation, the request deleted.
    const late = guestEmail();
    await askAsGuest(t, event._id, late);
    const refused = await t.request('POST', '/api/guest-rsvps/confirm', {
      body: { token: await tokenIn(t, late, CONFIRM_SUBJECT) },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('conflict');
    // Interested takes no seat, so it is welcome.
    const curious = await guestGoing(t, event._id, guestEmail(), 'interested');
    expect(curious.status).toBe('interested');

    // The guest withdraws: the member waiting gets the seat.
    expect((await t.request('DELETE', `/api/guest-rsvps/${guest.withdrawToken}`)).status).toBe(200);
    const mine = await t.request('GET', `/api/events/${event.slug}`, { token: member.token });
    expect(mine.body).toMatchObject({ myRsvp: 'going', seatsLeft: 0, rsvpCounts: { going: 1, interested: 1 } });
  });
});

describe('retention', () => {
  it('is one of the server jobs', () => {
    expect(registeredJobs).toContain(guestRsvpSweep);
  });

  it('deletes guest rows and their reveals 30 days after the event ends, and unconfirmed ones once their link expired', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const start = t.clock.now().getTime();
    const at = (h: number) => ({
      startsAt: new Date(start + h * HOUR).toISOString(),
      endsAt: new Date(start + (h + 1) * HOUR).toISOString(),
    });
    const early = await createEvent(t, organizer, { groveId: grove._id }, { ...point, ...at(0.25) });
    const later = await createEvent(t, organizer, { groveId: grove._id }, at(3));
    await guestGoing(t, early._id);
    const [{ _id }] = (await t.request('GET', `/api/events/${early._id}/guest-rsvps`, { token: organizer.token })).body
      .items;
    await t.request('PUT', `/api/events/${early._id}/guest-rsvps/${_id}/approve`, { token: organizer.token });
    await guestGoing(t, later._id, guestEmail(), 'interested');
    expect(await rows('event_guest_reveals', early._id)).toBe(1);
    const runner = createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [guestRsvpSweep]);
    const earlyEnd = Date.parse(early.endsAt);

    t.clock.set(new Date(earlyEnd + 30 * DAY - 1));
    await runner.runOnce(guestRsvpSweep);
    expect(await rows('event_guest_rsvps', early._id)).toBe(1);
    expect(await rows('event_guest_reveals', early._id)).toBe(1);

    t.clock.set(new Date(earlyEnd + 30 * DAY + 1));
    const summary = await runner.runOnce(guestRsvpSweep);
    expect(summary?.guestRsvps).toBeGreaterThanOrEqual(1);
    expect(await rows('event_guest_rsvps', early._id)).toBe(0);
    expect(await rows('event_guest_reveals', early._id)).toBe(0);
    expect(await rows('event_guest_rsvps', later._id)).toBe(1);
  });

  it('deletes a request never confirmed once its link has expired', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    await askAsGuest(t, event._id, guestEmail());
    expect(await rows('event_guest_rsvps', event._id)).toBe(1);
    const runner = createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [guestRsvpSweep]);
    t.clock.set(new Date(t.clock.now().getTime() + 15 * 60_000 + 1));
    await runner.runOnce(guestRsvpSweep);
    expect(await rows('event_guest_rsvps', event._id)).toBe(0);
  });

  it('goes with the event', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    await guestGoing(t, event._id);
    await t.deps.database.rows(sql`delete from events where id = ${event._id}`);
    expect(await rows('event_guest_rsvps', event._id)).toBe(0);
  });
});
