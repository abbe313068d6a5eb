// Event shifts (issue #26): organizers add and delete shifts; members who can see the event sign
// up and withdraw (idempotent, 409 shift_full at capacity, 409 on cancelled or ended events);
// counts and `mine` for everyone, the roster's handles for the organizers only. Through REST and
// the typed client; cascades, the retention sweep and the data export section too.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner } from '../../server/jobs/runner.js';
import { rsvpSweep } from '../../server/domains/events/rsvp-sweep.js';
import { shiftSignupsSection } from '../../server/domains/data-export/sections.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const missing = '01900000-0000-7000-8000-000000000000';

function shiftBody(event: { [key: string]: any }, overrides: Record<string, unknown> = {}) {
  const start = Date.parse(event.startsAt);
  return {
    startsAt: new Date(start - HOUR).toISOString(),
    endsAt: new Date(start).toISOString(),
    capacity: 2,
    role: 'setup',
    ...overrides,
  };
}

async function addShift(organizer: TestMember, event: { _id: string; [key: string]: any }, overrides = {}) {
  const res = await t.request('POST', `/api/events/${event._id}/shifts`, {
    token: organizer.token,
    body: shiftBody(event, overrides),
  });
  if (res.status !== 201) throw new Error(`add shift failed: ${res.status} ${res.text}`);
  return res.body as { _id: string; [key: string]: any };
}

async function signupCount(shiftId: string) {
  const [row] = await t.deps.database.rows<{ n: number }>(
    sql`select count(*)::int as n from event_shift_signups where shift_id = ${shiftId}`,
  );
  return Number(row!.n);
}

describe('adding and deleting shifts', () => {
  it('lets the organizers add a shift (REST + typed client) and answers it with `_id` and counts', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const shift = await addShift(organizer, event);
    expect(shift).toMatchObject({
      _id: expect.any(String),
      eventId: event._id,
      capacity: 2,
      role: 'setup',
      counts: { signedUp: 0, capacity: 2 },
      mine: false,
      roster: [],
    });
    const typed = await t.trpc(organizer.token).events.createShift.mutate({
      id: event._id,
      ...shiftBody(event, { capacity: 1, role: undefined }),
    });
    expect(typed).toMatchObject({ capacity: 1, role: null, counts: { signedUp: 0, capacity: 1 } });
    const list = await t.request('GET', `/api/events/${event._id}/shifts`);
    expect(list.status).toBe(200);
    expect(list.body.nextCursor).toBeNull();
    expect(list.body.items.map((s: { _id: string }) => s._id).sort()).toEqual([shift._id, typed._id].sort());
  });

  it('refuses invalid shifts with 400 in the error envelope', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    for (const bad of [
      { capacity: 0 },
      { capacity: 1.5 },
      { endsAt: shiftBody(event).startsAt },
      { role: 'x'.repeat(61) },
      { unexpected: true },
    ]) {
      const res = await t.request('POST', `/api/events/${event._id}/shifts`, {
        token: organizer.token,
        body: shiftBody(event, bad),
      });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    const { startsAt: _s, ...noStart } = shiftBody(event);
    const res = await t.request('POST', `/api/events/${event._id}/shifts`, { token: organizer.token, body: noStart });
    expect(res.status).toBe(400);
  });

  it('lets only the organizers add or delete: 401 anonymous, 403 for members who see it, 404 for the rest', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const member = await createMember(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const hidden = await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'grove' });
    const body = shiftBody(event);
    expect((await t.request('POST', `/api/events/${event._id}/shifts`, { body })).status).toBe(401);
    const forbidden = await t.request('POST', `/api/events/${event._id}/shifts`, { token: member.token, body });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toMatchObject({ code: 'forbidden', message: expect.any(String) });
    expect((await t.request('POST', `/api/events/${hidden._id}/shifts`, { token: member.token, body })).status).toBe(
      404,
    );
    expect((await t.request('POST', `/api/events/${missing}/shifts`, { token: member.token, body })).status).toBe(404);
    await expect(t.trpc(member.token).events.createShift.mutate({ id: event._id, ...body })).rejects.toMatchObject({
      data: { code: 'forbidden', httpStatus: 403 },
    });

    const shift = await addShift(organizer, event);
    await t.request('PUT', `/api/events/${event._id}/shifts/${shift._id}/signup`, { token: member.token });
    const del = `/api/events/${event._id}/shifts/${shift._id}`;
    expect((await t.request('DELETE', del, { token: member.token })).status).toBe(403);
    expect(
      (await t.request('DELETE', `/api/events/${hidden._id}/shifts/${shift._id}`, { token: member.token })).status,
    ).toBe(404);
    const deleted = await t.request('DELETE', del, { token: organizer.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ok: true });
    expect(await signupCount(shift._id)).toBe(0);
    expect((await t.request('DELETE', del, { token: organizer.token })).status).toBe(404);
    expect((await t.request('GET', `/api/events/${event._id}/shifts`)).body.items).toEqual([]);
  });
});

