// "Event attended": suggestions come only from the member's own `going` RSVPs to events that
// have ended (not cancelled, still visible, approved RSVP, not yet confirmed); confirming copies
// what the member needs into the entry, which then survives the RSVP sweep and the event's
// deletion and shows the event to nobody else.
import { TRPCClientError } from '@trpc/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner } from '../../server/jobs/runner.js';
import { rsvpSweep } from '../../server/domains/events/rsvp-sweep.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { groveWithOrganizer } from '../events/helpers.js';
import { afterTheEvents, rsvp, soonEvent, wholeLog } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  // The clock moves past the 30-day RSVP retention below: sessions must outlive it.
  t = await createTestApp({ SESSION_TTL_DAYS: '365' });
});
afterAll(() => t.close());

const DAY = 86_400_000;
const NO_SUCH_EVENT = '0190d3b2-6f1e-7c3a-8b2d-1234567890ab';

async function suggestionIds(member: TestMember) {
  const res = await t.request('GET', '/api/actions/suggestions', { token: member.token });
  expect(res.status, res.text).toBe(200);
  return res.body.items.map((s: any) => s.eventId) as string[];
}

async function confirm(member: TestMember, eventId: string, extra: Record<string, unknown> = {}) {
  return t.request('POST', '/api/actions', {
    token: member.token,
    body: { kind: 'event_attended', eventId, ...extra },
  });
}

