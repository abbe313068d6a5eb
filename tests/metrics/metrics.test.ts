// GET /metrics (issue #23, docs/operations.md "Metrics"): off unless configured, never on the API's
// port without its token, one registry per app, and no label carrying an id, a handle, a token or
// a raw path, however many different ones the requests carried.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { createJobRunner, type Job } from '../../server/jobs/runner.js';
import { createMetrics } from '../../server/lib/metrics.js';
import { startMetricsServer } from '../../server/http/metrics.js';
import { createMember, createTestApp, type TestApp, uniqueIp } from '../setup/harness.js';
import { waitFor } from '../setup/wait.js';

const TOKEN = 'metrics-token-for-tests-0123456789abcdef';

async function scrape(t: TestApp): Promise<string> {
  const res = await t.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text;
}

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Every distinct value of `label` among the samples of `metric`. */
function labelValues(text: string, metric: string, label: string): Set<string> {
  const values = new Set<string>();
  const pattern = new RegExp(`^${metric}\\{[^}]*\\b${label}="([^"]*)"`);
  for (const line of text.split('\n')) {
    const match = pattern.exec(line);
    if (match) values.add(match[1]!);
  }
  return values;
}

describe('GET /metrics, not configured', () => {
  let plain: TestApp;
  let portOnly: TestApp;
  beforeAll(async () => {
    plain = await createTestApp();
    portOnly = await createTestApp({ METRICS_PORT: '9464' });
  });
  afterAll(async () => {
    await plain?.close();
    await portOnly?.close();
  });

  it('answers 404 on the API port when neither METRICS_PORT nor METRICS_TOKEN is set, and keeps no metrics', async () => {
    expect(plain.deps.metrics).toBeUndefined();
    const res = await plain.request('GET', '/metrics');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('http_requests_total');
  });

  it('answers 404 on the API port when metrics have their own listener (METRICS_PORT) and no token', async () => {
    expect(portOnly.deps.metrics).toBeDefined();
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
      const res = await portOnly.request('GET', '/metrics', { headers });
      expect(res.status).toBe(404);
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN, RATE_LIMIT_MAGIC_LINK_PER_IP: '1' });
  });
  afterAll(() => t?.close());

  it('refuses a scrape without the token or with another one', async () => {
    expect((await t.request('GET', '/metrics')).status).toBe(401);
    const wrong = await t.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toContain('http_requests_total');
    expect((await t.request('GET', '/metrics', { token: TOKEN })).status).toBe(200);
  });

  it('counts requests by route template and status; no id, handle, token or raw path in any label', async () => {
    const member = await createMember(t);
    expect((await t.request('GET', '/api/me', { token: member.token })).status).toBe(200);
    const secrets: string[] = [member.token, member.handle, member.email, member.id];
    // Many different ids, handles, tokens and unknown paths: the series must not grow with them.
    for (let i = 0; i < 25; i++) {
      const id = randomUUID();
      const handle = `h${id.slice(0, 8)}`;
      const token = `tok${id.replaceAll('-', '')}`;
      secrets.push(id, handle, token);
      await t.request('GET', `/api/places/${id}?q=${token}`);
      await t.request('GET', `/api/handles/${handle}/posts`);
      await t.request('GET', `/api/conversations/${id}`, { token: member.token });
      await t.request('GET', `/api/calendar/${token}.ics`);
      await t.request('GET', `/no/such/path/${token}`);
      await t.request('POST', `/api/${handle}/${id}`, { body: {} });
      await t.request('GET', `/trpc/${token}`);
      await t.request('GET', `/trpc/places.list,${handle}?batch=1&input=%7B%7D`);
      await t.request('GET', '/trpc/places.list,me.get?batch=1&input=%7B%7D');
      await t.request('GET', '/api/me', { token });
    }
    // Through the typed tRPC client too: a known procedure is named by its path.
    await t.trpc(member.token).me.get.query({});

    const text = await scrape(t);
    for (const secret of secrets) expect(text, 'a request value in a label').not.toContain(secret);
    const routes = labelValues(text, 'http_requests_total', 'route');
    expect(routes).toEqual(
      new Set([
        '/api/auth/register',
        '/api/me',
        '/api/places/{slug}',
        '/api/handles/{handle}/posts',
        '/api/conversations/{id}',
        '/api/calendar/:file',
        '(unmatched)',
        '/trpc/{unknown}',
        '/trpc/{batch}',
        '/trpc/me.get',
        '/metrics',
      ]),
    );
    expect(sample(text, 'http_requests_total{method="GET",route="/api/places/{slug}",status="404"}')).toBe(25);
    expect(sample(text, 'http_requests_total{method="GET",route="/api/me",status="200"}')).toBe(1);
    expect(sample(text, 'http_requests_total{method="GET",route="/trpc/me.get",status="200"}')).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/places/{slug}",status="404"}'),
    ).toBe(25);
    // Bounded: every series of the whole exposition, after 225 requests with distinct values.
    const series = text.split('\n').filter((line) => line && !line.startsWith('#'));
    expect(series.length).toBeLessThan(600);
  });

  it('has the database pool, push queue, event-loop lag and memory gauges', async () => {
    const text = await scrape(t);
    const max = t.deps.database.kind === 'pglite' ? 1 : 5;
    expect(sample(text, 'db_pool_max')).toBe(max);
    expect(sample(text, 'db_pool_in_use')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'db_pool_waiting')).toBe(0);
    expect(sample(text, 'db_query_duration_seconds_count')).toBeGreaterThan(0);
    expect(sample(text, 'push_queue_depth')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('counts rate-limit refusals by kind', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 3; i++)
      await t.request('POST', '/api/auth/magic-link', { body: { email: 'someone@example.test' }, ip });
    const text = await scrape(t);
    expect(sample(text, 'rate_limit_refusals_total{kind="magic:ip"}')).toBe(2);
    expect(text).not.toContain('someone@example.test');
  });

  it('keeps one registry per app: a second app counts only its own requests', async () => {
    const other = await createTestApp({ METRICS_TOKEN: TOKEN });
    try {
      await other.request('GET', '/healthz');
      const text = await scrape(other);
      expect(sample(text, 'http_requests_total{method="GET",route="/healthz",status="200"}')).toBe(1);
      // (A scrape is counted once answered: after its own text.)
      expect(labelValues(text, 'http_requests_total', 'route')).toEqual(new Set(['/healthz']));
    } finally {
      await other.close();
    }
  });

  it('counts job runs, failures and lag per job', async () => {
    const metrics = t.deps.metrics!;
    const ok: Job = { name: 'metrics-ok', lockId: 990_001, intervalMs: 60_000, run: async () => ({ done: 1 }) };
    const failing: Job = {
      name: 'metrics-failing',
      lockId: 990_002,
      intervalMs: 60_000,
      run: async () => {
        throw new Error('boom');
      },
    };
    const runner = createJobRunner({ ...t.deps, metrics }, [ok, failing], { firstRunDelayMs: 0, firstRunJitterMs: 0 });
    runner.start();
    try {
      await waitFor(
        async () => {
          const text = await scrape(t);
          return (
            sample(text, 'job_runs_total{job="metrics-ok",outcome="ran"}') === 1 &&
            sample(text, 'job_runs_total{job="metrics-failing",outcome="failed"}') === 1
          );
        },
        { message: 'both jobs counted' },
      );
      const text = await scrape(t);
      expect(sample(text, 'job_lag_seconds{job="metrics-ok"}')).toBe(0);
      expect(sample(text, 'job_duration_seconds_count{job="metrics-ok"}')).toBe(1);
    } finally {
      await runner.stop();
    }
  });
});

