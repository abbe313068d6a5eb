// The service-wide action totals in GET /api/stats: opted-in members only, hidden under 5
// contributors, and part of the stats' 5-minute cache (an opt-out leaves them at the next
// computation, within 5 minutes). The file starts on an empty database of its own
// (tests/setup/database.ts), so the totals are exact.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { logAction, outreach } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const FIVE_MINUTES = 5 * 60_000;

async function stats() {
  const res = await t.request('GET', '/api/stats');
  expect(res.status).toBe(200);
  return res.body;
}

async function contributor(hours: number, opted = true): Promise<TestMember> {
  const m = await createMember(t);
  await logAction(t, m, outreach(hours, `stats-note-${m.handle}`));
  if (opted) {
    const res = await t.request('PUT', '/api/me/action-aggregate-opt-in', { token: m.token, body: { optIn: true } });
    expect(res.status).toBe(200);
  }
  return m;
}

it('shows service-wide totals from 5 contributors, within the 5-minute cache (happy + security)', async () => {
  const members = [];
  for (let i = 0; i < 4; i++) members.push(await contributor(1));
  await contributor(8, false);
  expect((await stats()).actions).toBeNull();

  members.push(await contributor(2));
  // Still the cached figure: the stats were computed a moment ago.
  expect((await stats()).actions).toBeNull();
  t.clock.advance(FIVE_MINUTES + 1_000);
  const shown = await stats();
  expect(shown.actions).toEqual({ contributors: 5, actions: 5, hours: 6 });
  expect((await t.trpc().stats.get.query({})).actions).toEqual(shown.actions);
  const text = JSON.stringify(shown);
  for (const m of members) {
    expect(text).not.toContain(m.id);
    expect(text).not.toContain(m.handle);
  }

  // An opt-out leaves the service-wide figure at the next computation (within 5 minutes).
  const res = await t.request('PUT', '/api/me/action-aggregate-opt-in', {
    token: members[0]!.token,
    body: { optIn: false },
  });
  expect(res.status).toBe(200);
  expect((await stats()).actions).toEqual(shown.actions);
  t.clock.advance(FIVE_MINUTES + 1_000);
  expect((await stats()).actions).toBeNull();
});
