// Shift signups under concurrency: each signup locks the shift's row and counts in a fresh
// statement, so 20 members signing up at once to a shift of capacity 5 give exactly 5 signups
// (and 15 answers of 409 shift_full). Needs real concurrent connections: PostgreSQL only (*.pg.test.ts).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('shift signups under concurrency (PostgreSQL)', () => {
  it('20 concurrent signups to a shift of capacity 5 give exactly 5', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const start = Date.parse(event.startsAt);
    const created = await t.request('POST', `/api/events/${event._id}/shifts`, {
      token: organizer.token,
      body: {
        startsAt: new Date(start - 3_600_000).toISOString(),
        endsAt: new Date(start).toISOString(),
        capacity: 5,
      },
    });
    expect(created.status).toBe(201);
    const members = await Promise.all(Array.from({ length: 20 }, () => createMember(t)));
    const answers = await Promise.all(
      members.map((m) =>
        t.request('PUT', `/api/events/${event._id}/shifts/${created.body._id}/signup`, { token: m.token }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error.code).toBe('shift_full');
    const [row] = await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from event_shift_signups where shift_id = ${created.body._id}`,
    );
    expect(Number(row!.n)).toBe(5);
    const list = await t.request('GET', `/api/events/${event._id}/shifts`);
    expect(list.body.items[0].counts).toEqual({ signedUp: 5, capacity: 5 });
  });
});
