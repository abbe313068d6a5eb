// Pushes for one member against a real Web Push service (push-service.ts verifies the VAPID
// signature and decrypts every payload): the issuer of an accepted friend invite and the
// reporter of a decided report are told, naming nobody and nothing unless they allowed details,
// never with a moderator's note; a member who turned the kind off, a friendship ended before the
// job ran and an entry queued too long send nothing; deleting the new friend's account leaves no
// queued row naming them. The job is run by hand.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  friendInviteAcceptedPushKind,
  reportOutcomePushKind,
} from '../../server/domains/notifications/member-pushes.js';
import { acceptInvite, issueInvite } from '../friends/helpers.js';
import { fileReport } from '../reports/helpers.js';
import { findInEveryTable } from '../setup/db-scan.js';
import { createMember, type TestApp, type TestMember } from '../setup/harness.js';
import type { TestPushService } from './push-service.js';
import { usePushJobHarness } from './push-job-harness.js';

const harness = usePushJobHarness(friendInviteAcceptedPushKind, reportOutcomePushKind);
const { runJob, subscribe, pushesTo } = harness;
let t: TestApp;
let push: TestPushService;
beforeAll(() => {
  ({ t, push } = harness);
});

async function befriendThroughInvite(issuer: TestMember, accepter: TestMember) {
  const invite = await issueInvite(t, issuer);
  const accepted = await acceptInvite(t, accepter, invite.code);
  expect(accepted.status).toBe(200);
}

describe('pushes to one member', () => {
  it('tell the issuer that their invite was accepted, naming the friend only with details', async () => {
    const [plain, detailed, muted, friend] = await Promise.all(
      ['pln', 'dtl', 'mut', 'frd'].map((prefix) => createMember(t, { prefix })),
    );
    const endpoints = {
      plain: await subscribe(plain!),
      detailed: await subscribe(detailed!),
      muted: await subscribe(muted!),
      friend: await subscribe(friend!),
    };
    await t.request('PUT', '/api/me/notification-preferences', {
      token: detailed!.token,
      body: { pushShowsDetails: true },
    });
    await t.request('PUT', '/api/me/notification-preferences', {
      token: muted!.token,
      body: { push: { friendInvitesAccepted: false } },
    });
    for (const issuer of [plain!, detailed!, muted!]) await befriendThroughInvite(issuer, friend!);

    expect(await runJob()).toMatchObject({ sent: 2, stale: 0, failedPushes: 0 });
    expect(push.rejected).toEqual([]);
    expect(pushesTo(endpoints.plain).map((p) => p.payload)).toEqual([
      {
        type: 'friend-invite-accepted',
        title: 'New friend',
        body: 'Someone accepted your friend invite.',
        userId: friend!.id,
      },
    ]);
    expect(pushesTo(endpoints.detailed).map((p) => p.payload.body)).toEqual([
      `@${friend!.handle} accepted your friend invite.`,
    ]);
    expect(pushesTo(endpoints.muted)).toEqual([]);
    expect(pushesTo(endpoints.friend)).toEqual([]);
    expect(JSON.stringify(pushesTo(endpoints.plain))).not.toContain(friend!.handle);
  });

  it('sends nothing for a friendship ended before the job ran, and no row names a deleted new friend', async () => {
    const [issuer, friend, leaver] = await Promise.all(
      ['iss', 'frd', 'lvr'].map((prefix) => createMember(t, { prefix })),
    );
    const endpoint = await subscribe(issuer!);
    await befriendThroughInvite(issuer!, friend!);
    expect((await t.request('DELETE', `/api/friends/${friend!.id}`, { token: issuer!.token })).status).toBe(200);
    await befriendThroughInvite(issuer!, leaver!);
    expect((await t.request('DELETE', '/api/me', { token: leaver!.token })).status).toBe(200);
    expect(await findInEveryTable(t.deps.database, [leaver!.id])).toEqual([]);
    expect(await runJob()).toMatchObject({ sent: 0 });
    expect(pushesTo(endpoint)).toEqual([]);
  });

  it('tell the reporter the outcome, without the notes; the status only with details', async () => {
    const admin = await createMember(t, { admin: true });
    const [reporter, detailed, target] = await Promise.all(
      ['rep', 'dtl', 'tgt'].map((prefix) => createMember(t, { prefix })),
    );
    const endpoints = { reporter: await subscribe(reporter!), detailed: await subscribe(detailed!) };
    await t.request('PUT', '/api/me/notification-preferences', {
      token: detailed!.token,
      body: { pushShowsDetails: true },
    });
    const first = await fileReport(t, reporter!, { targetType: 'member', targetId: target!.id, reason: 'harassment' });
    const second = await fileReport(t, detailed!, { targetType: 'member', targetId: target!.id, reason: 'harassment' });
    const decide = (id: string, status: string) =>
      t.request('PUT', `/api/admin/reports/${id}`, {
        token: admin.token,
        body: { status, note: 'moderator-only-note', publicNote: 'public-note-text' },
      });
    expect((await decide(first._id, 'resolved')).status).toBe(200);
    expect((await decide(second._id, 'dismissed')).status).toBe(200);

    expect(await runJob()).toMatchObject({ sent: 2 });
    expect(pushesTo(endpoints.reporter).map((p) => p.payload)).toEqual([
      { type: 'report-outcome', title: 'Report update', body: 'A report you filed was decided.', reportId: first._id },
    ]);
    expect(pushesTo(endpoints.detailed).map((p) => p.payload.body)).toEqual(['Your report was dismissed.']);
    expect(pushesTo(endpoints.detailed)[0]!.headers.topic).toBe(second._id.replace(/-/g, ''));
    const sent = JSON.stringify(push.received);
    expect(sent).not.toContain('moderator-only-note');
    expect(sent).not.toContain('public-note-text');
    expect(sent).not.toContain(admin.handle);
  });

  it('drops an entry queued longer than the stale limit', async () => {
    const [issuer, friend] = await Promise.all([createMember(t), createMember(t)]);
    const endpoint = await subscribe(issuer!);
    await befriendThroughInvite(issuer!, friend!);
    t.clock.advance(16 * 60_000);
    try {
      expect(await runJob()).toMatchObject({ sent: 0, stale: 1 });
    } finally {
      t.clock.advance(-16 * 60_000);
    }
    expect(pushesTo(endpoint)).toEqual([]);
    const [row] = await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from push_outbox where kind in ('friendInviteAccepted', 'reportOutcome')`,
    );
    expect(Number(row!.n)).toBe(0);
  });
});
