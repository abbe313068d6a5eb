// GET /api/admin/reports and PUT /api/admin/reports/{id}: the queue (reporter, snapshot, target
// state, filters, paging), decisions and their audit trail, per-role authorization.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { createEvent, groveWithOrganizer } from '../events/helpers.js';
import { submitPlace } from '../places/helpers.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { adminView, allPages, decide, fileReport } from './helpers.js';

let t: TestApp;
let reporter: TestMember;
let admin: TestMember;
let secondAdmin: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  [reporter, admin, secondAdmin] = await Promise.all([
    createMember(t, { prefix: 'rpt' }),
    createMember(t, { admin: true }),
    createMember(t, { admin: true }),
  ]);
});
afterAll(() => t.close());

describe('GET /api/admin/reports', () => {
  it('shows the reporter, the snapshot, the target author and state (REST and tRPC)', async () => {
    const target = await createMember(t);
    const report = await fileReport(t, reporter, {
      targetType: 'member',
      targetId: target.id,
      reason: 'harassment',
      details: 'Threats.',
    });
    const view = await adminView(t, admin, report._id, 'targetType=member&status=open');
    expect(view).toEqual({
      ...report,
      reporter: { _id: reporter.id, handle: reporter.handle },
      note: null,
      decidedBy: null,
      target: {
        author: { _id: target.id, handle: target.handle },
        authorDeleted: false,
        state: 'present',
        snapshot: { handle: target.handle, joinedAt: expect.any(String) },
        privateText: null,
      },
      decisions: [],
    });
    expect(JSON.stringify(view)).not.toContain(target.email);
    expect(JSON.stringify(view)).not.toContain(reporter.email);

    const typed = await t
      .trpc(admin.token)
      .reports.adminList.query({ status: 'open', targetType: 'member', limit: 100 });
    expect(typed.items.every((r) => r.status === 'open' && r.targetType === 'member')).toBe(true);
  });

  it('keeps the snapshot taken when reported: later edits and deletion of the target do not change it', async () => {
    const { grove, organizer } = await groveWithOrganizer(t, admin);
    const event = await createEvent(
      t,
      organizer,
      { groveId: grove._id },
      { title: 'Original title', visibility: 'public' },
    );
    const report = await fileReport(t, reporter, {
      targetType: 'event',
      targetId: event._id,
      reason: 'misinformation',
    });
    const edit = await t.request('PATCH', `/api/events/${event._id}`, {
      token: organizer.token,
      body: { title: 'Edited to look harmless' },
    });
    expect(edit.status, edit.text).toBe(200);

    let view = await adminView(t, admin, report._id, 'targetType=event');
    expect(view.target).toMatchObject({
      author: { _id: organizer.id, handle: organizer.handle },
      state: 'present',
      snapshot: { title: 'Original title', slug: event.slug, visibility: 'public', description: 'Bring candles.' },
    });
    expect(view.target.snapshot).not.toHaveProperty('meetingPoint');

    // The target goes (its domain deletes it): the evidence stays.
    await t.deps.database.rows(sql`delete from events where id = ${event._id}`);
    view = await adminView(t, admin, report._id, 'targetType=event');
    expect(view.target.state).toBe('deleted');
    expect(view.target.snapshot.title).toBe('Original title');
  });

  it('shows a rejected place as hidden and never the place submitter (privacy rule 1)', async () => {
    const submitter = await createMember(t);
    const place = await submitPlace(t, submitter);
    await t.request('PUT', `/api/admin/places/${place._id}/approve`, { token: admin.token });
    const report = await fileReport(t, reporter, { targetType: 'place', targetId: place._id });
    let view = await adminView(t, admin, report._id, 'targetType=place');
    expect(view.target).toMatchObject({ author: null, state: 'present', snapshot: { name: place.name } });
    expect(JSON.stringify(view)).not.toContain(submitter.id);
    expect(JSON.stringify(view)).not.toContain(submitter.handle);
    await t.deps.database.rows(sql`update places set status = 'rejected' where id = ${place._id}`);
    view = await adminView(t, admin, report._id, 'targetType=place');
    expect(view.target.state).toBe('hidden');
  });

  it('filters by status, target type and reason, oldest first, with cursor paging', async () => {
    const target = await createMember(t);
    const a = await fileReport(t, reporter, { targetType: 'member', targetId: target.id, reason: 'violence' });
    const other = await createMember(t);
    const b = await fileReport(t, other, { targetType: 'member', targetId: target.id, reason: 'violence' });
    const third = await createMember(t);
    const c = await fileReport(t, third, { targetType: 'member', targetId: target.id, reason: 'violence' });
    await decide(t, admin, b._id, { status: 'dismissed' });

    const violence = await allPages(t, admin.token, '/api/admin/reports?reason=violence', 1);
    const ids = violence.map((r) => r._id);
    expect(ids).toEqual(expect.arrayContaining([a._id, b._id, c._id]));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(violence.every((r) => r.reason === 'violence')).toBe(true);

    const open = (await allPages(t, admin.token, '/api/admin/reports?reason=violence&status=open')).map((r) => r._id);
    expect(open).toContain(a._id);
    expect(open).toContain(c._id);
    expect(open).not.toContain(b._id);
    const dismissed = await allPages(t, admin.token, '/api/admin/reports?status=dismissed&targetType=member');
    expect(dismissed.map((r) => r._id)).toContain(b._id);
    expect(dismissed.every((r) => r.status === 'dismissed' && r.targetType === 'member')).toBe(true);
    const events = await allPages(t, admin.token, '/api/admin/reports?targetType=event&reason=violence');
    expect(events.map((r) => r._id)).not.toContain(a._id);
  });

  it('answers 400 for a bad filter or cursor (errors)', async () => {
    for (const query of ['status=closed', 'targetType=group', 'reason=rude', 'limit=0', 'limit=101']) {
      const res = await t.request('GET', `/api/admin/reports?${query}`, { token: admin.token });
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    const res = await t.request('GET', '/api/admin/reports?cursor=AAAAAAAAAAAAAAAAAAAAAA', { token: admin.token });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_cursor');
  });

  it('is for admins only: anonymous 401, member 403 (security)', async () => {
    expect((await t.request('GET', '/api/admin/reports')).status).toBe(401);
    const asMember = await t.request('GET', '/api/admin/reports', { token: reporter.token });
    expect(asMember.status).toBe(403);
    expect(asMember.body.error.code).toBe('forbidden');
    await expect(t.trpc(reporter.token).reports.adminList.query({})).rejects.toMatchObject({
      data: { code: 'forbidden', httpStatus: 403 },
    });
    await expect(t.trpc().reports.adminList.query({})).rejects.toMatchObject({ data: { httpStatus: 401 } });
  });
});

describe('PUT /api/admin/reports/{id}', () => {
  it('resolves with an internal and a public note; the decision joins the audit trail (REST)', async () => {
    const target = await createMember(t);
    const report = await fileReport(t, reporter, { targetType: 'member', targetId: target.id });
    t.clock.advance(5_000);
    const decided = await decide(t, admin, report._id, {
      status: 'resolved',
      note: 'Second strike.',
      publicNote: 'We warned the member.',
    });
    const at = t.clock.now().toISOString();
    expect(decided).toMatchObject({
      _id: report._id,
      status: 'resolved',
      note: 'Second strike.',
      publicNote: 'We warned the member.',
      action: null,
      decidedAt: at,
      decidedBy: { _id: admin.id, handle: admin.handle },
      reporter: { _id: reporter.id, handle: reporter.handle },
    });
    expect(decided.decisions).toEqual([
      {
        _id: expect.any(String),
        moderator: { _id: admin.id, handle: admin.handle },
        status: 'resolved',
        action: null,
        note: 'Second strike.',
        publicNote: 'We warned the member.',
        keepEvidence: false,
        decidedAt: at,
      },
    ]);
  });

  it('can be revisited: the report shows the latest decision, the trail keeps every one, oldest first (tRPC)', async () => {
    const target = await createMember(t);
    const report = await fileReport(t, reporter, { targetType: 'member', targetId: target.id });
    await decide(t, admin, report._id, { status: 'dismissed', note: 'Looks fine.' });
    t.clock.advance(3_600_000);
    const second = await t.trpc(secondAdmin.token).reports.resolve.mutate({
      id: report._id,
      status: 'resolved',
      note: 'Second opinion: it is harassment.',
      publicNote: 'On review, we acted on your report.',
    });
    expect(second).toMatchObject({
      status: 'resolved',
      note: 'Second opinion: it is harassment.',
      decidedBy: { _id: secondAdmin.id, handle: secondAdmin.handle },
    });
    expect(second.decisions.map((d) => [d.moderator?.handle, d.status, d.note])).toEqual([
      [admin.handle, 'dismissed', 'Looks fine.'],
      [secondAdmin.handle, 'resolved', 'Second opinion: it is harassment.'],
    ]);
    const mine = await t.trpc(reporter.token).me.listReports.query({ limit: 100 });
    expect(mine.items.find((r) => r._id === report._id)).toMatchObject({
      status: 'resolved',
      publicNote: 'On review, we acted on your report.',
    });
    // Both decisions are in the table, with the target named, whatever happens to the report.
    const rows = await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from report_decisions where report_id = ${report._id} and target_type = 'member' and target_id = ${target.id}`,
    );
    expect(rows[0]!.n).toBe(2);
  });

  it('refuses `hide` on a target that cannot be hidden and with `dismissed` (400), keeping the report untouched', async () => {
    const target = await createMember(t);
    const report = await fileReport(t, reporter, { targetType: 'member', targetId: target.id });
    for (const body of [
      { status: 'resolved', action: 'hide' },
      { status: 'dismissed', action: 'hide' },
    ]) {
      const res = await t.request('PUT', `/api/admin/reports/${report._id}`, { token: admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    const view = await adminView(t, admin, report._id, 'targetType=member&status=open');
    expect(view.decisions).toEqual([]);
  });

  it('validates the body and answers 404 for an unknown report (errors)', async () => {
    const target = await createMember(t);
    const report = await fileReport(t, reporter, { targetType: 'member', targetId: target.id });
    for (const body of [
      { status: 'open' },
      { status: 'resolved', action: 'delete' },
      { status: 'resolved', note: 'x'.repeat(2001) },
      { status: 'resolved', publicNote: 'x'.repeat(1001) },
      { status: 'resolved', moderatorId: admin.id },
      {},
    ]) {
      const res = await t.request('PUT', `/api/admin/reports/${report._id}`, { token: admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const unknown = await t.request('PUT', `/api/admin/reports/${newId()}`, {
      token: admin.token,
      body: { status: 'dismissed' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const bad = await t.request('PUT', '/api/admin/reports/not-a-uuid', {
      token: admin.token,
      body: { status: 'dismissed' },
    });
    expect(bad.status).toBe(400);
  });

  it('is for admins only: the reporter and the reported member get 403, anonymous 401 (security)', async () => {
    const target = await createMember(t);
    const report = await fileReport(t, reporter, { targetType: 'member', targetId: target.id });
    for (const who of [reporter, target]) {
      const res = await t.request('PUT', `/api/admin/reports/${report._id}`, {
        token: who.token,
        body: { status: 'dismissed' },
      });
      expect(res.status).toBe(403);
    }
    expect((await t.request('PUT', `/api/admin/reports/${report._id}`, { body: { status: 'dismissed' } })).status).toBe(
      401,
    );
    await expect(
      t.trpc(reporter.token).reports.resolve.mutate({ id: report._id, status: 'dismissed' }),
    ).rejects.toMatchObject({ data: { code: 'forbidden', httpStatus: 403 } });
    const view = await adminView(t, admin, report._id, 'targetType=member&status=open');
    expect(view.status).toBe('open');
  });
});
