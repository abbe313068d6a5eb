// Recurring events (issue #26): a create with `recurrence` makes one event per occurrence,
// listed by ?series= in start order; PATCH scopes this / following / all; cancelling one
// occurrence; RSVPs per occurrence, retention per occurrence; privacy of a grove series.
// REST and the typed client.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rsvpSweep } from '../../server/domains/events/rsvp-sweep.js';
import { createJobRunner } from '../../server/jobs/runner.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { eventBody, groveWithOrganizer } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** A weekly Berlin series starting a few days from now at 18:00 local (winter: 17:00Z). */
function seriesBody(groveId: string, overrides: Record<string, unknown> = {}) {
  const first = new Date(t.clock.now().getTime() + 3 * DAY);
  first.setUTCHours(17, 0, 0, 0);
  return eventBody(
    t,
    { groveId },
    {
      startsAt: first.toISOString(),
      endsAt: new Date(first.getTime() + HOUR).toISOString(),
      timeZone: 'Europe/Berlin',
      recurrence: { rule: 'FREQ=WEEKLY;COUNT=4' },
      ...overrides,
    },
  );
}

async function createSeries(organizer: TestMember, groveId: string, overrides: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/api/events', { token: organizer.token, body: seriesBody(groveId, overrides) });
  if (res.status !== 201) throw new Error(`create series failed: ${res.status} ${res.text}`);
  return res.body;
}

async function listSeries(seriesId: string, token?: string) {
  const res = await t.request('GET', `/api/events?series=${seriesId}`, { token });
  expect(res.status).toBe(200);
  return res.body.items as any[];
}

const localTime = (iso: string, zone = 'Europe/Berlin') =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(iso),
  );

describe('creating a series', () => {
  it('materializes one event per occurrence, listed by ?series= in start order (REST + tRPC)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const first = await createSeries(organizer, grove._id);
    expect(first.series).toMatchObject({ rule: 'FREQ=WEEKLY;COUNT=4', timeZone: 'Europe/Berlin', overridden: false });
    expect(first.series.occurrence).toBe(first.series.start);
    const items = await listSeries(first.series._id);
    expect(items).toHaveLength(4);
    expect(items[0]._id).toBe(first._id);
    expect(new Set(items.map((e) => e._id)).size).toBe(4);
    expect(new Set(items.map((e) => e.slug)).size).toBe(4);
    for (const [i, e] of items.entries()) {
      expect(e.series._id).toBe(first.series._id);
      expect(Date.parse(e.startsAt)).toBeGreaterThan(i === 0 ? 0 : Date.parse(items[i - 1].startsAt));
      expect(localTime(e.startsAt)).toBe(localTime(first.startsAt));
      expect(e.slug).toContain(e.series.occurrence.slice(0, 10));
    }
    const viaTrpc = await t.trpc().events.list.query({ series: first.series._id, limit: 2 });
    expect(viaTrpc.items.map((e) => e._id)).toEqual(items.slice(0, 2).map((e) => e._id));
    const rest = await t.trpc().events.list.query({ series: first.series._id, limit: 2, cursor: viaTrpc.nextCursor! });
    expect(rest.items.map((e) => e._id)).toEqual(items.slice(2).map((e) => e._id));

    const byTrpc = await t.trpc(organizer.token).events.create.mutate({
      ...(seriesBody(grove._id, { recurrence: { rule: 'RRULE:FREQ=MONTHLY;BYDAY=2TH;COUNT=3' } }) as any),
    });
    expect(byTrpc.series?.rule).toBe('FREQ=MONTHLY;BYDAY=+2TH;COUNT=3');
    const monthly = await listSeries(byTrpc.series!._id);
    expect(monthly).toHaveLength(3);
    for (const e of monthly) {
      const local = new Date(`${e.series.occurrence}Z`);
      expect(local.getUTCDay()).toBe(4);
      expect(Math.ceil(local.getUTCDate() / 7)).toBe(2);
    }
  });

  it('skips exceptions and stops at UNTIL (a date-only UNTIL includes that day)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const body = seriesBody(grove._id);
    const firstDay = new Date(Date.parse(body.startsAt as string));
    const day = (n: number) => new Date(firstDay.getTime() + n * DAY).toISOString().slice(0, 10);
    const created = await createSeries(organizer, grove._id, {
      recurrence: { rule: `FREQ=DAILY;UNTIL=${day(4).replace(/-/g, '')}`, exceptions: [day(2)] },
    });
    const items = await listSeries(created.series._id);
    expect(items.map((e) => e.series.occurrence.slice(0, 10))).toEqual([day(0), day(1), day(3), day(4)]);
  });

  it('refuses unbounded, sub-daily, oversized and unparsable rules with 400, creating nothing', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const cases = [
      'FREQ=WEEKLY',
      'FREQ=HOURLY;COUNT=3',
      'FREQ=DAILY;COUNT=101',
      'FREQ=MONTHLY;COUNT=30',
      'FREQ=WEEKLY;BYDAY=XX;COUNT=2',
      'FREQ=WEEKLY;COUNT=2;BYHOUR=5',
      'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY;COUNT=2',
      'nonsense',
    ];
    for (const rule of cases) {
      const title = `Refused ${Math.random()}`;
      const res = await t.request('POST', '/api/events', {
        token: organizer.token,
        body: seriesBody(grove._id, { title, recurrence: { rule } }),
      });
      expect(res.status, rule).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.message).toMatch(/recurrence/);
      const [row] = await t.deps.database.rows<{ n: number }>(
        sql`select count(*)::int as n from events where title = ${title}`,
      );
      expect(Number(row!.n)).toBe(0);
    }
  });

  it('is for organizers of the host only (403 for a member)', async () => {
    const { grove } = await groveWithOrganizer(t);
    const member = await createMember(t);
    const res = await t.request('POST', '/api/events', { token: member.token, body: seriesBody(grove._id) });
    expect(res.status).toBe(403);
  });
});

