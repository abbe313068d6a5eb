// Check-in (issue #26): organizers mark members going as attended from 30 minutes before the
// start; unknown handles and members not going get the same 404; the attendee list shows it; a
// checked-in member's suggestion counts from the start; members who opted in (autoLogAttendance,
// off by default) get the action log entry itself, once, removed again when the check-in is
// undone, while an entry they made themselves stays. REST and the typed client.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const MINUTE = 60_000;

/** An event starting in 20 minutes (check-in is open), with one member going. */
async function scene(startInMinutes = 20) {
  const { admin, grove, organizer } = await groveWithOrganizer(t);
  const start = t.clock.now().getTime() + startInMinutes * MINUTE;
  const event = await createEvent(
    t,
    organizer,
    { groveId: grove._id },
    { startsAt: new Date(start).toISOString(), endsAt: new Date(start + 120 * MINUTE).toISOString() },
  );
  const going = await createMember(t);
  expect(
    (await t.request('POST', `/api/events/${event._id}/rsvp`, { token: going.token, body: { status: 'going' } }))
      .status,
  ).toBe(200);
  return { admin, grove, organizer, event, going };
}

function mark(as: TestMember, eventId: string, handle: string, attended: boolean) {
  return t.request('PUT', `/api/events/${eventId}/attendance/${handle}`, { token: as.token, body: { attended } });
}

async function logOf(member: TestMember) {
  const res = await t.request('GET', '/api/actions', { token: member.token });
  expect(res.status).toBe(200);
  return res.body.items as { kind: string; eventId: string | null; eventTitle: string | null }[];
}

describe('checking members in', () => {
  it('marks and unmarks a member going (REST + typed client); the attendee list shows it', async () => {
    const s = await scene();
    const res = await mark(s.organizer, s.event._id, s.going.handle.toUpperCase(), true);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ handle: s.going.handle, attended: true, checkedInAt: t.clock.now().toISOString() });
    t.clock.advance(MINUTE);
    // Again: idempotent, the first time stays.
    const again = await t
      .trpc(s.organizer.token)
      .events.setAttendance.mutate({ id: s.event._id, handle: s.going.handle, attended: true });
    expect(again.checkedInAt).toBe(res.body.checkedInAt);
    const attendees = await t.request('GET', `/api/events/${s.event._id}/attendees`, { token: s.organizer.token });
    expect(attendees.body.items).toEqual([
      expect.objectContaining({ handle: s.going.handle, checkedInAt: res.body.checkedInAt }),
    ]);

    const undone = await mark(s.organizer, s.event._id, s.going.handle, false);
    expect(undone.body).toEqual({ handle: s.going.handle, attended: false, checkedInAt: null });
  });

  it('answers each role: 403 for others who see the event, 404 hidden, 401 anonymous', async () => {
    const s = await scene();
    for (const member of [s.going, s.admin, await createMember(t)]) {
      const res = await mark(member, s.event._id, s.going.handle, true);
      expect(res.status).toBe(403);
    }
    expect(
      (await t.request('PUT', `/api/events/${s.event._id}/attendance/${s.going.handle}`, { body: { attended: true } }))
        .status,
    ).toBe(401);
    const hidden = await createEvent(t, s.organizer, { groveId: s.grove._id }, { visibility: 'grove' });
    const outsider = await createMember(t);
    expect((await mark(outsider, hidden._id, s.going.handle, true)).status).toBe(404);
    await expect(
      t.trpc(s.going.token).events.setAttendance.mutate({ id: s.event._id, handle: s.going.handle, attended: true }),
    ).rejects.toMatchObject({ data: { code: 'forbidden', httpStatus: 403 } });
  });

  it('gives the same 404 for an unknown handle and for members not going (no oracle of who exists)', async () => {
    const s = await scene();
    const [interested, absent] = await Promise.all([createMember(t), createMember(t)]);
    await t.request('POST', `/api/events/${s.event._id}/rsvp`, {
      token: interested!.token,
      body: { status: 'interested' },
    });
    const answers = await Promise.all(
      [interested!.handle, absent!.handle, 'nobody_here_xyz'].map((h) => mark(s.organizer, s.event._id, h, true)),
    );
    for (const res of answers) expect(res.status).toBe(404);
    expect(new Set(answers.map((r) => JSON.stringify(r.body))).size).toBe(1);
  });

  it('opens 30 minutes before the start; a cancelled event takes none (409)', async () => {
    const s = await scene(45);
    const early = await mark(s.organizer, s.event._id, s.going.handle, true);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('conflict');
    t.clock.advance(16 * MINUTE);
    expect((await mark(s.organizer, s.event._id, s.going.handle, true)).status).toBe(200);
    await t.request('PATCH', `/api/events/${s.event._id}`, { token: s.organizer.token, body: { status: 'cancelled' } });
    expect((await mark(s.organizer, s.event._id, s.going.handle, false)).status).toBe(409);
  });
});

