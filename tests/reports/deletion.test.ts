// Hard account deletion and reports: the reporter's reports go; reports about the member keep
// the reported words but nothing that names the member; moderators' decisions stay in the
// trail with the moderator nulled. "Nothing names the deleted user" is checked over every table.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, groveWithOrganizer } from '../events/helpers.js';
import { findInEveryTable } from '../setup/db-scan.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { adminView, decide, fileReport } from './helpers.js';

let t: TestApp;
let admin: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createMember(t, { admin: true });
});
afterAll(() => t.close());

const deleteAccount = async (m: TestMember) => {
  const res = await t.request('DELETE', '/api/me', { token: m.token });
  expect(res.status, res.text).toBe(200);
};
const traces = (m: TestMember) => findInEveryTable(t.deps.database, [m.id, m.email, m.handle]);

describe('account deletion and reports', () => {
  it('deletes the reports a member filed; the decisions on them stay in the trail, detached', async () => {
    const reporter = await createMember(t, { prefix: 'gone' });
    const target = await createMember(t);
    const report = await fileReport(t, reporter, { targetType: 'member', targetId: target.id });
    await decide(t, admin, report._id, { status: 'resolved', note: 'Acted on it.' });

    await deleteAccount(reporter);
    expect(await traces(reporter)).toEqual([]);
    expect(await adminView(t, admin, report._id, 'targetType=member')).toBeUndefined();
    const trail = await t.deps.database.rows<{ report_id: string | null; target_id: string; note: string }>(
      sql`select report_id, target_id, note from report_decisions where target_type = 'member' and target_id = ${target.id}`,
    );
    expect(trail).toEqual([{ report_id: null, target_id: target.id, note: 'Acted on it.' }]);
  });

  it("keeps a report about a deleted member, without the member's id or handle (the handle is free for someone else)", async () => {
    const reporter = await createMember(t);
    const target = await createMember(t, { prefix: 'bad' });
    const report = await fileReport(t, reporter, {
      targetType: 'member',
      targetId: target.id,
      reason: 'harassment',
      details: 'Follows us to every vigil.',
    });
    await decide(t, admin, report._id, { status: 'resolved', publicNote: 'Handled.' });

    await deleteAccount(target);
    expect(await traces(target)).toEqual([]);
    const view = await adminView(t, admin, report._id, 'targetType=member');
    expect(view).toMatchObject({
      targetId: null,
      details: 'Follows us to every vigil.',
      target: { author: null, authorDeleted: true, state: 'deleted', snapshot: { handle: '[deleted member]' } },
      decisions: [{ status: 'resolved', publicNote: 'Handled.' }],
    });
    const mine = await t.trpc(reporter.token).me.listReports.query({});
    expect(mine.items[0]).toMatchObject({ _id: report._id, targetId: null, status: 'resolved' });
  });

  it("keeps the snapshot of a deleted author's content: the words stay, the author link goes", async () => {
    const reporter = await createMember(t);
    const { grove, organizer } = await groveWithOrganizer(t, admin);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { title: 'Hateful meetup' });
    const report = await fileReport(t, reporter, { targetType: 'event', targetId: event._id, reason: 'hate' });
    expect((await adminView(t, admin, report._id, 'targetType=event')).target.author).toEqual({
      _id: organizer.id,
      handle: organizer.handle,
    });

    await deleteAccount(organizer);
    expect(await traces(organizer)).toEqual([]);
    const view = await adminView(t, admin, report._id, 'targetType=event');
    expect(view.target).toMatchObject({
      author: null,
      authorDeleted: true,
      // Events belong to their grove: the event itself stays, and so does the evidence.
      state: 'present',
      snapshot: { title: 'Hateful meetup', slug: event.slug },
    });
    expect(view.targetId).toBe(event._id);
  });

  it("keeps a deleted moderator's decisions in the trail with the moderator nulled", async () => {
    const moderator = await createMember(t, { admin: true, prefix: 'mod' });
    const reporter = await createMember(t);
    const target = await createMember(t);
    const report = await fileReport(t, reporter, { targetType: 'member', targetId: target.id });
    await decide(t, moderator, report._id, { status: 'dismissed', note: 'Not a violation.', publicNote: 'No action.' });

    await deleteAccount(moderator);
    expect(await traces(moderator)).toEqual([]);
    const view = await adminView(t, admin, report._id, 'targetType=member');
    expect(view).toMatchObject({
      status: 'dismissed',
      decidedBy: null,
      note: 'Not a violation.',
      decisions: [{ moderator: null, status: 'dismissed', note: 'Not a violation.', publicNote: 'No action.' }],
    });
  });
});
