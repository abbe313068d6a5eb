// The scenario under a database outage (PostgreSQL only): a create is sent, the
// network to the database stalls, the request deadline answers 503, the network heals and the
// queued write commits after all. The client's retry with the same Idempotency-Key must get
// the original answer, and exactly one row must exist. (Without a key the same retry would
// create a second row: the contrast is tested too.)
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMember } from '../security/callers.js';
import { unique, type ApiResponse } from '../setup/harness.js';
import { proxiedApp, type ProxiedApp } from './proxied-app.js';
import { eventually } from '../setup/wait.js';

const REQUEST_TIMEOUT_MS = 1500;

const placeBody = () => ({
  name: `Outage place ${unique('o')}`,
  type: 'cafe',
  veganLevel: 'full',
  address: '1 Test Street',
  website: 'https://example.org',
  location: { lng: 13.4, lat: 52.5 },
});

describe('Idempotency-Key across a database outage (PostgreSQL)', () => {
  let p: ProxiedApp;
  let token: string;

  beforeAll(async () => {
    p = await proxiedApp('idem_outage', { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) });
    token = (await insertMember(p.t, { prefix: 'outage' })).token;
  });
  afterAll(() => p?.close());

  async function rowsNamed(name: string): Promise<{ id: string }[]> {
    return p.direct.rows<{ id: string }>(sql`select id::text as id from places where name = ${name}`);
  }

  /** Sends a create while the database is unreachable; it answers 503 and its write commits after `up`. */
  async function createThatTimesOut(body: ReturnType<typeof placeBody>, headers: Record<string, string>) {
    // A warm pool: the stall then holds established connections (no connect timeout, no error).
    expect((await p.t.request('GET', '/api/me', { token })).status).toBe(200);
    await p.proxy.set('stall');
    const started = performance.now();
    const first = await p.t.request('POST', '/api/places', { token, body, headers });
    const ms = performance.now() - started;
    expect(first.status, first.text).toBe(503);
    expect(first.body.error.code).toBe('unavailable');
    expect(ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(await rowsNamed(body.name), 'nothing committed while stalled').toEqual([]);
    await p.proxy.set('up');
    // The write the client gave up on commits now.
    expect(
      await eventually(async () => (await rowsNamed(body.name)).length === 1, { timeoutMs: 10_000, intervalMs: 100 }),
    ).toBe(true);
    return first;
  }

  it('a retry with the same key after the 503 gets the original answer; exactly one row', {
    timeout: 30_000,
  }, async () => {
    const body = placeBody();
    const headers = { 'idempotency-key': `outage-${unique('k')}` };
    await createThatTimesOut(body, headers);
    const [committed] = await rowsNamed(body.name);

    const retry: ApiResponse = await p.t.request('POST', '/api/places', { token, body, headers });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.body._id).toBe(committed!.id);
    expect(retry.body.name).toBe(body.name);
    const again = await p.t.request('POST', '/api/places', { token, body, headers });
    expect(again.text).toBe(retry.text);
    expect(await rowsNamed(body.name)).toHaveLength(1);
  });

  it('without a key the same retry creates a duplicate (what the header prevents)', { timeout: 30_000 }, async () => {
    const body = placeBody();
    await createThatTimesOut(body, {});
    const retry = await p.t.request('POST', '/api/places', { token, body });
    expect(retry.status).toBe(201);
    expect(await rowsNamed(body.name)).toHaveLength(2);
  });
});