describe('signing up', () => {
  it('is idempotent, counts for everyone, and answers 409 shift_full at capacity (REST + typed client)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const shift = await addShift(organizer, event, { capacity: 2 });
    const [a, b, c] = await Promise.all([createMember(t), createMember(t), createMember(t)]);
    const path = `/api/events/${event._id}/shifts/${shift._id}/signup`;
    const first = await t.request('PUT', path, { token: a.token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ _id: shift._id, mine: true, counts: { signedUp: 1, capacity: 2 } });
    expect(first.body.roster).toBeUndefined();
    const again = await t.request('PUT', path, { token: a.token });
    expect(again.body).toMatchObject({ mine: true, counts: { signedUp: 1, capacity: 2 } });
    const typed = await t.trpc(b.token).events.signUpShift.mutate({ id: event._id, shiftId: shift._id });
    expect(typed).toMatchObject({ mine: true, counts: { signedUp: 2, capacity: 2 } });
    const full = await t.request('PUT', path, { token: c.token });
    expect(full.status).toBe(409);
    expect(full.body).toEqual({ error: { code: 'shift_full', message: expect.any(String) } });
    await expect(
      t.trpc(c.token).events.signUpShift.mutate({ id: event._id, shiftId: shift._id }),
    ).rejects.toMatchObject({
      data: { code: 'shift_full', httpStatus: 409 },
    });
    // Already signed up to a full shift: still fine (idempotent).
    expect((await t.request('PUT', path, { token: a.token })).status).toBe(200);

    // Withdrawing frees the place; withdrawing twice is fine.
    const out = await t.request('DELETE', path, { token: a.token });
    expect(out.body).toMatchObject({ mine: false, counts: { signedUp: 1, capacity: 2 } });
    expect((await t.request('DELETE', path, { token: a.token })).status).toBe(200);
    const typedOut = await t.trpc(c.token).events.withdrawShift.mutate({ id: event._id, shiftId: shift._id });
    expect(typedOut).toMatchObject({ mine: false, counts: { signedUp: 1 } });
    expect((await t.request('PUT', path, { token: c.token })).body).toMatchObject({
      mine: true,
      counts: { signedUp: 2 },
    });

    const anonymous = await t.request('GET', `/api/events/${event._id}/shifts`);
    expect(anonymous.body.items[0]).toMatchObject({ mine: false, counts: { signedUp: 2, capacity: 2 } });
    const mine = await t.trpc(b.token).events.listShifts.query({ id: event._id });
    expect(mine.items[0]).toMatchObject({ mine: true });
    expect(await signupCount(shift._id)).toBe(2);
  });

  it('needs a member who can see the event, and refuses cancelled and ended events like RSVPs', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const member = await createMember(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const hidden = await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'grove' });
    const other = await createEvent(t, organizer, { groveId: grove._id });
    const shift = await addShift(organizer, event);
    const hiddenShift = await addShift(organizer, hidden);
    expect((await t.request('PUT', `/api/events/${event._id}/shifts/${shift._id}/signup`)).status).toBe(401);
    expect(
      (await t.request('PUT', `/api/events/${hidden._id}/shifts/${hiddenShift._id}/signup`, { token: member.token }))
        .status,
    ).toBe(404);
    expect((await t.request('GET', `/api/events/${hidden._id}/shifts`, { token: member.token })).status).toBe(404);
    expect((await t.request('GET', `/api/events/${hidden._id}/shifts`)).status).toBe(404);
    // A shift of another event: 404.
    expect(
      (await t.request('PUT', `/api/events/${other._id}/shifts/${shift._id}/signup`, { token: member.token })).status,
    ).toBe(404);
    expect(
      (await t.request('DELETE', `/api/events/${other._id}/shifts/${shift._id}/signup`, { token: member.token }))
        .status,
    ).toBe(404);
    expect(
      (await t.request('PUT', `/api/events/${event._id}/shifts/${missing}/signup`, { token: member.token })).status,
    ).toBe(404);

    // Ended: 409.
    t.clock.set(new Date(Date.parse(event.endsAt) + 1000));
    const over = await t.request('PUT', `/api/events/${event._id}/shifts/${shift._id}/signup`, { token: member.token });
    const addedLate = await t.request('POST', `/api/events/${event._id}/shifts`, {
      token: organizer.token,
      body: shiftBody(event),
    });
    t.clock.set(new Date());
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe('conflict');
    expect(addedLate.status).toBe(409); // no shifts for an event that is over
    // Cancelled: 409, and no new shifts either.
    await t.request('PATCH', `/api/events/${event._id}`, { token: organizer.token, body: { status: 'cancelled' } });
    const cancelled = await t.request('PUT', `/api/events/${event._id}/shifts/${shift._id}/signup`, {
      token: member.token,
    });
    expect(cancelled.status).toBe(409);
    expect(
      (await t.request('POST', `/api/events/${event._id}/shifts`, { token: organizer.token, body: shiftBody(event) }))
        .status,
    ).toBe(409);
    expect(await signupCount(shift._id)).toBe(0);
  });

  it("refuses a member the hosting grove banned, with the RSVPs' generic 403", async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const banned = await createMember(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const shift = await addShift(organizer, event);
    await t.request('POST', `/api/groves/${grove._id}/bans`, {
      token: organizer.token,
      body: { handle: banned.handle },
    });
    const res = await t.request('PUT', `/api/events/${event._id}/shifts/${shift._id}/signup`, { token: banned.token });
    expect(res.status).toBe(403);
    expect(await signupCount(shift._id)).toBe(0);
  });
});

