// Reports of messages must not defeat message encryption and disappearing messages: the reported
// text is sealed under MESSAGE_KEYS in the report (a canary is in no column of any table and no
// log line, while admins read it), rotated by the rekey, and deleted by the retention rule
// (server/domains/reports/retention.ts): at the message's own expiry while open, 30 days after
// a decision, 365 days after a decision that keeps it as evidence. Reports filed before the
// sealing keep their text readable; the migration gives them a deletion time and the rekey seals it.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageKeyring } from '../../server/crypto/message-keys.js';
import { rekeyReportTexts } from '../../server/domains/reports/rekey.js';
import { expiredMessagesSweep } from '../../server/domains/conversations/messages-sweep.js';
import { reportTextsSweep } from '../../server/domains/reports/texts-sweep.js';
import { createJobRunner } from '../../server/jobs/runner.js';
import { registeredJobs } from '../setup/registered-jobs.js';
import { ADVISORY_LOCKS } from '../../db/advisory-locks.js';
import { befriend, circle, renewSession, send, startConversation } from '../messaging/helpers.js';
import { findInEveryTable } from '../setup/db-scan.js';
import { createMember, createTestApp, unique, type TestApp, type TestMember } from '../setup/harness.js';
import { captureLog, useMessageKeys } from '../setup/log-capture.js';
import { adminView, decide, fileReport } from './helpers.js';

const key = () => randomBytes(32).toString('base64');
const K1 = `k1:${key()}`;
const K2 = `k2:${key()}`;
const DAY = 86_400_000;

const { lines: logLines, log } = captureLog();
let t: TestApp;
let adminMember: TestMember;
beforeAll(async () => {
  t = await createTestApp({ MESSAGE_KEYS: K1 }, { log });
  adminMember = await createMember(t, { admin: true });
});
afterAll(() => t.close());

const useKeys = (keys: string) => useMessageKeys(t, keys);

const logged = () => logLines.join('');
/** The admin with a session valid at the clock's time (tests move the clock by months). */
const moderator = () => renewSession(t, adminMember);
const sweep = () => createJobRunner(t.deps, [reportTextsSweep]).runOnce(reportTextsSweep);

interface RawReport {
  snapshot: Record<string, unknown>;
  sealed_key_id: string | null;
  sealed_nonce: Uint8Array | null;
  sealed_ciphertext: Uint8Array | null;
  expires_ms: number | null;
  delete_ms: number | null;
}
async function raw(reportId: string): Promise<RawReport> {
  const [row] = await t.deps.database.rows<RawReport>(sql`
    select snapshot, sealed_key_id, sealed_nonce, sealed_ciphertext,
      round(extract(epoch from sealed_expires_at) * 1000)::float8 as expires_ms,
      round(extract(epoch from sealed_delete_at) * 1000)::float8 as delete_ms
    from reports where id = ${reportId}::uuid`);
  return row!;
}
const iso = (ms: number) => new Date(ms).toISOString();

/** The admin's view of one message report, through REST. */
const view = async (reportId: string) => adminView(t, await moderator(), reportId, 'targetType=message');

/** Two members in a one-to-one conversation (optionally disappearing) and a message from the first. */
async function reportedMessage(text: string, lifetimeSeconds?: number) {
  const [a, b] = await circle(t, 2);
  const c = await startConversation(t, a!, [b!]);
  if (lifetimeSeconds)
    await t.request('PATCH', `/api/conversations/${c._id}`, {
      token: a!.token,
      body: { messageLifetimeSeconds: lifetimeSeconds },
    });
  const message = await send(t, a!, c._id, text);
  const report = await fileReport(t, b!, { targetType: 'message', targetId: message._id, reason: 'harassment' });
  return { a: a!, b: b!, conversationId: c._id, message, report };
}

