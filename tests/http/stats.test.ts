// GET /api/stats: aggregate counters, cached for 5 minutes. The file starts on an empty
// database of its own (tests/setup/database.ts), so the totals are exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/stats', () => {
  it('counts members and serves the cached value for 5 minutes (happy)', async () => {
    await createMember(t);
    const first = await t.request('GET', '/api/stats');
    expect(first.status).toBe(200);
    expect(first.body.members).toBe(1);
    expect(new Date(first.body.generatedAt).toISOString()).toBe(first.body.generatedAt);

    await createMember(t);
    t.clock.advance(4 * 60_000 + 59_000);
    const cached = await t.request('GET', '/api/stats');
    expect(cached.body).toEqual(first.body);

    t.clock.advance(2_000);
    const fresh = await t.request('GET', '/api/stats');
    expect(fresh.body.members).toBe(2);
    expect(fresh.body.generatedAt).not.toBe(first.body.generatedAt);
  });

  it('is public, and exposes no per-member data (security)', async () => {
    const m = await createMember(t);
    t.clock.advance(6 * 60_000);
    const res = await t.request('GET', '/api/stats');
    expect(res.status).toBe(200);
    expect(res.body.members).toBe(3);
    expect(res.text).not.toContain(m.email);
    expect(res.text).not.toContain(m.handle);
    expect(res.text).not.toContain(m.id);
  });

  it('rejects a dead token even on this public route (error)', async () => {
    const res = await t.request('GET', '/api/stats', { token: 'a'.repeat(52) });
    expect(res.status).toBe(401);
  });

  it('works through the typed tRPC client', async () => {
    await createMember(t);
    t.clock.advance(6 * 60_000);
    const stats = await t.trpc().stats.get.query({});
    expect(stats.members).toBe(4);
  });
});
