// The private action log: logging each kind, listing newest first with filters and cursors,
// deleting, validation, and owner-only access (privacy rule 3). REST and the typed client.
import { TRPCClientError } from '@trpc/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../server/lib/pagination.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { createAdmin } from '../events/helpers.js';
import { approvedPlace, submitPlace } from '../places/helpers.js';
import { logAction, outreach, wholeLog } from './helpers.js';

let t: TestApp;
let admin: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createAdmin(t);
});
afterAll(() => t.close());

const DAY = 86_400_000;
const dateIn = (days: number) => new Date(t.clock.now().getTime() + days * DAY).toISOString().slice(0, 10);

async function totalsOf(member: TestMember) {
  const [row] = await t.deps.database.rows<{ actions: number; minutes: number }>(
    sql`select actions, minutes from action_totals where user_id = ${member.id}`,
  );
  return row ? { actions: Number(row.actions), minutes: Number(row.minutes) } : null;
}

async function trpcError(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  return (error as TRPCClientError<any>).data as { code: string; httpStatus: number };
}

describe('logging and listing', () => {
  it('logs every kind and lists them newest first (happy, REST + tRPC)', async () => {
    const m = await createMember(t);
    const place = await approvedPlace(t, m, admin, { name: 'Hillside Sanctuary' });

    const first = await logAction(t, m, outreach(2.5, 'Leafleting at the market.'));
    expect(first).toEqual({
      _id: expect.any(String),
      kind: 'outreach',
      occurredOn: '2026-03-14',
      hours: 2.5,
      note: 'Leafleting at the market.',
      placeId: null,
      placeName: null,
      eventId: null,
      eventTitle: null,
      createdAt: expect.any(String),
    });
    const client = t.trpc(m.token);
    const shift = await client.actions.create.mutate({
      kind: 'volunteer_shift',
      occurredOn: '2026-03-15',
      hours: 4,
      placeId: place._id,
    });
    expect(shift).toMatchObject({
      kind: 'volunteer_shift',
      hours: 4,
      placeId: place._id,
      placeName: 'Hillside Sanctuary',
    });
    const freeText = await logAction(t, m, {
      kind: 'volunteer_shift',
      occurredOn: '2026-03-16',
      hours: 0.25,
      placeName: '  Food bank on 5th  ',
    });
    expect(freeText).toMatchObject({ placeId: null, placeName: 'Food bank on 5th', hours: 0.25 });
    const other = await logAction(t, m, { kind: 'other', occurredOn: '2026-03-17', note: 'Wrote to my MP' });
    expect(other).toMatchObject({ kind: 'other', hours: null, note: 'Wrote to my MP' });
    const attended = await logAction(t, m, { kind: 'event_attended', occurredOn: '2026-03-18', hours: 3 });
    expect(attended).toMatchObject({ kind: 'event_attended', eventId: null, eventTitle: null });

    const rest = await t.request('GET', '/api/actions', { token: m.token });
    expect(rest.status).toBe(200);
    expect(rest.body.nextCursor).toBeNull();
    expect(rest.body.items.map((e: any) => e._id)).toEqual([attended, other, freeText, shift, first].map((e) => e._id));
    expect(rest.body.items[4]).toEqual(first);
    const typed = await client.actions.list.query({});
    expect(typed).toEqual(rest.body);

    // Totals follow every write: 5 entries, 2.5 + 4 + 0.25 + 3 hours.
    expect(await totalsOf(m)).toEqual({ actions: 5, minutes: (2.5 + 4 + 0.25 + 3) * 60 });
  });

  it('pages by cursor and filters by kind and date (happy + error)', async () => {
    const m = await createMember(t);
    const made = [];
    for (let day = 10; day <= 16; day++)
      made.push(
        await logAction(t, m, {
          kind: day % 2 ? 'outreach' : 'other',
          occurredOn: `2026-04-${day}`,
          ...(day % 2 ? { hours: 1 } : {}),
        }),
      );
    const newestFirst = made.map((e) => e._id).reverse();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await t.request('GET', `/api/actions?limit=3${cursor ? `&cursor=${cursor}` : ''}`, {
        token: m.token,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.items.map((e: any) => e._id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(newestFirst);

    const outreachOnly = await wholeLog(t, m, { kind: 'outreach' });
    expect(outreachOnly.map((e) => e.occurredOn)).toEqual(['2026-04-15', '2026-04-13', '2026-04-11']);
    const window = await t.request('GET', '/api/actions?from=2026-04-12&to=2026-04-14', { token: m.token });
    expect(window.body.items.map((e: any) => e.occurredOn)).toEqual(['2026-04-14', '2026-04-13', '2026-04-12']);

    const bad = await t.request('GET', '/api/actions?cursor=not-a-cursor', { token: m.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_cursor');
    expect((await trpcError(t.trpc(m.token).actions.list.query({ cursor: 'nope' }))).code).toBe('invalid_cursor');
    for (const query of ['kind=sleeping', 'from=01/01/2026', 'to=2026-02-30', 'limit=0', 'limit=101']) {
      const res = await t.request('GET', `/api/actions?${query}`, { token: m.token });
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
  });

  it('deletes an entry and takes it out of the totals (happy, REST + tRPC)', async () => {
    const m = await createMember(t);
    const a = await logAction(t, m, outreach(1.5));
    const b = await logAction(t, m, outreach(2));
    expect(await totalsOf(m)).toEqual({ actions: 2, minutes: 210 });
    const res = await t.request('DELETE', `/api/actions/${a._id}`, { token: m.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(await totalsOf(m)).toEqual({ actions: 1, minutes: 120 });
    expect(await t.trpc(m.token).actions.delete.mutate({ id: b._id })).toEqual({ ok: true });
    expect(await totalsOf(m)).toEqual({ actions: 0, minutes: 0 });
    expect((await t.request('GET', '/api/actions', { token: m.token })).body.items).toEqual([]);
    // Gone is gone: a second delete is 404.
    const again = await t.request('DELETE', `/api/actions/${a._id}`, { token: m.token });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('not_found');
    expect((await trpcError(t.trpc(m.token).actions.delete.mutate({ id: b._id }))).code).toBe('not_found');
    expect((await t.request('DELETE', '/api/actions/not-a-uuid', { token: m.token })).status).toBe(400);
  });
});

describe('validation (error)', () => {
  let m: TestMember;
  beforeAll(async () => {
    m = await createMember(t);
  });

  const refused = async (body: Record<string, unknown>, field: string) => {
    const res = await t.request('POST', '/api/actions', { token: m.token, body });
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(
      res.body.error.details.map((d: any) => d.path),
      JSON.stringify(body),
    ).toContain(field);
  };

  it('refuses inconsistent or out-of-range fields, naming them', async () => {
    await refused({ kind: 'outreach', occurredOn: '2026-03-14' }, 'hours');
    await refused({ kind: 'volunteer_shift', occurredOn: '2026-03-14', placeName: 'Barn' }, 'hours');
    await refused({ kind: 'outreach', occurredOn: '2026-03-14', hours: 0.3 }, 'hours');
    await refused({ kind: 'outreach', occurredOn: '2026-03-14', hours: 0 }, 'hours');
    await refused({ kind: 'outreach', occurredOn: '2026-03-14', hours: 24.25 }, 'hours');
    await refused({ kind: 'outreach', occurredOn: '2026-03-14', hours: '2' }, 'hours');
    await refused({ kind: 'outreach', hours: 1 }, 'occurredOn');
    await refused({ kind: 'other', occurredOn: 'yesterday' }, 'occurredOn');
    await refused({ kind: 'other', occurredOn: '1899-12-31' }, 'occurredOn');
    await refused({ kind: 'other', occurredOn: dateIn(2) }, 'occurredOn');
    await refused({ kind: 'outreach', occurredOn: '2026-03-14', hours: 1, placeName: 'Market' }, 'placeName');
    await refused(
      { kind: 'outreach', occurredOn: '2026-03-14', hours: 1, placeId: '0190d3b2-6f1e-7c3a-8b2d-1234567890ab' },
      'placeId',
    );
    await refused(
      {
        kind: 'volunteer_shift',
        occurredOn: '2026-03-14',
        hours: 1,
        placeName: 'Barn',
        placeId: '0190d3b2-6f1e-7c3a-8b2d-1234567890ab',
      },
      'placeName',
    );
    await refused(
      { kind: 'other', occurredOn: '2026-03-14', eventId: '0190d3b2-6f1e-7c3a-8b2d-1234567890ab' },
      'eventId',
    );
    await refused({ kind: 'other', occurredOn: '2026-03-14', note: 'x'.repeat(1001) }, 'note');
    await refused({ kind: 'other', occurredOn: '2026-03-14', note: '   ' }, 'note');
    await refused({ kind: 'other', occurredOn: '2026-03-14', userId: m.id }, '');
    await refused({ kind: 'sleeping', occurredOn: '2026-03-14' }, 'kind');
    const typed = await trpcError(
      t.trpc(m.token).actions.create.mutate({ kind: 'outreach', occurredOn: '2026-03-14' } as never),
    );
    expect(typed).toMatchObject({ code: 'validation_failed', httpStatus: 400 });
    expect((await t.request('GET', '/api/actions', { token: m.token })).body.items).toEqual([]);
  });

  it('takes today in every time zone (up to tomorrow, UTC)', async () => {
    const entry = await logAction(t, m, { kind: 'other', occurredOn: dateIn(1) });
    expect(entry.occurredOn).toBe(dateIn(1));
  });

  it('takes a place only when the caller may see it (approved, or their own pending submission)', async () => {
    const other = await createMember(t);
    const theirs = await submitPlace(t, other);
    await refused({ kind: 'volunteer_shift', occurredOn: '2026-03-14', hours: 2, placeId: theirs._id }, 'placeId');
    await refused(
      { kind: 'volunteer_shift', occurredOn: '2026-03-14', hours: 2, placeId: '0190d3b2-6f1e-7c3a-8b2d-1234567890ab' },
      'placeId',
    );
    const mine = await submitPlace(t, m, { name: 'My pending barn' });
    const entry = await logAction(t, m, {
      kind: 'volunteer_shift',
      occurredOn: '2026-03-14',
      hours: 2,
      placeId: mine._id,
    });
    expect(entry).toMatchObject({ placeId: mine._id, placeName: 'My pending barn' });
  });
});

describe('owner only (security)', () => {
  it("answers 404 for another member's entry, exactly as for a missing one, and lists only one's own", async () => {
    const owner = await createMember(t);
    const other = await createMember(t);
    const entry = await logAction(t, owner, outreach(1, 'Only mine'));

    const theirs = await t.request('DELETE', `/api/actions/${entry._id}`, { token: other.token });
    const missing = await t.request('DELETE', '/api/actions/0190d3b2-6f1e-7c3a-8b2d-1234567890ab', {
      token: other.token,
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(missing.body);
    expect(await trpcError(t.trpc(other.token).actions.delete.mutate({ id: entry._id }))).toMatchObject({
      code: 'not_found',
    });
    // An admin is no exception.
    expect((await t.request('DELETE', `/api/actions/${entry._id}`, { token: admin.token })).status).toBe(404);

    const otherList = await t.request('GET', '/api/actions', { token: other.token });
    expect(otherList.body.items).toEqual([]);
    expect(otherList.text).not.toContain('Only mine');
    // A cursor naming someone else's entry reveals nothing either.
    const viaCursor = await t.trpc(other.token).actions.list.query({ cursor: encodeCursor(entry._id) });
    expect(viaCursor.items).toEqual([]);
    expect((await wholeLog(t, owner)).map((e) => e._id)).toEqual([entry._id]);

    for (const [method, path] of [
      ['GET', '/api/actions'],
      ['POST', '/api/actions'],
      ['DELETE', `/api/actions/${entry._id}`],
      ['GET', '/api/actions/suggestions'],
    ] as const) {
      const res = await t.request(method, path, method === 'POST' ? { body: outreach() } : {});
      expect(res.status, `${method} ${path}`).toBe(401);
    }
    expect((await trpcError(t.trpc().actions.list.query({}))).code).toBe('unauthorized');
  });

  it('honours Idempotency-Key: a retried create logs once', async () => {
    const m = await createMember(t);
    const headers = { 'idempotency-key': 'log-once-1' };
    const first = await t.request('POST', '/api/actions', { token: m.token, body: outreach(1), headers });
    const retry = await t.request('POST', '/api/actions', { token: m.token, body: outreach(1), headers });
    expect(first.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(await wholeLog(t, m)).toHaveLength(1);
    expect(await totalsOf(m)).toEqual({ actions: 1, minutes: 60 });
  });
});