describe('reported message text at rest', () => {
  it('is sealed in the report: a canary is in no column of any table and no log line; admins read it (REST, tRPC)', async () => {
    useKeys(K1);
    const canary = `report-canary-${unique('r')}`;
    const { b, conversationId, message, report } = await reportedMessage(`${canary} said in private`);
    // A second report of the same message, through the typed client.
    const [c] = await circle(t, 1);
    await befriend(t, b, c!);
    const group = await startConversation(t, b, [c!]);
    const inGroup = await send(t, b, group._id, `${canary} in a group`);
    const typed = await t
      .trpc(c!.token)
      .reports.create.mutate({ targetType: 'message', targetId: inGroup._id, reason: 'spam' });

    expect(await findInEveryTable(t.deps.database, [canary])).toEqual([]);
    const stored = await raw(report._id);
    expect(stored.snapshot).toEqual({ senderHandle: expect.any(String), conversationId, sentAt: message.createdAt });
    expect(stored.sealed_key_id).toBe('k1');
    expect(Buffer.from(stored.sealed_nonce!)).toHaveLength(12);
    expect(Buffer.from(stored.sealed_ciphertext!).toString('latin1')).not.toContain(canary);

    const seen = await view(report._id);
    expect(seen.target.snapshot).toEqual({
      text: `${canary} said in private`,
      senderHandle: expect.any(String),
      conversationId,
      sentAt: message.createdAt,
    });
    expect(seen.target.privateText).toEqual({
      deleteAt: message.expiresAt,
      expiresAt: message.expiresAt,
      keptAsEvidence: false,
    });
    const list = await t.trpc((await moderator()).token).reports.adminList.query({ targetType: 'message', limit: 100 });
    expect(list.items.find((r) => r._id === typed._id)?.target.snapshot.text).toBe(`${canary} in a group`);
    expect(logLines.length).toBeGreaterThan(10);
    expect(logged()).not.toContain(canary);
  });

  it("another report's sealed text copied onto a report does not open: that report shows without it, the queue stays readable", async () => {
    useKeys(K1);
    const secret = `moved-report-secret-${unique('s')}`;
    const first = await reportedMessage(`${secret} one`);
    const second = await reportedMessage(`${secret} two`);
    await t.deps.database.rows(sql`
      update reports set sealed_key_id = s.sealed_key_id, sealed_nonce = s.sealed_nonce, sealed_ciphertext = s.sealed_ciphertext
      from reports s where s.id = ${first.report._id}::uuid and reports.id = ${second.report._id}::uuid`);
    const damaged = await view(second.report._id);
    expect(damaged.target.snapshot.text).toBeUndefined();
    expect(damaged.target.privateText).toMatchObject({ unreadable: true, deleteAt: second.message.expiresAt });
    expect((await view(first.report._id)).target.snapshot.text).toBe(`${secret} one`);
    expect(logged()).toContain(`snapshot of report ${second.report._id}: authentication failed under key`);
    expect(logged()).not.toContain(secret);
    // The rekey stops at a text it cannot open, like the messages' own: the damaged report goes.
    await t.deps.database.rows(sql`delete from reports where id = ${second.report._id}::uuid`);
  });
});

