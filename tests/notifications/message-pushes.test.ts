// Push notifications for new messages against a real Web Push service (push-service.ts verifies
// the VAPID signature and decrypts every payload): the other members get one push per browser,
// without the text ever, named only when they allowed details; the sender, members who turned
// message pushes off and a message deleted before the job ran get none; a message queued too long
// is dropped; the queue holds ids only. The job is run by hand on the manual clock.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { messagePushKind } from '../../server/domains/conversations/message-pushes.js';
import { befriend, send, startConversation } from '../messaging/helpers.js';
import { findInEveryTable } from '../setup/db-scan.js';
import { createMember, type TestApp } from '../setup/harness.js';
import type { TestPushService } from './push-service.js';
import { usePushJobHarness } from './push-job-harness.js';

const harness = usePushJobHarness(messagePushKind);
const { runJob, subscribe, pushesTo } = harness;
let t: TestApp;
let push: TestPushService;
beforeAll(() => {
  ({ t, push } = harness);
});

async function queued(): Promise<number> {
  const [row] = await t.deps.database.rows<{ n: number }>(
    sql`select count(*)::int as n from push_outbox where kind = 'message'`,
  );
  return Number(row!.n);
}

describe('pushes for new messages', () => {
  it('reach the other members once per browser, never with the text; details only when allowed', async () => {
    const [ana, ben, cleo, dev] = await Promise.all(
      ['ana', 'ben', 'cle', 'dev'].map((prefix) => createMember(t, { prefix })),
    );
    for (const friend of [ben!, cleo!, dev!]) await befriend(t, ana!, friend);
    const endpoints = {
      ana: await subscribe(ana!),
      benPhone: await subscribe(ben!),
      benLaptop: await subscribe(ben!),
      cleo: await subscribe(cleo!),
      dev: await subscribe(dev!),
    };
    await t.request('PUT', '/api/me/notification-preferences', {
      token: cleo!.token,
      body: { pushShowsDetails: true },
    });
    await t.request('PUT', '/api/me/notification-preferences', {
      token: dev!.token,
      body: { push: { messages: false } },
    });
    const group = await startConversation(t, ana!, [ben!, cleo!, dev!], 'Sanctuary crew');
    const canary = `message-push-canary-${Date.now()}`;
    await send(t, ana!, group._id, `${canary}: meet at the gate`);
    // Ids only while it waits: the text is in no column of any table.
    expect(await queued()).toBeGreaterThanOrEqual(1);
    expect(await findInEveryTable(t.deps.database, [canary])).toEqual([]);

    const summary = await runJob();
    expect(summary).toMatchObject({ sent: 3, stale: 0, failedPushes: 0 });
    expect(push.rejected).toEqual([]);
    expect(await queued()).toBe(0);
    const generic = {
      type: 'message',
      title: 'New message',
      body: 'You have a new message.',
      conversationId: group._id,
    };
    expect(pushesTo(endpoints.benPhone).map((p) => p.payload)).toEqual([generic]);
    expect(pushesTo(endpoints.benLaptop).map((p) => p.payload)).toEqual([generic]);
    expect(pushesTo(endpoints.cleo).map((p) => p.payload)).toEqual([
      { type: 'message', title: 'Sanctuary crew', body: `New message from @${ana!.handle}`, conversationId: group._id },
    ]);
    expect(pushesTo(endpoints.ana)).toEqual([]);
    expect(pushesTo(endpoints.dev)).toEqual([]);
    const [first] = pushesTo(endpoints.benPhone);
    expect(first!.headers.topic).toBe(group._id.replace(/-/g, ''));
    expect(first!.headers.urgency).toBe('high');
    expect(JSON.stringify(push.received)).not.toContain(canary);

    // A second run has nothing left to send.
    const before = push.received.length;
    expect(await runJob()).toMatchObject({ sent: 0 });
    expect(push.received.length).toBe(before);
  });

  it('waits for a slow push service only after its transaction has committed', async () => {
    const [ana, ben] = await Promise.all([createMember(t, { prefix: 'ana' }), createMember(t, { prefix: 'ben' })]);
    await befriend(t, ana!, ben!);
    const endpoint = await subscribe(ben!);
    const direct = await startConversation(t, ana!, [ben!]);
    await send(t, ana!, direct._id, 'are you there?');
    const slow = push.hold();
    const running = runJob();
    try {
      await slow.arrived;
      // The push is in flight: the outbox is already committed empty, and the database answers
      // other work at once (on PGlite, with one connection, these would wait for the push).
      expect(await queued()).toBe(0);
      await send(t, ana!, direct._id, 'hello?');
      expect(await queued()).toBe(1);
    } finally {
      slow.release();
    }
    expect(await running).toMatchObject({ sent: 1 });
    expect(pushesTo(endpoint)).toHaveLength(1);
    expect(await runJob()).toMatchObject({ sent: 1 });
    expect(pushesTo(endpoint)).toHaveLength(2);
  });

  it('a one-to-one push names the sender when allowed; a message deleted first, or queued too long, sends nothing', async () => {
    const [ana, ben] = await Promise.all([createMember(t, { prefix: 'ana' }), createMember(t, { prefix: 'ben' })]);
    await befriend(t, ana!, ben!);
    const endpoint = await subscribe(ben!);
    await t.request('PUT', '/api/me/notification-preferences', { token: ben!.token, body: { pushShowsDetails: true } });
    const direct = await startConversation(t, ana!, [ben!]);

    await send(t, ana!, direct._id, 'first');
    await runJob();
    expect(pushesTo(endpoint).map((p) => p.payload)).toEqual([
      {
        type: 'message',
        title: `@${ana!.handle}`,
        body: `New message from @${ana!.handle}`,
        conversationId: direct._id,
      },
    ]);

    // Deleted for everyone before the job ran: its outbox row finds no message.
    const sent = await send(t, ana!, direct._id, 'oops, wrong chat');
    const deleted = await t.request('DELETE', `/api/conversations/${direct._id}/messages/${sent._id}`, {
      token: ana!.token,
    });
    expect(deleted.status).toBe(200);
    await runJob();
    expect(pushesTo(endpoint)).toHaveLength(1);

    // Queued while no job ran for longer than the stale limit: dropped, not announced late.
    await send(t, ana!, direct._id, 'sent while the jobs were down');
    t.clock.advance(16 * 60_000);
    try {
      expect(await runJob()).toMatchObject({ sent: 0, stale: 1 });
    } finally {
      t.clock.advance(-16 * 60_000);
    }
    expect(pushesTo(endpoint)).toHaveLength(1);
    expect(await queued()).toBe(0);
  });
});
