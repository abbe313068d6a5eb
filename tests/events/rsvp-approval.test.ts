// RSVP approval (meeting point only for approved RSVPs), the reveal log's lifetime (RSVP sweep,
// account deletion, calendar feed), RSVP writes as single conditional statements, and the job
// runner's first run soon after start.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner, type Job } from '../../server/jobs/runner.js';
import { rsvpSweep } from '../../server/domains/events/rsvp-sweep.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from './helpers.js';
import { eventually } from '../setup/wait.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;
const point = { meetingPoint: { text: 'Side gate, 7 pm' }, meetingPointVisibility: 'rsvp' };

async function revealCount(eventId: string) {
  const [row] = await t.deps.database.rows<{ n: number }>(
    sql`select count(*)::int as n from event_reveals where event_id = ${eventId}`,
  );
  return Number(row!.n);
}

describe('RSVP approval', () => {
  it('keeps the point hidden until an organizer approves (REST + tRPC); pending not counted', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { ...point, rsvpApproval: true });
    expect(event.rsvpApproval).toBe(true);
    const member = await createMember(t);
    const rsvp = await t.request('POST', `/api/events/${event._id}/rsvp`, {
      token: member.token,
      body: { status: 'going' },
    });
    expect(rsvp.body).toMatchObject({ myRsvp: 'going', myRsvpPending: true, rsvpCounts: { going: 0, interested: 0 } });
    const before = await t.request('GET', `/api/events/${event.slug}`, { token: member.token });
    expect(before.body).toMatchObject({ meetingPoint: null, meetingPointHidden: true, myRsvpPending: true });
    // Changing going/interested keeps it pending.
    await t.trpc(member.token).events.rsvp.mutate({ id: event._id, status: 'interested' });
    const attendees = await t.request('GET', `/api/events/${event._id}/attendees`, { token: organizer.token });
    expect(attendees.body.items).toEqual([expect.objectContaining({ handle: member.handle, pending: true })]);
    expect(await revealCount(event._id)).toBe(0);
    // Only organizers approve: 403 for the member, 404 for an unknown RSVP.
    expect(
      (await t.request('PUT', `/api/events/${event._id}/rsvps/${member.handle}/approve`, { token: member.token }))
        .status,
    ).toBe(403);
    expect(
      (await t.request('PUT', `/api/events/${event._id}/rsvps/${organizer.handle}/approve`, { token: organizer.token }))
        .status,
    ).toBe(404);
    const approved = await t.request('PUT', `/api/events/${event._id}/rsvps/${member.handle}/approve`, {
      token: organizer.token,
    });
    expect(approved.body).toEqual({ ok: true });
    const after = await t.request('GET', `/api/events/${event.slug}`, { token: member.token });
    expect(after.body).toMatchObject({
      meetingPoint: { text: 'Side gate, 7 pm' },
      myRsvpPending: false,
      rsvpCounts: { going: 0, interested: 1 },
    });
    expect(await revealCount(event._id)).toBe(1);
    // Declining removes the RSVP; the point is hidden again (the reveal stays logged).
    expect(await t.trpc(organizer.token).events.declineRsvp.mutate({ id: event._id, handle: member.handle })).toEqual({
      ok: true,
    });
    const declined = await t.request('GET', `/api/events/${event.slug}`, { token: member.token });
    expect(declined.body).toMatchObject({ meetingPoint: null, myRsvp: null });
    expect(await revealCount(event._id)).toBe(1);
  });

  it('needs an RSVP-only meeting point (400); organizers RSVP without approval', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const bad = await t.request('POST', '/api/events', {
      token: organizer.token,
      body: {
        groveId: grove._id,
        title: 'x',
        type: 'vigil',
        area: 'A',
        startsAt: new Date(Date.now() + DAY).toISOString(),
        endsAt: new Date(Date.now() + DAY + 3_600_000).toISOString(),
        rsvpApproval: true,
      },
    });
    expect(bad.status).toBe(400);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { ...point, rsvpApproval: true });
    const own = await t.request('POST', `/api/events/${event._id}/rsvp`, {
      token: organizer.token,
      body: { status: 'going' },
    });
    expect(own.body).toMatchObject({ myRsvpPending: false, rsvpCounts: { going: 1 } });
  });
});

