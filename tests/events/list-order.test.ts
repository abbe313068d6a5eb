// GET /api/events lists events in start-time order (ties by `_id`), page after page, whatever
// order they were created in: before issue #21 it listed them in creation order (Nov 30, Dec 9,
// Dec 2, Dec 17). REST and the typed client. Runs on PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../server/lib/pagination.js';
import { createTestApp, unique, type TestApp, type TestMember } from '../setup/harness.js';
import { createAdmin, createGrove, eventBody } from './helpers.js';

let t: TestApp;
let admin: TestMember;
let groveId: string;
const created: { _id: string; startsAt: string }[] = [];

const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createAdmin(t);
  groveId = (await createGrove(t, admin))._id;
  const now = t.clock.now().getTime();
  // Created out of start order; two share a start time (their `_id` decides).
  for (const days of [3, 12, 5, 20, 5, 1]) {
    const startsAt = new Date(now + days * DAY).toISOString();
    const res = await t.request('POST', '/api/events', {
      token: admin.token,
      body: eventBody(t, { groveId }, { startsAt, endsAt: new Date(now + days * DAY + 3_600_000).toISOString() }),
    });
    expect(res.status, res.text).toBe(201);
    created.push({ _id: res.body._id, startsAt: res.body.startsAt });
  }
});
afterAll(() => t.close());

const expectedOrder = () =>
  [...created].sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a._id.localeCompare(b._id)).map((e) => e._id);

describe('GET /api/events order', () => {
  it('REST: start-time order across pages of 2, each event once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/api/events?groveId=${groveId}&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await t.request('GET', query, { token: admin.token });
      expect(res.status, res.text).toBe(200);
      seen.push(...res.body.items.map((e: { _id: string }) => e._id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(expectedOrder());
  });

  it('typed client: start-time order, `from` keeps only those not yet ended', async () => {
    const client = t.trpc(admin.token);
    const from = new Date(t.clock.now().getTime() + 4 * DAY).toISOString();
    const page = await client.events.list.query({ groveId, from, limit: 100 });
    const later = created.filter((e) => e.startsAt > from).map((e) => e._id);
    expect(page.items.map((e) => e._id)).toEqual(expectedOrder().filter((id) => later.includes(id)));
  });

  it('a cursor from another list (an `_id` cursor) or garbage is refused as invalid_cursor', async () => {
    for (const cursor of [encodeCursor(created[0]!._id), unique('x')]) {
      const res = await t.request('GET', `/api/events?cursor=${cursor}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_cursor');
    }
  });
});