describe('check-in and the action log', () => {
  it('a checked-in member is suggested the event from its start, marked checkedIn', async () => {
    const s = await scene(5);
    t.clock.advance(10 * MINUTE);
    expect((await t.request('GET', '/api/actions/suggestions', { token: s.going.token })).body.items).toEqual([]);
    await mark(s.organizer, s.event._id, s.going.handle, true);
    const suggested = await t.trpc(s.going.token).actions.listSuggestions.query({});
    expect(suggested.items).toEqual([expect.objectContaining({ eventId: s.event._id, checkedIn: true })]);
    // Confirming works during the event.
    const confirmed = await t.request('POST', '/api/actions', {
      token: s.going.token,
      body: { kind: 'event_attended', eventId: s.event._id },
    });
    expect(confirmed.status, confirmed.text).toBe(201);
    // Undoing the check-in keeps what the member logged themselves.
    await mark(s.organizer, s.event._id, s.going.handle, false);
    expect((await logOf(s.going)).map((e) => e.eventId)).toEqual([s.event._id]);
  });

  it('the opt-in (off by default) logs the event at check-in, once, and removes it on undo', async () => {
    const s = await scene();
    expect((await t.request('GET', '/api/me/attendance-settings', { token: s.going.token })).body).toEqual({
      autoLogAttendance: false,
    });
    // Off: no entry.
    await mark(s.organizer, s.event._id, s.going.handle, true);
    expect(await logOf(s.going)).toEqual([]);
    await mark(s.organizer, s.event._id, s.going.handle, false);

    const on = await t.request('PUT', '/api/me/attendance-settings', {
      token: s.going.token,
      body: { autoLogAttendance: true },
    });
    expect(on.body).toEqual({ autoLogAttendance: true });
    expect(await t.trpc(s.going.token).me.getAttendanceSettings.query({})).toEqual({ autoLogAttendance: true });
    await mark(s.organizer, s.event._id, s.going.handle, true);
    await mark(s.organizer, s.event._id, s.going.handle, true);
    expect(await logOf(s.going)).toEqual([
      expect.objectContaining({ kind: 'event_attended', eventId: s.event._id, eventTitle: s.event.title }),
    ]);
    const [totals] = await t.deps.database.rows<{ actions: number }>(
      sql`select actions from action_totals where user_id = ${s.going.id}::uuid`,
    );
    expect(Number(totals!.actions)).toBe(1);
    // Logged already: nothing left to suggest.
    expect((await t.request('GET', '/api/actions/suggestions', { token: s.going.token })).body.items).toEqual([]);

    await mark(s.organizer, s.event._id, s.going.handle, false);
    expect(await logOf(s.going)).toEqual([]);
    const [after] = await t.deps.database.rows<{ actions: number }>(
      sql`select actions from action_totals where user_id = ${s.going.id}::uuid`,
    );
    expect(Number(after!.actions)).toBe(0);

    const off = await t.trpc(s.going.token).me.updateAttendanceSettings.mutate({ autoLogAttendance: false });
    expect(off).toEqual({ autoLogAttendance: false });
    await mark(s.organizer, s.event._id, s.going.handle, true);
    expect(await logOf(s.going)).toEqual([]);
    // Settings are the member's own: 401 without a session, 400 for anything but a boolean.
    expect((await t.request('GET', '/api/me/attendance-settings')).status).toBe(401);
    expect(
      (
        await t.request('PUT', '/api/me/attendance-settings', {
          token: s.going.token,
          body: { autoLogAttendance: 'yes' },
        })
      ).status,
    ).toBe(400);
  });
});
