// Message lifetime with a controllable clock: 90 days by default, a conversation's disappearing
// lifetime (1 hour to 90 days) shorter, never returned past expiresAt even before the hourly
// sweep, and the sweep (under its advisory lock) deleting the rows.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADVISORY_LOCKS } from '../../db/advisory-locks.js';
import { expiredMessagesSweep } from '../../server/domains/conversations/messages-sweep.js';
import { createJobRunner } from '../../server/jobs/runner.js';
import { registeredJobs } from '../setup/registered-jobs.js';
import { createTestApp, type TestApp } from '../setup/harness.js';
import { circle, renewSession, send, startConversation } from './helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const runner = () => createJobRunner(t.deps, [expiredMessagesSweep]);
const rowsOf = async (conversationId: string) =>
  Number(
    (
      await t.deps.database.rows<{ n: number }>(
        sql`select count(*)::int as n from messages where conversation_id = ${conversationId}`,
      )
    )[0]!.n,
  );
const bodies = async (token: string, conversationId: string) =>
  (await t.request('GET', `/api/conversations/${conversationId}/messages`, { token })).body.items.map(
    (m: { body: string }) => m.body,
  );

describe('message lifetime', () => {
  it('is registered as an hourly job with its own advisory lock', () => {
    expect(registeredJobs).toContain(expiredMessagesSweep);
    expect(expiredMessagesSweep.intervalMs).toBe(HOUR);
    expect(expiredMessagesSweep.lockId).toBe(ADVISORY_LOCKS.expiredMessagesSweep);
  });

  it('90 days by default: hidden from every read at expiresAt, then deleted by the sweep', async () => {
    let [a, b] = await circle(t, 2);
    const c = await startConversation(t, a!, [b!]);
    const sent = await send(t, a!, c._id, 'ninety days');
    expect(new Date(sent.expiresAt).getTime() - new Date(sent.createdAt).getTime()).toBe(90 * DAY);
    t.clock.advance(90 * DAY - 1000);
    [a, b] = [await renewSession(t, a!), await renewSession(t, b!)];
    expect(await bodies(b!.token, c._id)).toEqual(['ninety days']);
    expect((await t.request('GET', `/api/conversations/${c._id}`, { token: b!.token })).body.unreadCount).toBe(1);
    t.clock.advance(1000);
    // Past expiresAt, before any sweep: not listed, not counted, not deletable, not a read marker.
    expect(await bodies(b!.token, c._id)).toEqual([]);
    expect(await rowsOf(c._id)).toBe(1);
    const view = (await t.request('GET', `/api/conversations/${c._id}`, { token: b!.token })).body;
    expect(view).toMatchObject({ unreadCount: 0, lastMessageAt: null });
    expect(
      (await t.request('DELETE', `/api/conversations/${c._id}/messages/${sent._id}`, { token: a!.token })).status,
    ).toBe(404);
    expect(
      (await t.request('PUT', `/api/conversations/${c._id}/read`, { token: b!.token, body: { messageId: sent._id } }))
        .status,
    ).toBe(404);
    const summary = await runner().runOnce(expiredMessagesSweep);
    expect(summary!.messages).toBeGreaterThanOrEqual(1);
    expect(await rowsOf(c._id)).toBe(0);
  });

  it('a disappearing lifetime (1 hour to 90 days) applies to new messages and shortens existing ones', async () => {
    const [a, b, c] = await circle(t, 3);
    const group = await startConversation(t, a!, [b!, c!]);
    await send(t, a!, group._id, 'old, 90 days');
    t.clock.advance(2 * HOUR);
    const set = await t.request('PATCH', `/api/conversations/${group._id}`, {
      token: b!.token, // any member may
      body: { messageLifetimeSeconds: 3600 },
    });
    expect(set.status).toBe(200);
    expect(set.body.messageLifetimeSeconds).toBe(3600);
    // The old message was already older than an hour: gone at once.
    expect(await rowsOf(group._id)).toBe(0);
    const fresh = await send(t, c!, group._id, 'disappears in an hour');
    expect(new Date(fresh.expiresAt).getTime() - t.clock.now().getTime()).toBe(HOUR);
    t.clock.advance(HOUR);
    expect(await bodies(a!.token, group._id)).toEqual([]);
    await runner().runOnce(expiredMessagesSweep);
    expect(await rowsOf(group._id)).toBe(0);

    // Lengthening applies to messages sent afterwards only: it never keeps a message longer.
    const short = await send(t, a!, group._id, 'still an hour');
    const longer = await t
      .trpc(c!.token)
      .conversations.update.mutate({ id: group._id, messageLifetimeSeconds: 7 * 86_400 });
    expect(longer.messageLifetimeSeconds).toBe(7 * 86_400);
    const week = await send(t, a!, group._id, 'a week');
    expect(new Date(week.expiresAt).getTime() - t.clock.now().getTime()).toBe(7 * DAY);
    t.clock.advance(HOUR);
    expect(await bodies(b!.token, group._id)).toEqual(['a week']);
    expect(short.expiresAt).not.toBe(week.expiresAt);
    // null restores the 90-day default for new messages.
    const reset = await t.request('PATCH', `/api/conversations/${group._id}`, {
      token: a!.token,
      body: { messageLifetimeSeconds: null },
    });
    expect(reset.body.messageLifetimeSeconds).toBeNull();
    const def = await send(t, a!, group._id, 'default again');
    expect(new Date(def.expiresAt).getTime() - t.clock.now().getTime()).toBe(90 * DAY);
  });

  it('bounds and titles: 1 hour to 90 days; a one-to-one conversation has no title', async () => {
    const [a, b, c] = await circle(t, 3);
    const direct = await startConversation(t, a!, [b!]);
    for (const body of [
      { messageLifetimeSeconds: 3599 },
      { messageLifetimeSeconds: 90 * 86_400 + 1 },
      { messageLifetimeSeconds: 1.5 * 3600 + 0.5 },
      { title: 'Not for two' },
      { unknown: 1 },
    ]) {
      const res = await t.request('PATCH', `/api/conversations/${direct._id}`, { token: a!.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    const max = await t.request('PATCH', `/api/conversations/${direct._id}`, {
      token: b!.token,
      body: { messageLifetimeSeconds: 90 * 86_400 },
    });
    expect(max.status).toBe(200);
    const group = await startConversation(t, a!, [b!, c!], 'Before');
    const renamed = await t.request('PATCH', `/api/conversations/${group._id}`, {
      token: c!.token,
      body: { title: 'After' },
    });
    expect(renamed.body).toMatchObject({ title: 'After', messageLifetimeSeconds: null });
    const cleared = await t.trpc(a!.token).conversations.update.mutate({ id: group._id, title: null });
    expect(cleared.title).toBeNull();
  });
});