describe('reveal log', () => {
  it('is written by the calendar feed too, deleted with the account, and swept with the RSVPs', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const start = t.clock.now().getTime() + 3_600_000;
    const event = await createEvent(
      t,
      organizer,
      { groveId: grove._id },
      {
        ...point,
        rsvpApproval: false,
        startsAt: new Date(start).toISOString(),
        endsAt: new Date(start + 3_600_000).toISOString(),
      },
    );
    const [feedUser, leaver] = await Promise.all([createMember(t), createMember(t)]);
    for (const m of [feedUser, leaver])
      await t.request('POST', `/api/events/${event._id}/rsvp`, { token: m.token, body: { status: 'going' } });
    // The feed user never GETs the event: the feed alone serves the point.
    const feed = await t.request('POST', '/api/me/calendar-token', { token: feedUser.token });
    const ics = await t.app.request(new URL(feed.body.url).pathname);
    expect(await ics.text()).toContain('Side gate');
    await t.request('GET', `/api/events/${event.slug}`, { token: leaver.token });
    const log = await t.request('GET', `/api/events/${event._id}/reveals`, { token: organizer.token });
    expect(log.body.items.map((r: { handle: string }) => r.handle).sort()).toEqual(
      [feedUser.handle, leaver.handle].sort(),
    );
    // Others who can see the event: 403; unknown event: 404.
    expect((await t.request('GET', `/api/events/${event._id}/reveals`, { token: leaver.token })).status).toBe(403);
    expect(
      (await t.request('GET', '/api/events/01900000-0000-7000-8000-000000000000/reveals', { token: leaver.token }))
        .status,
    ).toBe(404);
    // Account deletion is a hard delete: the member's reveal rows go with it.
    expect((await t.request('DELETE', '/api/me', { token: leaver.token })).status).toBe(200);
    expect((await t.deps.database.rows(sql`select 1 from users where id = ${leaver.id}`)).length).toBe(0);
    expect(await revealCount(event._id)).toBe(1);
    // The RSVP sweep deletes the log with the RSVP rows, 30 days after the event ends.
    const runner = createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [rsvpSweep]);
    const end = start + 3_600_000;
    t.clock.set(new Date(end + 30 * DAY - 1000));
    await runner.runOnce(rsvpSweep);
    expect(await revealCount(event._id)).toBe(1);
    t.clock.set(new Date(end + 30 * DAY + 1000));
    const summary = await runner.runOnce(rsvpSweep);
    expect(summary?.reveals).toBeGreaterThanOrEqual(1);
    expect(await revealCount(event._id)).toBe(0);
    t.clock.set(new Date());
  });
});

describe('RSVP writes are single conditional statements', () => {
  it('an RSVP racing a cancel never lands on the cancelled event', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const members = await Promise.all(Array.from({ length: 6 }, () => createMember(t)));
    for (let round = 0; round < 3; round++) {
      const event = await createEvent(t, organizer, { groveId: grove._id });
      const cancel = t.request('PATCH', `/api/events/${event._id}`, {
        token: organizer.token,
        body: { status: 'cancelled' },
      });
      const rsvps = members.map((m) =>
        t.request('POST', `/api/events/${event._id}/rsvp`, { token: m.token, body: { status: 'going' } }),
      );
      const [cancelled, ...answers] = await Promise.all([cancel, ...rsvps]);
      expect(cancelled.status).toBe(200);
      const accepted = answers.filter((a) => a.status === 200).length;
      expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
      // Every RSVP that answered 409 wrote nothing; every 200 is a row.
      const [row] = await t.deps.database.rows<{ n: number }>(
        sql`select count(*)::int as n from event_rsvps where event_id = ${event._id}`,
      );
      expect(Number(row!.n)).toBe(accepted);
      // After the cancel, no RSVP is accepted or changed.
      const late = await t.request('POST', `/api/events/${event._id}/rsvp`, {
        token: members[0]!.token,
        body: { status: 'interested' },
      });
      expect(late.status).toBe(409);
    }
  });

  it('answers 404 for invisible events and 409 for ended ones without writing', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const outsider = await createMember(t);
    const hidden = await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'grove' });
    for (const [method, body] of [
      ['POST', { status: 'going' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.request(method, `/api/events/${hidden._id}/rsvp`, { token: outsider.token, body });
      expect(res.status).toBe(404);
    }
    const event = await createEvent(t, organizer, { groveId: grove._id });
    t.clock.advance(5 * DAY);
    const over = await t.request('POST', `/api/events/${event._id}/rsvp`, {
      token: outsider.token,
      body: { status: 'going' },
    });
    t.clock.set(new Date());
    expect(over.status).toBe(409);
    const [row] = await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from event_rsvps where event_id in (${hidden._id}, ${event._id})`,
    );
    expect(Number(row!.n)).toBe(0);
  });
});

describe('job runner', () => {
  it('runs every job a few seconds after start, not first after a whole interval', async () => {
    const runs: number[] = [];
    const job: Job = {
      name: 'test-first-run',
      lockId: 7_319_901,
      intervalMs: 60 * 60_000,
      async run() {
        runs.push(Date.now());
        return { ran: 1 };
      },
    };
    const runner = createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [job], {
      firstRunDelayMs: 50,
      firstRunJitterMs: 50,
    });
    const started = Date.now();
    runner.start();
    await eventually(() => runs.length > 0, { timeoutMs: 2000 });
    await runner.stop();
    expect(runs).toHaveLength(1);
    expect(runs[0]! - started).toBeGreaterThanOrEqual(45);
    expect(runs[0]! - started).toBeLessThan(2000);
  });

  it('defaults to a first run within ten seconds', async () => {
    const { FIRST_RUN_DELAY_MS, FIRST_RUN_JITTER_MS } = await import('../../server/jobs/runner.js');
    expect(FIRST_RUN_DELAY_MS + FIRST_RUN_JITTER_MS).toBeLessThanOrEqual(10_000);
    expect(FIRST_RUN_DELAY_MS).toBeGreaterThan(0);
  });
});
