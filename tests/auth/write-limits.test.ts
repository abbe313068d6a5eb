// Per-member write limits on every create route (meta.writeLimit, enforced by memberProcedure):
// generous for people, tight for scripts, configurable, counted before validation and before
// an unbuilt route's 501.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../../server/trpc/router.js';
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

  it('every create route declares a write limit', () => {
    const scopes = new Map<string, string | undefined>();
    for (const [name, procedure] of Object.entries(appRouter._def.procedures)) {
      const meta = (procedure as unknown as { _def: { meta?: { writeLimit?: string } } })._def.meta;
      scopes.set(name, meta?.writeLimit);
    }
    expect(Object.fromEntries([...scopes].filter(([, scope]) => scope))).toEqual({
      'places.create': 'places.create',
      'events.create': 'events.create',
      'events.rsvp': 'events.rsvp',
      'events.removeRsvp': 'events.rsvp',
      'friends.createInvite': 'invites.create',
      'posts.create': 'posts.create',
      'posts.createComment': 'comments.create',
      'reports.create': 'reports.create',
      'conversations.create': 'messages.create',
      'conversations.sendMessage': 'messages.create',
    });
  });
});