describe('privacy of the roster', () => {
  it('shows handles to the organizers only; members and anonymous callers get counts and `mine`', async () => {
    const { admin, grove, organizer } = await groveWithOrganizer(t);
    const [a, b] = await Promise.all([createMember(t), createMember(t)]);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const shift = await addShift(organizer, event, { capacity: 5 });
    for (const m of [a, b])
      await t.request('PUT', `/api/events/${event._id}/shifts/${shift._id}/signup`, { token: m.token });

    const asOrganizer = await t.request('GET', `/api/events/${event._id}/shifts`, { token: organizer.token });
    expect(asOrganizer.body.items[0].roster.map((r: { handle: string }) => r.handle)).toEqual([a.handle, b.handle]);
    const typed = await t.trpc(organizer.token).events.listShifts.query({ id: event._id });
    expect(typed.items[0]!.roster).toHaveLength(2);

    for (const [who, token] of [
      ['member', a.token],
      ['site admin', admin.token],
      ['anonymous', undefined],
    ] as const) {
      const res = await t.request('GET', `/api/events/${event._id}/shifts`, token ? { token } : {});
      expect(res.status, who).toBe(200);
      expect(res.body.items[0].roster, who).toBeUndefined();
      expect(res.text, who).not.toContain(b.handle);
      expect(res.body.items[0].counts, who).toEqual({ signedUp: 2, capacity: 5 });
    }
    // The signup answer of a member carries no roster either.
    const answer = await t.request('PUT', `/api/events/${event._id}/shifts/${shift._id}/signup`, { token: a.token });
    expect(answer.text).not.toContain(b.handle);
  });
});

describe('lifetime of signups', () => {
  it('go with the account, with the event, and 30 days after the event ends; the export has their own', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const [stays, leaves] = await Promise.all([createMember(t), createMember(t)]);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const shift = await addShift(organizer, event, { capacity: 5 });
    for (const m of [stays, leaves, organizer])
      await t.request('PUT', `/api/events/${event._id}/shifts/${shift._id}/signup`, { token: m.token });
    expect(await signupCount(shift._id)).toBe(3);

    // The member's export: their own signup, never the others.
    const exported = await shiftSignupsSection({
      userId: stays.id,
      db: t.deps.database.db,
      database: t.deps.database,
      now: t.clock.now(),
      keyring: undefined as never,
      log: { error: () => {} },
    });
    expect(exported).toEqual([
      expect.objectContaining({
        shiftId: shift._id,
        eventId: event._id,
        role: 'setup',
        event: expect.objectContaining({ slug: event.slug }),
      }),
    ]);
    expect(JSON.stringify(exported)).not.toContain(leaves.handle);

    expect((await t.request('DELETE', '/api/me', { token: leaves.token })).status).toBe(200);
    expect(await signupCount(shift._id)).toBe(2);

    const runner = createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [rsvpSweep]);
    const end = Date.parse(event.endsAt);
    t.clock.set(new Date(end + 30 * DAY - 1000));
    await runner.runOnce(rsvpSweep);
    expect(await signupCount(shift._id)).toBe(2);
    t.clock.set(new Date(end + 30 * DAY + 1000));
    const summary = await runner.runOnce(rsvpSweep);
    t.clock.set(new Date());
    expect(summary?.shiftSignups).toBeGreaterThanOrEqual(2);
    expect(await signupCount(shift._id)).toBe(0);

    // Deleting the event (its grove) takes the shifts with it.
    const other = await createEvent(t, organizer, { groveId: grove._id });
    const kept = await addShift(organizer, other);
    await t.request('PUT', `/api/events/${other._id}/shifts/${kept._id}/signup`, { token: stays.token });
    await t.deps.database.rows(sql`delete from events where id = ${other._id}`);
    const left = await t.deps.database.rows(sql`select 1 from event_shifts where id = ${kept._id}`);
    expect(left).toEqual([]);
    expect(await signupCount(kept._id)).toBe(0);
  });
});
