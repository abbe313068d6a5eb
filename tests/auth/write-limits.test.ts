// Per-member write limits on every create route (meta.writeLimit, enforced by memberProcedure):
// generous for people, tight for scripts, configurable, counted before validation and before
// an unbuilt route's 501.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listProcedures } from '../../server/trpc/trpc-internals.js';
import { appRouter } from '../../server/composition.js';
import { createEvent, eventBody, groveWithOrganizer } from '../events/helpers.js';
import { placeInput } from '../places/helpers.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';

const LIMIT = 3;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_WRITES_PER_MEMBER: String(LIMIT), RATE_LIMIT_WRITES_WINDOW_SECONDS: '600' });
});
afterAll(() => t.close());

function expect429(res: { status: number; headers: Headers; body: any }) {
  expect(res.status).toBe(429);
  expect(res.body.error.code).toBe('rate_limited');
  const wait = Number(res.headers.get('retry-after'));
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(600);
}

describe('per-member write limits', () => {
  it('places: N submissions, then 429; another member is unaffected; the window resets it', async () => {
    const m = await createMember(t);
    for (let i = 0; i < LIMIT; i++)
      expect((await t.request('POST', '/api/places', { token: m.token, body: placeInput() })).status).toBe(201);
    expect429(await t.request('POST', '/api/places', { token: m.token, body: placeInput() }));
    await expect(t.trpc(m.token).places.create.mutate(placeInput() as never)).rejects.toMatchObject({
      data: { code: 'rate_limited', httpStatus: 429 },
    });
    const other = await createMember(t);
    expect((await t.request('POST', '/api/places', { token: other.token, body: placeInput() })).status).toBe(201);
    t.clock.advance(601_000);
    expect((await t.request('POST', '/api/places', { token: m.token, body: placeInput() })).status).toBe(201);
  });

  it('the session is checked with every hit: a revoked token is refused at once (401, REST and tRPC) and counts none', async () => {
    // One statement checks the session and counts the hit (server/auth/session-write-limit.ts);
    // a token this process has already seen takes it, so the revocation must show there too.
    const m = await createMember(t);
    expect((await t.request('POST', '/api/places', { token: m.token, body: placeInput() })).status).toBe(201);
    expect((await t.request('POST', '/api/places', { token: m.token, body: placeInput() })).status).toBe(201);
    expect((await t.request('POST', '/api/auth/logout', { token: m.token })).status).toBe(200);
    for (let i = 0; i < LIMIT + 1; i++) {
      const refused = await t.request('POST', '/api/places', { token: m.token, body: placeInput() });
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('unauthorized');
      expect(refused.headers.get('retry-after')).toBeNull();
    }
    await expect(t.trpc(m.token).places.create.mutate(placeInput() as never)).rejects.toMatchObject({
      data: { code: 'unauthorized', httpStatus: 401 },
    });
    // The revoked token counted nothing: a new session has exactly the one hit left.
    const login = await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } });
    const token = login.body.token as string;
    expect((await t.trpc(token).places.create.mutate(placeInput() as never)) as unknown).toBeTruthy();
    expect429(await t.request('POST', '/api/places', { token, body: placeInput() }));
    // A malformed header is still 401 before anything is counted.
    const malformed = await t.request('POST', '/api/places', {
      headers: { authorization: `Token ${token}` },
      body: placeInput(),
    });
    expect(malformed.status).toBe(401);
  });

  it('socket tickets get ten times the write budget (one per conversation page view), then 429', async () => {
    const m = await createMember(t);
    for (let i = 0; i < LIMIT * 10; i++)
      expect((await t.request('POST', '/api/realtime/tickets', { token: m.token, body: {} })).status).toBe(201);
    expect429(await t.request('POST', '/api/realtime/tickets', { token: m.token, body: {} }));
  });

  it('events and RSVP changes are limited per member', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    for (let i = 0; i < LIMIT - 1; i++) await createEvent(t, organizer, { groveId: grove._id });
    const event = await createEvent(t, organizer, { groveId: grove._id });
    expect429(
      await t.request('POST', '/api/events', { token: organizer.token, body: eventBody(t, { groveId: grove._id }) }),
    );
    const member = await createMember(t);
    const statuses = [];
    for (const [method, body] of [
      ['POST', { status: 'going' }],
      ['POST', { status: 'interested' }],
      ['DELETE', undefined],
      ['POST', { status: 'going' }],
    ] as const)
      statuses.push((await t.request(method, `/api/events/${event._id}/rsvp`, { token: member.token, body })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('unbuilt create routes count too, before validation and before their 501', async () => {
    const m = await createMember(t);
    const statuses = [];
    for (let i = 0; i < LIMIT; i++)
      statuses.push((await t.request('POST', '/api/posts', { token: m.token, body: { text: `post ${i}` } })).status);
    expect(statuses.every((s) => s === 501 || s === 400)).toBe(true);
    expect429(await t.request('POST', '/api/posts', { token: m.token, body: { text: 'one more' } }));
    expect429(await t.request('POST', '/api/posts', { token: m.token, body: { nonsense: true } }));
  });

  it('every create route a member can call declares a write limit (new ones included)', () => {
    // A create is a POST answering 201; the calendar token is one rotating secret per member, not a
    // row per call. Admin-only creates are for a handful of trusted accounts.
    const notCreates = new Set(['events.createCalendarToken']);
    const unlimited: string[] = [];
    for (const { path, meta } of listProcedures(appRouter)) {
      const member = meta?.auth === 'member' || meta?.auth === 'organizer';
      const creates = meta?.openapi?.method === 'POST' && meta.successStatus === 201;
      if (member && creates && !meta?.writeLimit && !notCreates.has(path)) unlimited.push(path);
    }
    expect(unlimited).toEqual([]);
    const scopeOf = Object.fromEntries(listProcedures(appRouter).map(({ path, meta }) => [path, meta?.writeLimit]));
    // RSVP changes (set and withdraw) share one counter; so do the two invite kinds.
    expect(scopeOf['events.removeRsvp']).toBe('events.rsvp');
    expect(scopeOf['events.rsvp']).toBe('events.rsvp');
    expect(scopeOf['groves.createInvite']).toBe(scopeOf['friends.createInvite']);
  });
});