describe('retention of reported message text', () => {
  it('runs hourly under its own lock', () => {
    expect(registeredJobs).toContain(reportTextsSweep);
    expect(reportTextsSweep.intervalMs).toBe(3_600_000);
    expect(reportTextsSweep.lockId).toBe(ADVISORY_LOCKS.reportTextsSweep);
  });

  it('an open report keeps a disappearing message no longer than the message lives', async () => {
    useKeys(K1);
    const { message, report } = await reportedMessage('gone within the hour', 3600);
    expect(new Date(message.expiresAt).getTime() - new Date(message.createdAt).getTime()).toBe(3_600_000);
    expect((await view(report._id)).target.privateText.deleteAt).toBe(message.expiresAt);
    t.clock.advance(30 * 60_000);
    expect(await sweep()).toMatchObject({ reportTexts: 0 });
    expect((await view(report._id)).target.snapshot.text).toBe('gone within the hour');

    t.clock.advance(31 * 60_000);
    // Past its expiry the text is not shown, before the sweep has run.
    const due = await view(report._id);
    expect(due.target.snapshot.text).toBeUndefined();
    expect(due.target.privateText).toEqual({ deleteAt: null, expiresAt: message.expiresAt, keptAsEvidence: false });
    expect((await raw(report._id)).sealed_ciphertext).not.toBeNull();
    await createJobRunner(t.deps, [expiredMessagesSweep]).runOnce(expiredMessagesSweep);
    expect((await sweep())!.reportTexts).toBeGreaterThanOrEqual(1);
    const after = await raw(report._id);
    expect(after).toMatchObject({ sealed_key_id: null, sealed_nonce: null, sealed_ciphertext: null, delete_ms: null });
    // The rest of the report stays: who sent it, where, when, and the report itself.
    expect(Object.keys(after.snapshot).sort()).toEqual(['conversationId', 'senderHandle', 'sentAt']);
    expect((await view(report._id)).target.privateText.deleteAt).toBeNull();
  });

  it('a decision keeps it 30 days (or to its own expiry if sooner), then the sweep deletes it', async () => {
    useKeys(K1);
    const { message, report } = await reportedMessage('decided soon');
    const decided = await decide(t, await moderator(), report._id, { status: 'resolved', note: 'Warned.' });
    const decidedAt = new Date(decided.decidedAt).getTime();
    expect(decided.target.privateText.deleteAt).toBe(iso(decidedAt + 30 * DAY));
    expect(decided.target.snapshot.text).toBe('decided soon');

    t.clock.advance(30 * DAY - 60_000);
    await sweep();
    expect((await view(report._id)).target.snapshot.text).toBe('decided soon');
    t.clock.advance(2 * 60_000);
    await sweep();
    expect((await raw(report._id)).sealed_ciphertext).toBeNull();
    expect((await view(report._id)).target.privateText).toEqual({
      deleteAt: null,
      expiresAt: message.expiresAt,
      keptAsEvidence: false,
    });
    // Nothing left to keep: 409; and a report without private text cannot keep any: 400.
    const late = await t.request('PUT', `/api/admin/reports/${report._id}`, {
      token: (await moderator()).token,
      body: { status: 'resolved', keepEvidence: true },
    });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('conflict');
    const member = await createMember(t);
    const memberReport = await fileReport(t, (await circle(t, 1))[0]!, { targetType: 'member', targetId: member.id });
    const refused = await t.request('PUT', `/api/admin/reports/${memberReport._id}`, {
      token: (await moderator()).token,
      body: { status: 'resolved', keepEvidence: true },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('validation_failed');
  });

  it('keepEvidence keeps it 365 days past the message, recorded in the trail; a later decision releases it', async () => {
    useKeys(K1);
    const { message, report } = await reportedMessage('kept as evidence', 3600);
    const kept = await t.trpc((await moderator()).token).reports.resolve.mutate({
      id: report._id,
      status: 'resolved',
      keepEvidence: true,
      note: 'Threat: keep it.',
    });
    const keptAt = new Date(kept.decidedAt!).getTime();
    expect(kept.target.privateText).toEqual({
      deleteAt: iso(keptAt + 365 * DAY),
      expiresAt: message.expiresAt,
      keptAsEvidence: true,
    });
    expect(kept.decisions.map((d) => d.keepEvidence)).toEqual([true]);

    // Past the message's own expiry (the message itself is swept): the text stays.
    t.clock.advance(2 * 3_600_000);
    await createJobRunner(t.deps, [expiredMessagesSweep]).runOnce(expiredMessagesSweep);
    await sweep();
    const later = await view(report._id);
    expect(later.target.snapshot.text).toBe('kept as evidence');

    // A decision without keepEvidence brings back the ordinary rule: its own expiry has passed.
    const released = await decide(t, await moderator(), report._id, { status: 'dismissed' });
    expect(released.target.privateText).toEqual({
      deleteAt: null,
      expiresAt: message.expiresAt,
      keptAsEvidence: false,
    });
    expect(released.decisions.map((d: { keepEvidence: boolean }) => d.keepEvidence)).toEqual([true, false]);
    expect((await sweep())!.reportTexts).toBeGreaterThanOrEqual(1);
    expect((await raw(report._id)).sealed_ciphertext).toBeNull();
  });
});

describe('rotation and reports filed before the sealing', () => {
  it('the rekey moves report texts to the newest key; the old key can then go', async () => {
    useKeys(K1);
    const { report } = await reportedMessage('sealed under k1');
    useKeys(`${K1},${K2}`);
    try {
      const result = await rekeyReportTexts(t.deps.database, messageKeyring(t.deps.config), { batchSize: 1 });
      expect(result.rekeyed).toBeGreaterThanOrEqual(1);
      expect(result).toMatchObject({ plaintextLeft: 0, keysInUse: ['k2'] });
      expect((await raw(report._id)).sealed_key_id).toBe('k2');
      useKeys(K2);
      expect((await view(report._id)).target.snapshot.text).toBe('sealed under k1');
      expect((await rekeyReportTexts(t.deps.database, messageKeyring(t.deps.config))).rekeyed).toBe(0);
    } finally {
      useKeys(`${K2},${K1}`);
      await rekeyReportTexts(t.deps.database, messageKeyring(t.deps.config));
      useKeys(K1);
    }
  });

  it("keep their text readable; the migration's UPDATE gives them a deletion time; the rekey seals the text", async () => {
    useKeys(K1);
    const legacy = `legacy-report-canary-${unique('l')}`;
    const open = await reportedMessage(`${legacy} open`);
    const decidedGone = await reportedMessage(`${legacy} decided`);
    const decision = await decide(t, await moderator(), decidedGone.report._id, { status: 'resolved' });
    // The sender deletes it for everyone: the report is what is left.
    await t.request('DELETE', `/api/conversations/${decidedGone.conversationId}/messages/${decidedGone.message._id}`, {
      token: decidedGone.a.token,
    });
    // Both rows as they were stored before the sealing: the text in clear in the snapshot.
    for (const { report, message } of [open, decidedGone])
      await t.deps.database.rows(sql`
        update reports set snapshot = snapshot || jsonb_build_object('text', ${`${legacy} ${message === open.message ? 'open' : 'decided'}`}::text),
          sealed_key_id = null, sealed_nonce = null, sealed_ciphertext = null, sealed_expires_at = null, sealed_delete_at = null
        where id = ${report._id}::uuid`);
    expect((await findInEveryTable(t.deps.database, [legacy])).sort()).toEqual(['public.reports: 2']);

    // The hand-written statements of the migration, run again over rows written as before it.
    const dir = path.resolve(import.meta.dirname, '../../migrations');
    const file = readdirSync(dir).find((name) => name.endsWith('_sealed_report_text_and_group_titles.sql'))!;
    const updates = readFileSync(path.join(dir, file), 'utf8')
      .split('--> statement-breakpoint')
      .filter((statement) => statement.includes('UPDATE "reports"'));
    expect(updates).toHaveLength(2);
    for (const statement of updates) await t.deps.database.rows(sql.raw(statement));
    const openRow = await raw(open.report._id);
    expect([openRow.expires_ms, openRow.delete_ms]).toEqual([
      new Date(open.message.expiresAt).getTime(),
      new Date(open.message.expiresAt).getTime(),
    ]);
    const goneRow = await raw(decidedGone.report._id);
    // The message is gone: the longest it could have lived; decided: 30 days after the decision.
    expect(goneRow.expires_ms).toBe(new Date(decidedGone.message.createdAt).getTime() + 90 * DAY);
    expect(goneRow.delete_ms).toBe(new Date(decision.decidedAt).getTime() + 30 * DAY);

    // Readable as before, with the same retention view.
    const seen = await view(open.report._id);
    expect(seen.target.snapshot.text).toBe(`${legacy} open`);
    expect(seen.target.privateText.deleteAt).toBe(open.message.expiresAt);

    const result = await rekeyReportTexts(t.deps.database, messageKeyring(t.deps.config), { batchSize: 1 });
    expect(result.sealed).toBeGreaterThanOrEqual(2);
    expect(result.plaintextLeft).toBe(0);
    expect(await findInEveryTable(t.deps.database, [legacy])).toEqual([]);
    expect((await raw(open.report._id)).snapshot.text).toBeUndefined();
    expect((await view(open.report._id)).target.snapshot.text).toBe(`${legacy} open`);
    expect((await view(decidedGone.report._id)).target.snapshot.text).toBe(`${legacy} decided`);
    expect((await raw(decidedGone.report._id)).delete_ms).toBe(goneRow.delete_ms);
    expect(logged()).not.toContain(legacy);
  });

  it('a report filed before the sealing loses its clear text to the sweep when due, without a rekey', async () => {
    useKeys(K1);
    const legacy = `legacy-swept-${unique('l')}`;
    const { report, message } = await reportedMessage(legacy, 3600);
    await t.deps.database.rows(sql`
      update reports set snapshot = snapshot || jsonb_build_object('text', ${legacy}::text),
        sealed_key_id = null, sealed_nonce = null, sealed_ciphertext = null
      where id = ${report._id}::uuid`);
    t.clock.advance(3_600_000 + 60_000);
    expect((await view(report._id)).target.snapshot.text).toBeUndefined();
    await sweep();
    expect(await findInEveryTable(t.deps.database, [legacy])).toEqual([]);
    expect((await view(report._id)).target.privateText).toMatchObject({ deleteAt: null, expiresAt: message.expiresAt });
  });
});