describe('occurrences on their own', () => {
  it('takes RSVPs per occurrence; cancelling one leaves the others', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const first = await createSeries(organizer, grove._id);
    const [a, b] = await listSeries(first.series._id);
    const member = await createMember(t);
    await t.trpc(member.token).events.rsvp.mutate({ id: b._id, status: 'going' });
    const seenA = await t.request('GET', `/api/events/${a.slug}`, { token: member.token });
    expect(seenA.body.myRsvp).toBeNull();
    const cancelled = await t.request('PATCH', `/api/events/${a._id}`, {
      token: organizer.token,
      body: { status: 'cancelled' },
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.series.overridden).toBe(false);
    const items = await listSeries(first.series._id, member.token);
    expect(items.map((e) => e.status)).toEqual(['cancelled', 'scheduled', 'scheduled', 'scheduled']);
    expect(items[1].myRsvp).toBe('going');
  });

  it('deletes RSVPs 30 days after each occurrence ends, not the series', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const start = t.clock.now().getTime();
    const created = await t.request('POST', '/api/events', {
      token: organizer.token,
      body: eventBody(
        t,
        { groveId: grove._id },
        {
          startsAt: new Date(start + 0.25 * HOUR).toISOString(),
          endsAt: new Date(start + 1.25 * HOUR).toISOString(),
          timeZone: 'UTC',
          recurrence: { rule: 'FREQ=DAILY;COUNT=2' },
        },
      ),
    });
    expect(created.status).toBe(201);
    const [first, second] = await listSeries(created.body.series._id);
    const member = await createMember(t);
    for (const e of [first, second])
      await t.request('POST', `/api/events/${e._id}/rsvp`, { token: member.token, body: { status: 'going' } });
    const runner = createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [rsvpSweep]);
    const count = async (id: string) =>
      Number(
        (
          await t.deps.database.rows<{ n: number }>(
            sql`select count(*)::int as n from event_rsvps where event_id = ${id}`,
          )
        )[0]!.n,
      );
    t.clock.set(new Date(Date.parse(first.endsAt) + 30 * DAY + 1));
    try {
      await runner.runOnce(rsvpSweep);
      expect(await count(first._id)).toBe(0);
      expect(await count(second._id)).toBe(1);
    } finally {
      t.clock.set(new Date(start));
    }
  });
});

