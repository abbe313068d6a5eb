// Concurrent writes on PostgreSQL (real parallel connections): a member's running totals never
// drift from their entries, and two confirmations of one event log it once (201 + 409).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { groveWithOrganizer } from '../events/helpers.js';
import { afterTheEvents, logAction, outreach, rsvp, soonEvent } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it('keeps the totals equal to the entries under concurrent creates, deletes and opt-in changes', async () => {
  const m = await createMember(t);
  const existing = await Promise.all(Array.from({ length: 10 }, (_, i) => logAction(t, m, outreach((i % 4) + 1))));
  const work: Promise<unknown>[] = [];
  for (let i = 0; i < 30; i++)
    work.push(t.request('POST', '/api/actions', { token: m.token, body: outreach(((i % 8) + 1) / 4) }));
  for (const entry of existing) work.push(t.request('DELETE', `/api/actions/${entry._id}`, { token: m.token }));
  for (let i = 0; i < 6; i++)
    work.push(t.request('PUT', '/api/me/action-aggregate-opt-in', { token: m.token, body: { optIn: i % 2 === 0 } }));
  const answers = (await Promise.all(work)) as { status: number }[];
  expect(answers.every((a) => a.status < 300)).toBe(true);

  const [row] = await t.deps.database.rows<{ actions: number; minutes: number; counted: number; summed: number }>(sql`
    select t.actions, t.minutes,
           (select count(*)::int from action_entries where user_id = ${m.id}) as counted,
           (select coalesce(sum(minutes), 0)::int from action_entries where user_id = ${m.id}) as summed
    from action_totals t where t.user_id = ${m.id}`);
  expect(Number(row!.counted)).toBe(30);
  expect({ actions: Number(row!.actions), minutes: Number(row!.minutes) }).toEqual({
    actions: Number(row!.counted),
    minutes: Number(row!.summed),
  });
});

it('logs an event once when two confirmations race', async () => {
  const { grove, organizer } = await groveWithOrganizer(t);
  const m = await createMember(t);
  const event = await soonEvent(t, organizer, { groveId: grove._id });
  await rsvp(t, m, event._id, 'going');
  afterTheEvents(t);
  const body = { kind: 'event_attended', eventId: event._id };
  const answers = await Promise.all(
    Array.from({ length: 4 }, () => t.request('POST', '/api/actions', { token: m.token, body })),
  );
  expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
  const [row] = await t.deps.database.rows<{ n: number; actions: number }>(sql`
    select (select count(*)::int from action_entries where user_id = ${m.id}) as n,
           (select actions from action_totals where user_id = ${m.id}) as actions`);
  expect({ n: Number(row!.n), actions: Number(row!.actions) }).toEqual({ n: 1, actions: 1 });
});