describe('suggestions', () => {
  it("offer only ended, held, visible events the member RSVP'd going to, not yet confirmed", async () => {
    const { admin, grove, organizer } = await groveWithOrganizer(t);
    const member = await createMember(t);
    const bystander = await createMember(t);
    const host = { groveId: grove._id };

    const attended = await soonEvent(t, organizer, host, { title: 'Vigil at the abattoir' });
    const merelyInterested = await soonEvent(t, organizer, host);
    const cancelled = await soonEvent(t, organizer, host);
    const pendingApproval = await soonEvent(t, organizer, host, {
      meetingPointVisibility: 'rsvp',
      rsvpApproval: true,
      meetingPoint: { text: 'By the gate' },
    });
    const groveOnly = await soonEvent(t, organizer, host, { visibility: 'grove' });
    const future = await soonEvent(t, organizer, host, {
      startsAt: new Date(t.clock.now().getTime() + 5 * DAY).toISOString(),
      endsAt: new Date(t.clock.now().getTime() + 5 * DAY + 3_600_000).toISOString(),
    });
    const othersOnly = await soonEvent(t, organizer, host);

    await rsvp(t, member, attended._id, 'going');
    await rsvp(t, member, merelyInterested._id, 'interested');
    await rsvp(t, member, cancelled._id, 'going');
    await rsvp(t, member, pendingApproval._id, 'going');
    expect((await t.request('POST', `/api/groves/${grove._id}/join`, { token: member.token })).status).toBe(200);
    await rsvp(t, member, groveOnly._id, 'going');
    await rsvp(t, member, future._id, 'going');
    await rsvp(t, bystander, othersOnly._id, 'going');
    const cancel = await t.request('PATCH', `/api/events/${cancelled._id}`, {
      token: organizer.token,
      body: { status: 'cancelled' },
    });
    expect(cancel.status, cancel.text).toBe(200);
    // Leaving the grove: its grove-only event is no longer the member's to see.
    expect((await t.request('DELETE', `/api/groves/${grove._id}/leave`, { token: member.token })).status).toBe(200);

    // Nothing has ended yet.
    expect(await suggestionIds(member)).toEqual([]);
    afterTheEvents(t);

    expect(await suggestionIds(member)).toEqual([attended._id]);
    const typed = await t.trpc(member.token).actions.listSuggestions.query({});
    expect(typed).toEqual({
      items: [
        {
          eventId: attended._id,
          slug: attended.slug,
          title: 'Vigil at the abattoir',
          startsAt: attended.startsAt,
          endsAt: attended.endsAt,
          occurredOn: attended.startsAt.slice(0, 10),
          checkedIn: false,
        },
      ],
      nextCursor: null,
    });
    expect(await suggestionIds(bystander)).toEqual([othersOnly._id]);
    expect(await suggestionIds(organizer)).toEqual([]);
    expect(await suggestionIds(admin)).toEqual([]);

    // None of the others can be confirmed, and all answer the same 404.
    const answers = [];
    for (const id of [
      merelyInterested._id,
      cancelled._id,
      pendingApproval._id,
      groveOnly._id,
      future._id,
      othersOnly._id,
      NO_SUCH_EVENT,
    ]) {
      const res = await confirm(member, id);
      expect(res.status, id).toBe(404);
      answers.push(res.body);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(await wholeLog(t, member)).toEqual([]);
  });

  it('page newest event first by cursor (happy + error)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const member = await createMember(t);
    const made = [];
    for (let i = 0; i < 3; i++) {
      const event = await soonEvent(t, organizer, { groveId: grove._id });
      await rsvp(t, member, event._id, 'going');
      made.push(event._id);
    }
    afterTheEvents(t);
    const first = await t.request('GET', '/api/actions/suggestions?limit=2', { token: member.token });
    expect(first.body.items.map((s: any) => s.eventId)).toEqual([made[2], made[1]]);
    const second = await t.request('GET', `/api/actions/suggestions?limit=2&cursor=${first.body.nextCursor}`, {
      token: member.token,
    });
    expect(second.body).toEqual({ items: [expect.objectContaining({ eventId: made[0] })], nextCursor: null });
    const bad = await t.request('GET', '/api/actions/suggestions?cursor=zzz', { token: member.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_cursor');
    expect((await t.request('GET', '/api/actions/suggestions')).status).toBe(401);
  });
});

describe('confirming an attended event', () => {
  it('copies title and date into the entry, once (REST + tRPC; 409 the second time)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const member = await createMember(t);
    const a = await soonEvent(t, organizer, { groveId: grove._id }, { title: 'Street stall' });
    const b = await soonEvent(t, organizer, { groveId: grove._id }, { title: 'Sanctuary open day' });
    await rsvp(t, member, a._id, 'going');
    await rsvp(t, member, b._id, 'going');
    afterTheEvents(t);

    const res = await confirm(member, a._id);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      _id: expect.any(String),
      kind: 'event_attended',
      occurredOn: a.startsAt.slice(0, 10),
      hours: null,
      note: null,
      placeId: null,
      placeName: null,
      eventId: a._id,
      eventTitle: 'Street stall',
      createdAt: expect.any(String),
    });
    const typed = await t.trpc(member.token).actions.create.mutate({
      kind: 'event_attended',
      eventId: b._id,
      occurredOn: '2026-01-02',
      hours: 2,
      note: 'Brought soup',
    });
    expect(typed).toMatchObject({
      eventId: b._id,
      eventTitle: 'Sanctuary open day',
      occurredOn: '2026-01-02',
      hours: 2,
    });
    expect(await suggestionIds(member)).toEqual([]);

    const again = await confirm(member, a._id);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    const typedAgain = await t
      .trpc(member.token)
      .actions.create.mutate({ kind: 'event_attended', eventId: b._id })
      .catch((e: unknown) => e);
    expect(typedAgain).toBeInstanceOf(TRPCClientError);
    expect((typedAgain as TRPCClientError<any>).data.code).toBe('conflict');

    // Deleting the entry offers the suggestion again (while the RSVP lasts).
    const [entryA] = (await wholeLog(t, member)).filter((e) => e.eventId === a._id);
    expect((await t.request('DELETE', `/api/actions/${entryA._id}`, { token: member.token })).status).toBe(200);
    expect(await suggestionIds(member)).toEqual([a._id]);
  });

  it('survives the RSVP sweep and the deletion of the event, and shows the event to nobody else', async () => {
    const { admin, grove, organizer } = await groveWithOrganizer(t);
    const member = await createMember(t);
    const other = await createMember(t);
    const event = await soonEvent(t, organizer, { groveId: grove._id }, { title: 'Night vigil 7b' });
    await rsvp(t, member, event._id, 'going');
    await rsvp(t, other, event._id, 'going');
    afterTheEvents(t);
    const entry = (await confirm(member, event._id)).body;

    // The organizer renames the event afterwards: the member's log keeps what they confirmed.
    await t.request('PATCH', `/api/events/${event._id}`, { token: organizer.token, body: { title: 'Renamed' } });

    // 30 days after the event the sweep deletes the RSVPs: the entry stays, the unconfirmed
    // suggestion of the other member goes with its RSVP.
    t.clock.set(new Date(Date.parse(event.endsAt) + 30 * DAY + 60_000));
    const runner = createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [rsvpSweep]);
    await runner.runOnce(rsvpSweep);
    const [rsvps] = await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from event_rsvps where event_id = ${event._id}`,
    );
    expect(Number(rsvps!.n)).toBe(0);
    expect(await wholeLog(t, member)).toEqual([entry]);
    expect(entry).toMatchObject({ eventId: event._id, eventTitle: 'Night vigil 7b' });
    expect(await suggestionIds(other)).toEqual([]);
    expect((await confirm(other, event._id)).status).toBe(404);

    // The event is deleted (its grove is): the entry keeps its title and date, loses the link.
    await t.deps.database.rows(sql`delete from events where id = ${event._id}`);
    const [kept] = await wholeLog(t, member);
    expect(kept).toEqual({ ...entry, eventId: null });

    // Nobody else reads it: not another member, not the organizer, not an admin, not the grove.
    for (const someone of [other, organizer, admin]) {
      const list = await t.request('GET', '/api/actions', { token: someone.token });
      expect(list.text).not.toContain('Night vigil 7b');
      const csv = await t.request('GET', '/api/actions/export', { token: someone.token });
      expect(csv.text).not.toContain('Night vigil 7b');
      expect((await t.request('DELETE', `/api/actions/${entry._id}`, { token: someone.token })).status).toBe(404);
    }
    const groveRead = await t.request('GET', `/api/groves/${grove.slug}`);
    expect(groveRead.text).not.toContain('Night vigil 7b');
    expect(groveRead.text).not.toContain(member.id);
  });
});
