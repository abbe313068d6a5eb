// Notification preferences: documented defaults, partial merges, validation, owner-only.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const defaults = {
  push: { eventReminders: true, eventUpdates: true, messages: true, friendInvitesAccepted: true, reportOutcomes: true },
  email: {
    eventReminders: false,
    eventUpdates: false,
    messages: false,
    friendInvitesAccepted: false,
    reportOutcomes: false,
  },
  pushShowsDetails: false,
};

describe('GET /api/me/notification-preferences', () => {
  it('answers the documented defaults, and writes no row for them (REST + typed client)', async () => {
    const ana = await createMember(t);
    const res = await t.request('GET', '/api/me/notification-preferences', { token: ana.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(defaults);
    expect(await t.trpc(ana.token).me.getNotificationPreferences.query({})).toEqual(defaults);
    const rows = await t.deps.database.rows(sql`select 1 from notification_preferences where user_id = ${ana.id}`);
    expect(rows).toHaveLength(0);
  });

  it('needs a session', async () => {
    const res = await t.request('GET', '/api/me/notification-preferences');
    expect(res.status).toBe(401);
  });
});

describe('PUT /api/me/notification-preferences', () => {
  it('merges the fields sent and answers the whole set', async () => {
    const ana = await createMember(t);
    const res = await t.request('PUT', '/api/me/notification-preferences', {
      token: ana.token,
      body: { push: { messages: false }, email: { reportOutcomes: true } },
    });
    expect(res.status).toBe(200);
    const expected = structuredClone(defaults);
    expected.push.messages = false;
    expected.email.reportOutcomes = true;
    expect(res.body).toEqual(expected);
    const after = await t.trpc(ana.token).me.updateNotificationPreferences.mutate({ pushShowsDetails: true });
    expect(after).toEqual({ ...expected, pushShowsDetails: true });
    expect((await t.request('GET', '/api/me/notification-preferences', { token: ana.token })).body).toEqual({
      ...expected,
      pushShowsDetails: true,
    });
    // Back to a default value: kept as sent.
    const back = await t.trpc(ana.token).me.updateNotificationPreferences.mutate({ push: { messages: true } });
    expect(back.push.messages).toBe(true);
  });

  it("changes only the caller's own preferences", async () => {
    const [ana, ben] = await Promise.all([createMember(t), createMember(t)]);
    await t.request('PUT', '/api/me/notification-preferences', {
      token: ana.token,
      body: { push: { eventReminders: false } },
    });
    expect((await t.request('GET', '/api/me/notification-preferences', { token: ben.token })).body).toEqual(defaults);
  });

  it('refuses empty, unknown and mistyped fields (400)', async () => {
    const ana = await createMember(t);
    for (const body of [
      {},
      { push: {} },
      { push: { gossip: true } },
      { sms: { messages: true } },
      { push: { messages: 'no' } },
      { pushShowsDetails: 1 },
    ]) {
      const res = await t.request('PUT', '/api/me/notification-preferences', { token: ana.token, body });
      expect({ body, status: res.status, code: res.body.error?.code }).toEqual({
        body,
        status: 400,
        code: 'validation_failed',
      });
    }
    expect(
      (await t.request('PUT', '/api/me/notification-preferences', { body: { pushShowsDetails: true } })).status,
    ).toBe(401);
  });

  it('is deleted with the account', async () => {
    const ana = await createMember(t);
    await t.request('PUT', '/api/me/notification-preferences', { token: ana.token, body: { pushShowsDetails: true } });
    expect((await t.request('DELETE', '/api/me', { token: ana.token })).status).toBe(200);
    const rows = await t.deps.database.rows(sql`select 1 from notification_preferences where user_id = ${ana.id}`);
    expect(rows).toHaveLength(0);
  });
});
