// The push outbox itself (server/push/outbox.ts), with message pushes as the kind under test and a
// real test push service: a failed send is retried after its backoff (30 s, then 2 min, …) and
// given up on after MAX_ATTEMPTS; a fan-out that failed for one member is retried for that member
// only; a push service's 410 deletes the subscription and is not retried; without Web Push the
// outbox is drained. Both databases; two workers claiming side by side: push-outbox-workers.pg.test.ts.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { messagePushKind } from '../../server/domains/conversations/message-pushes.js';
import { createJobRunner } from '../../server/jobs/runner.js';
import { BACKOFF_BASE_MS, backoffMs, createPushOutboxJob, MAX_ATTEMPTS } from '../../server/push/outbox.js';
import type { WebPushSender } from '../../server/push/web-push.js';
import { befriend, send, startConversation } from '../messaging/helpers.js';
import { createMember, type TestApp } from '../setup/harness.js';
import { usePushJobHarness } from './push-job-harness.js';
import type { TestPushService } from './push-service.js';

const harness = usePushJobHarness(messagePushKind);
const { runJob, subscribe, pushesTo } = harness;
let t: TestApp;
let push: TestPushService;
beforeAll(() => {
  ({ t, push } = harness);
});

interface Row {
  recipient_id: string | null;
  attempts: number;
  not_before: Date;
}

async function rowsOf(messageId: string): Promise<Row[]> {
  const rows = await t.deps.database.rows<Row>(
    sql`select recipient_id, attempts, not_before from push_outbox where kind = 'message' and subject_id = ${messageId}::uuid order by id`,
  );
  return rows.map((row) => ({ ...row, attempts: Number(row.attempts), not_before: new Date(row.not_before) }));
}

async function pair() {
  const [ana, ben] = await Promise.all([createMember(t, { prefix: 'ana' }), createMember(t, { prefix: 'ben' })]);
  await befriend(t, ana!, ben!);
  const direct = await startConversation(t, ana!, [ben!]);
  return { ana: ana!, ben: ben!, direct };
}

describe('the push outbox', () => {
  it('retries a failed push after its backoff, and sends it once the push service answers again', async () => {
    const { ana, ben, direct } = await pair();
    const endpoint = await subscribe(ben);
    push.answer(endpoint, 500);
    const sent = await send(t, ana, direct._id, 'retry me');
    const claimedAt = t.clock.now();

    expect(await runJob()).toMatchObject({ sent: 0, failedPushes: 1, retried: 1, dropped: 0 });
    // One row for Ben (the fan-out became his own row), one attempt counted, due after 30 s.
    const [row] = await rowsOf(sent._id);
    expect(row).toMatchObject({ recipient_id: ben.id, attempts: 1 });
    expect(row!.not_before.getTime()).toBe(claimedAt.getTime() + BACKOFF_BASE_MS);

    // Not due yet: a run leaves it alone.
    expect(await runJob()).toMatchObject({ failedPushes: 0, retried: 0 });
    expect(pushesTo(endpoint)).toHaveLength(0);

    // Due: tried again, fails again, waits four times longer.
    t.clock.advance(BACKOFF_BASE_MS);
    const second = t.clock.now();
    expect(await runJob()).toMatchObject({ failedPushes: 1, retried: 1 });
    const [again] = await rowsOf(sent._id);
    expect(again).toMatchObject({ attempts: 2 });
    expect(again!.not_before.getTime()).toBe(second.getTime() + backoffMs(2));

    push.answer(endpoint, 201);
    t.clock.advance(backoffMs(2));
    expect(await runJob()).toMatchObject({ sent: 1, failedPushes: 0, retried: 0 });
    expect(pushesTo(endpoint).map((p) => p.payload.conversationId)).toEqual([direct._id]);
    expect(await rowsOf(sent._id)).toEqual([]);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts`, async () => {
    const { ana, ben, direct } = await pair();
    const endpoint = await subscribe(ben);
    push.answer(endpoint, 503);
    const sent = await send(t, ana, direct._id, 'never arrives');
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      expect(await runJob()).toMatchObject({ failedPushes: 1, retried: 1, dropped: 0 });
      t.clock.advance(backoffMs(attempt));
    }
    expect(await runJob()).toMatchObject({ failedPushes: 1, retried: 0, dropped: 1 });
    expect(await rowsOf(sent._id)).toEqual([]);
    push.answer(endpoint, 201);
    t.clock.advance(backoffMs(MAX_ATTEMPTS));
    expect(await runJob()).toMatchObject({ sent: 0, failedPushes: 0 });
    expect(pushesTo(endpoint)).toEqual([]);
  });

  it('retries a fan-out for the member it failed for only; a member reached on one browser is done', async () => {
    const [ana, ben, cleo] = await Promise.all(['ana', 'ben', 'cle'].map((prefix) => createMember(t, { prefix })));
    for (const friend of [ben!, cleo!]) await befriend(t, ana!, friend);
    const benEndpoint = await subscribe(ben!);
    const cleoPhone = await subscribe(cleo!);
    const cleoLaptop = await subscribe(cleo!);
    push.answer(benEndpoint, 500);
    push.answer(cleoLaptop, 500);
    const group = await startConversation(t, ana!, [ben!, cleo!], 'Rescue crew');
    const sent = await send(t, ana!, group._id, 'to everyone');

    expect(await runJob()).toMatchObject({ sent: 1, failedPushes: 2, retried: 1 });
    expect((await rowsOf(sent._id)).map((row) => row.recipient_id)).toEqual([ben!.id]);

    push.answer(benEndpoint, 201);
    t.clock.advance(BACKOFF_BASE_MS);
    expect(await runJob()).toMatchObject({ sent: 1, failedPushes: 0 });
    expect(pushesTo(benEndpoint)).toHaveLength(1);
    expect(pushesTo(cleoPhone)).toHaveLength(1);
    expect(await rowsOf(sent._id)).toEqual([]);
  });

  it('deletes a subscription its push service says is gone, and does not retry it', async () => {
    const { ana, ben, direct } = await pair();
    const endpoint = await subscribe(ben);
    push.answer(endpoint, 410);
    const sent = await send(t, ana, direct._id, 'to a browser that unsubscribed');
    expect(await runJob()).toMatchObject({ sent: 0, goneSubscriptions: 1, failedPushes: 0, retried: 0 });
    expect((await t.trpc(ben.token).pushTokens.list.query({})).items).toEqual([]);
    const rest = await t.request('GET', '/api/push-tokens', { token: ben.token });
    expect(rest.status).toBe(200);
    expect((rest.body as { items: unknown[] }).items).toEqual([]);
    expect(await rowsOf(sent._id)).toEqual([]);
  });

  it('is drained without sending when Web Push is not configured', async () => {
    const { ana, ben, direct } = await pair();
    const endpoint = await subscribe(ben);
    const sent = await send(t, ana, direct._id, 'no sender');
    const disabled: WebPushSender = { enabled: false, send: async () => 'failed' };
    const job = createPushOutboxJob({ push: disabled, log: t.deps.log, database: t.deps.database }, [
      messagePushKind({ log: t.deps.log, database: t.deps.database, config: t.deps.config }),
    ]);
    const runner = createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [job]);
    expect(await runner.runOnce(job)).toMatchObject({ sent: 0 });
    expect(await rowsOf(sent._id)).toEqual([]);
    expect(pushesTo(endpoint)).toEqual([]);
  });
});