describe('PATCH scopes', () => {
  it('this: changes one occurrence and marks it overridden; all leaves it be', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const first = await createSeries(organizer, grove._id);
    const [, b] = await listSeries(first.series._id);
    const moved = await t.request('PATCH', `/api/events/${b._id}`, {
      token: organizer.token,
      body: {
        title: 'Moved one',
        startsAt: new Date(Date.parse(b.startsAt) + HOUR).toISOString(),
        endsAt: new Date(Date.parse(b.endsAt) + HOUR).toISOString(),
      },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.series).toMatchObject({ overridden: true, occurrence: b.series.occurrence });
    const all = await t.trpc(organizer.token).events.update.mutate({ event: first._id, scope: 'all', title: 'Series' });
    expect(all.title).toBe('Series');
    const items = await listSeries(first.series._id);
    expect(items.map((e) => e.title)).toEqual(['Series', 'Moved one', 'Series', 'Series']);
    expect(new Set(items.map((e) => e.series._id)).size).toBe(1);
  });

  it('all: a new time of day shifts the local wall time of every occurrence not yet ended', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const first = await createSeries(organizer, grove._id);
    const before = await listSeries(first.series._id);
    const res = await t.request('PATCH', `/api/events/${before[1]._id}`, {
      token: organizer.token,
      body: {
        scope: 'all',
        startsAt: new Date(Date.parse(before[1].startsAt) + 90 * 60_000).toISOString(),
        endsAt: new Date(Date.parse(before[1].startsAt) + 210 * 60_000).toISOString(),
      },
    });
    expect(res.status).toBe(200);
    const items = await listSeries(first.series._id);
    for (const e of items) {
      expect(localTime(e.startsAt)).toBe('19:30');
      expect(Date.parse(e.endsAt) - Date.parse(e.startsAt)).toBe(2 * HOUR);
      expect(e.series.occurrence.slice(11, 16)).toBe('19:30');
    }
    expect(items[0].series).toMatchObject({
      start: `${first.series.start.slice(0, 10)}T19:30:00`,
      durationSeconds: 7200,
    });

    const moveDay = await t.request('PATCH', `/api/events/${items[1]._id}`, {
      token: organizer.token,
      body: {
        scope: 'all',
        startsAt: new Date(Date.parse(items[1].startsAt) + DAY).toISOString(),
        endsAt: new Date(Date.parse(items[1].endsAt) + DAY).toISOString(),
      },
    });
    expect(moveDay.status).toBe(400);
    expect(moveDay.body.error.message).toMatch(/date/);
  });

  it('following: splits the series; earlier occurrences keep theirs', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const first = await createSeries(organizer, grove._id);
    const before = await listSeries(first.series._id);
    const res = await t.request('PATCH', `/api/events/${before[2]._id}`, {
      token: organizer.token,
      body: { scope: 'following', title: 'Later vigil' },
    });
    expect(res.status).toBe(200);
    const newSeries = res.body.series;
    expect(newSeries._id).not.toBe(first.series._id);
    expect(newSeries).toMatchObject({ rule: 'FREQ=WEEKLY;COUNT=2', start: before[2].series.occurrence });
    const old = await listSeries(first.series._id);
    expect(old.map((e) => e._id)).toEqual([before[0]._id, before[1]._id]);
    expect(old[0].series.rule).toBe('FREQ=WEEKLY;COUNT=2');
    expect(old.map((e) => e.title)).toEqual([before[0].title, before[1].title]);
    const later = await listSeries(newSeries._id);
    expect(later.map((e) => e._id)).toEqual([before[2]._id, before[3]._id]);
    expect(later.map((e) => e.title)).toEqual(['Later vigil', 'Later vigil']);
  });

  it('all with status cancelled cancels every occurrence in scope, overridden ones too', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const first = await createSeries(organizer, grove._id);
    const [, b] = await listSeries(first.series._id);
    await t.request('PATCH', `/api/events/${b._id}`, { token: organizer.token, body: { title: 'Own' } });
    const res = await t.request('PATCH', `/api/events/${first._id}`, {
      token: organizer.token,
      body: { scope: 'all', status: 'cancelled' },
    });
    expect(res.status).toBe(200);
    expect((await listSeries(first.series._id)).every((e) => e.status === 'cancelled')).toBe(true);
  });

  it('refuses members who cannot manage (403) and hides invisible series (404)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const first = await createSeries(organizer, grove._id, { visibility: 'grove' });
    const outsider = await createMember(t);
    const hidden = await t.request('PATCH', `/api/events/${first._id}`, {
      token: outsider.token,
      body: { scope: 'all', title: 'x' },
    });
    expect(hidden.status).toBe(404);
    const joined = await t.request('POST', `/api/groves/${grove._id}/join`, { token: outsider.token });
    expect(joined.status).toBeLessThan(300);
    const member = await t.request('PATCH', `/api/events/${first._id}`, {
      token: outsider.token,
      body: { scope: 'all', title: 'x' },
    });
    expect(member.status).toBe(403);
    expect((await listSeries(first.series._id)).length).toBe(0);
    expect((await listSeries(first.series._id, organizer.token)).every((e) => e.title !== 'x')).toBe(true);
  });
});

describe('privacy', () => {
  it('a grove series is invisible to outsiders through ?series= (empty, like an unknown id)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const first = await createSeries(organizer, grove._id, { visibility: 'grove' });
    const outsider = await createMember(t);
    expect(await listSeries(first.series._id, outsider.token)).toEqual([]);
    expect(await listSeries(first.series._id)).toEqual([]);
    expect(await listSeries('01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', outsider.token)).toEqual([]);
    expect(await listSeries(first.series._id, organizer.token)).toHaveLength(4);
    const bad = await t.request('GET', '/api/events?series=not-a-uuid');
    expect(bad.status).toBe(400);
  });
});
