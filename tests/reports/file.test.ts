// POST /api/reports and GET /api/me/reports: what can be reported (only what the reporter can
// see, else the 404 of a missing target), one open report per target, and the reporter's view
// of the outcome (never the moderator, never the internal note).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { reportTargetTypes } from '../../server/domains/reports/targets.js';
import { befriend, createEvent, groveWithOrganizer } from '../events/helpers.js';
import { submitPlace } from '../places/helpers.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { allPages, decide, fileReport } from './helpers.js';

let t: TestApp;
let reporter: TestMember;
let admin: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  [reporter, admin] = await Promise.all([createMember(t, { prefix: 'rpt' }), createMember(t, { admin: true })]);
});
afterAll(() => t.close());

const post = (token: string | undefined, body: unknown) => t.request('POST', '/api/reports', { token, body });
const missing = async (token: string, targetType: string) =>
  post(token, { targetType, targetId: newId(), reason: 'spam' });

describe('POST /api/reports', () => {
  it('reports a member: 201 with the receipt, no reporter field (REST)', async () => {
    const target = await createMember(t);
    const res = await post(reporter.token, {
      targetType: 'member',
      targetId: target.id,
      reason: 'harassment',
      details: '  Sends threats after every vigil.  ',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      _id: expect.any(String),
      targetType: 'member',
      targetId: target.id,
      reason: 'harassment',
      details: 'Sends threats after every vigil.',
      status: 'open',
      publicNote: null,
      action: null,
      decidedAt: null,
      createdAt: t.clock.now().toISOString(),
    });
    expect(res.text).not.toContain(reporter.id);
    expect(res.text).not.toContain(target.email);
  });

  it('works through the typed client (reports.create), details optional', async () => {
    const target = await createMember(t);
    const report = await t
      .trpc(reporter.token)
      .reports.create.mutate({ targetType: 'member', targetId: target.id, reason: 'spam' });
    expect(report).toMatchObject({ targetType: 'member', targetId: target.id, status: 'open', details: null });
  });

  it('answers a missing target of every type with the same 404 (types whose feature is unbuilt included)', async () => {
    const bodies = new Set<string>();
    for (const type of reportTargetTypes) {
      const res = await missing(reporter.token, type);
      expect(res.status, type).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      bodies.add(res.text);
    }
    expect(bodies.size).toBe(1);
  });

  it('places: approved and own pending are reportable; another member’s pending or rejected one is 404 like a missing one', async () => {
    const submitter = await createMember(t);
    const approved = await submitPlace(t, submitter);
    await t.request('PUT', `/api/admin/places/${approved._id}/approve`, { token: admin.token });
    const pending = await submitPlace(t, submitter);
    const rejected = await submitPlace(t, submitter);
    await t.request('PUT', `/api/admin/places/${rejected._id}/reject`, { token: admin.token });
    const ownPending = await submitPlace(t, reporter);

    expect((await fileReport(t, reporter, { targetType: 'place', targetId: approved._id })).status).toBe('open');
    expect((await fileReport(t, reporter, { targetType: 'place', targetId: ownPending._id })).status).toBe('open');
    const absent = await missing(reporter.token, 'place');
    for (const hidden of [pending, rejected]) {
      const res = await post(reporter.token, { targetType: 'place', targetId: hidden._id, reason: 'spam' });
      expect(res.status).toBe(404);
      expect(res.text).toBe(absent.text);
    }
    // An admin sees every place, so an admin can report a pending one.
    expect((await fileReport(t, admin, { targetType: 'place', targetId: pending._id })).status).toBe('open');
  });

  it('events: decided by the events visibility rules (public, grove members, friends of the creator)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t, admin);
    const publicEvent = await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'public' });
    const groveEvent = await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'grove' });
    const friendsEvent = await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'friends' });
    const outsider = await createMember(t);
    const friend = await createMember(t);
    await befriend(t, friend, organizer);
    const absent = await missing(outsider.token, 'event');

    expect((await fileReport(t, outsider, { targetType: 'event', targetId: publicEvent._id })).targetType).toBe(
      'event',
    );
    for (const hidden of [groveEvent, friendsEvent]) {
      const res = await post(outsider.token, { targetType: 'event', targetId: hidden._id, reason: 'hate' });
      expect(res.status).toBe(404);
      expect(res.text).toBe(absent.text);
    }
    await fileReport(t, friend, { targetType: 'event', targetId: friendsEvent._id });
    // Joining the grove makes its grove-only events visible, hence reportable.
    const join = await t.request('POST', `/api/groves/${grove._id}/join`, { token: outsider.token });
    expect(join.status, join.text).toBeLessThan(300);
    await fileReport(t, outsider, { targetType: 'event', targetId: groveEvent._id });
  });

  it('keeps one open report per reporter and target: 409; others may report it too; after a decision it can be reported again', async () => {
    const target = await createMember(t);
    const first = await fileReport(t, reporter, { targetType: 'member', targetId: target.id });
    const again = await post(reporter.token, { targetType: 'member', targetId: target.id, reason: 'hate' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    await expect(
      t.trpc(reporter.token).reports.create.mutate({ targetType: 'member', targetId: target.id, reason: 'spam' }),
    ).rejects.toMatchObject({ data: { code: 'conflict', httpStatus: 409 } });

    const other = await createMember(t);
    await fileReport(t, other, { targetType: 'member', targetId: target.id });

    await decide(t, admin, first._id, { status: 'dismissed' });
    const second = await fileReport(t, reporter, { targetType: 'member', targetId: target.id });
    expect(second._id).not.toBe(first._id);
  });

  it('holds one open report under concurrent duplicates', async () => {
    const target = await createMember(t);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        post(reporter.token, { targetType: 'member', targetId: target.id, reason: 'spam' }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  it('replays a retried create with the same Idempotency-Key instead of answering 409', async () => {
    const target = await createMember(t);
    const body = { targetType: 'member', targetId: target.id, reason: 'spam' };
    const headers = { 'idempotency-key': `report-${target.id}` };
    const first = await t.request('POST', '/api/reports', { token: reporter.token, body, headers });
    const retry = await t.request('POST', '/api/reports', { token: reporter.token, body, headers });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
  });

  it('validates the body: 400 for an unknown type, reason or field, a bad id, overlong details (errors)', async () => {
    const target = await createMember(t);
    const ok = { targetType: 'member', targetId: target.id, reason: 'spam' };
    for (const body of [
      { ...ok, targetType: 'group' },
      { ...ok, reason: 'annoying' },
      { ...ok, targetId: 'not-a-uuid' },
      { ...ok, details: 'x'.repeat(1001) },
      { ...ok, reporterId: reporter.id },
      { targetType: 'member', reason: 'spam' },
    ]) {
      const res = await post(reporter.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
  });

  it('needs a session: 401 anonymous and with a revoked token (security)', async () => {
    const target = await createMember(t);
    const body = { targetType: 'member', targetId: target.id, reason: 'spam' };
    expect((await post(undefined, body)).status).toBe(401);
    await expect(t.trpc().reports.create.mutate(body as never)).rejects.toMatchObject({ data: { httpStatus: 401 } });
    const gone = await createMember(t);
    await t.request('POST', '/api/auth/logout', { token: gone.token });
    expect((await post(gone.token, body)).status).toBe(401);
  });
});

describe('per-member write limit on reports', () => {
  it('answers 429 rate_limited past RATE_LIMIT_WRITES_PER_MEMBER', async () => {
    const limited = await createTestApp({ RATE_LIMIT_WRITES_PER_MEMBER: '2', RATE_LIMIT_WRITES_WINDOW_SECONDS: '600' });
    try {
      const m = await createMember(limited);
      const targets = await Promise.all([createMember(limited), createMember(limited), createMember(limited)]);
      const send = (id: string) =>
        limited.request('POST', '/api/reports', {
          token: m.token,
          body: { targetType: 'member', targetId: id, reason: 'spam' },
        });
      expect((await send(targets[0]!.id)).status).toBe(201);
      expect((await send(targets[1]!.id)).status).toBe(201);
      const third = await send(targets[2]!.id);
      expect(third.status).toBe(429);
      expect(third.body.error.code).toBe('rate_limited');
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('GET /api/me/reports', () => {
  it("lists the caller's own reports, newest first, with cursor paging; nobody else's (REST and tRPC)", async () => {
    const me = await createMember(t);
    const other = await createMember(t);
    const mine: string[] = [];
    for (let i = 0; i < 3; i++) {
      const target = await createMember(t);
      mine.push((await fileReport(t, me, { targetType: 'member', targetId: target.id }))._id);
      t.clock.advance(1000);
    }
    await fileReport(t, other, { targetType: 'member', targetId: (await createMember(t)).id });

    const pages = await allPages(t, me.token, '/api/me/reports', 2);
    expect(pages.map((r) => r._id)).toEqual([...mine].reverse());
    const first = await t.request('GET', '/api/me/reports?limit=2', { token: me.token });
    expect(first.body.items).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));

    const typed = await t.trpc(me.token).me.listReports.query({ limit: 100 });
    expect(typed.items.map((r) => r._id)).toEqual([...mine].reverse());
    expect(typed.nextCursor).toBeNull();
    expect((await t.trpc(other.token).me.listReports.query({})).items).toHaveLength(1);
  });

  it('shows the outcome (status, publicNote, action, decidedAt) but never the moderator or the internal note (privacy)', async () => {
    const me = await createMember(t);
    const target = await createMember(t);
    const report = await fileReport(t, me, { targetType: 'member', targetId: target.id });
    t.clock.advance(60_000);
    await decide(t, admin, report._id, {
      status: 'resolved',
      note: 'internal-canary-note: warned them by mail',
      publicNote: 'Thank you, we acted on it.',
    });

    const res = await t.request('GET', '/api/me/reports', { token: me.token });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      {
        _id: report._id,
        targetType: 'member',
        targetId: target.id,
        reason: 'spam',
        details: null,
        status: 'resolved',
        publicNote: 'Thank you, we acted on it.',
        action: null,
        decidedAt: t.clock.now().toISOString(),
        createdAt: report.createdAt,
      },
    ]);
    for (const secret of [admin.id, admin.handle, admin.email, 'internal-canary-note', me.id])
      expect(res.text).not.toContain(secret);
    const typed = JSON.stringify(await t.trpc(me.token).me.listReports.query({}));
    for (const secret of [admin.id, admin.handle, 'internal-canary-note']) expect(typed).not.toContain(secret);
  });

  it('answers 400 invalid_cursor for a bad cursor and 401 without a session (errors)', async () => {
    const res = await t.request('GET', '/api/me/reports?cursor=nope', { token: reporter.token });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_cursor');
    expect((await t.request('GET', '/api/me/reports')).status).toBe(401);
    await expect(t.trpc().me.listReports.query({})).rejects.toMatchObject({ data: { httpStatus: 401 } });
  });
});
