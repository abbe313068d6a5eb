// Factories for the action-log tests: entries through the API, and events that the member
// RSVP'd to and that then end (the clock moves forward past them).
import { expect } from 'vitest';
import type { TestApp, TestMember } from '../setup/harness.js';
import { createEvent } from '../events/helpers.js';

const HOUR = 3_600_000;

/** Logs an entry through REST as `member`; returns it. */
export async function logAction(t: TestApp, member: TestMember, body: Record<string, unknown>) {
  const res = await t.request('POST', '/api/actions', { token: member.token, body });
  expect(res.status, res.text).toBe(201);
  return res.body as { _id: string; [key: string]: any };
}

export const outreach = (hours = 1, note?: string) => ({
  kind: 'outreach',
  occurredOn: '2026-03-14',
  hours,
  ...(note === undefined ? {} : { note }),
});

/** An event of the host that starts in an hour and lasts an hour (it can still be RSVP'd to). */
export function soonEvent(
  t: TestApp,
  organizer: TestMember,
  host: { groveId?: string; organizationId?: string },
  overrides: Record<string, unknown> = {},
) {
  const start = t.clock.now().getTime() + HOUR;
  return createEvent(t, organizer, host, {
    startsAt: new Date(start).toISOString(),
    endsAt: new Date(start + HOUR).toISOString(),
    ...overrides,
  });
}

export async function rsvp(t: TestApp, member: TestMember, eventId: string, status: 'going' | 'interested') {
  const res = await t.request('POST', `/api/events/${eventId}/rsvp`, { token: member.token, body: { status } });
  expect(res.status, res.text).toBe(200);
}

/** Moves the clock past every event made by soonEvent so far. */
export function afterTheEvents(t: TestApp) {
  t.clock.advance(3 * HOUR);
}

/** Every entry of the member's log, through the typed client, page by page. */
export async function wholeLog(
  t: TestApp,
  member: TestMember,
  filters: { kind?: 'event_attended' | 'outreach' | 'volunteer_shift' | 'other'; from?: string; to?: string } = {},
) {
  const client = t.trpc(member.token);
  const items: any[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.actions.list.query({ ...filters, cursor, limit: 100 });
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return items;
}