describe('metrics parts without a database', () => {
  it('takes METRICS_TOKEN only long enough, and never echoes it; the listener defaults to loopback', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'too-short-token' })).toThrow(/METRICS_TOKEN: .*value not shown/);
    expect(() => loadConfig({ METRICS_TOKEN: 'too-short-token' })).not.toThrow(/too-short-token/);
    expect(loadConfig({ METRICS_PORT: '9464' })).toMatchObject({ METRICS_PORT: 9464, METRICS_HOST: '127.0.0.1' });
    const defaults = loadConfig({});
    expect([defaults.METRICS_PORT, defaults.METRICS_TOKEN]).toEqual([undefined, undefined]);
  });

  it('counts open sockets per namespace at scrape time and realtime publish failures', async () => {
    const metrics = createMetrics({ pool: () => ({ max: 3, inUse: 1, waiting: 0 }), pushQueueDepth: async () => 7 });
    let open = 4;
    const stop = metrics.watchSockets('/messages', () => open);
    metrics.realtimePublishFailed(3);
    metrics.realtimePublishFailed(0);
    let text = await metrics.render();
    expect(sample(text, 'realtime_open_sockets{namespace="/messages"}')).toBe(4);
    expect(sample(text, 'realtime_publish_failures_total')).toBe(2);
    expect(sample(text, 'realtime_messages_dropped_total')).toBe(3);
    expect(sample(text, 'push_queue_depth')).toBe(7);
    expect(sample(text, 'db_pool_in_use')).toBe(1);
    open = 9;
    expect(sample(await metrics.render(), 'realtime_open_sockets{namespace="/messages"}')).toBe(9);
    stop();
    text = await metrics.render();
    expect(sample(text, 'realtime_open_sockets{namespace="/messages"}')).toBeUndefined();
  });

  it('serves GET /metrics alone on its own listener, bound to loopback by default', async () => {
    const metrics = createMetrics({ pool: () => ({ max: 1, inUse: 0, waiting: 0 }), pushQueueDepth: async () => 0 });
    const log = (await import('../../server/log.js')).createLogger('silent');
    const server = await startMetricsServer(metrics, { METRICS_HOST: '127.0.0.1', METRICS_PORT: 0 }, log);
    try {
      const { address, port } = server.address() as AddressInfo;
      expect(address).toBe('127.0.0.1');
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('process_resident_memory_bytes');
      expect((await fetch(`http://127.0.0.1:${port}/api/me`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
