// Prometheus metrics (GET /metrics, docs/operations.md "Metrics"), one registry per app instance
// (tests build many apps in one process). Off unless METRICS_PORT or METRICS_TOKEN is set; then
// server/deps.ts builds them and the parts that count take them from AppDeps (`deps.metrics`).
//
// Labels are closed sets chosen by the code: a route template or procedure name, a status code, a
// method, a job's name, a rate-limit scope, a namespace. Never an id, a handle, a token or a raw
// path: a label value from a request would make the series unbounded and leak what it carries.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolUse } from '../../db/query-observer.js';

export type JobOutcome = 'ran' | 'skipped' | 'failed';

export interface Metrics {
  readonly contentType: string;
  /** The exposition text, every gauge read now (pool, sockets, push queue). */
  render(): Promise<string>;
  /** `route`: a template or procedure name from routeLabel, never a raw path. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** `kind`: the rule's scope (`login:ip`, `write:places`…), a fixed list in the code. */
  rateLimitRefused(kind: string): void;
  /** The cluster link failed to publish; `dropped` messages (not heartbeats) were lost with it. */
  realtimePublishFailed(dropped: number): void;
  jobFinished(job: string, outcome: JobOutcome, seconds: number): void;
  /** When the job's next run is due (epoch ms); the lag gauge is how far past it now is. */
  jobDue(job: string, dueAtMs: number): void;
  /** Counts a namespace's open sockets at each scrape; returns the function that stops it. */
  watchSockets(namespace: string, count: () => number): () => void;
  /** Observes every database statement's duration (seconds). */
  observeQuery(seconds: number): void;
}

export interface MetricsSources {
  /** The connection pool's use now (db/query-observer.ts). */
  pool: () => PoolUse;
  /** Entries waiting in the push queue, read at scrape time (a failure leaves the gauge unset). */
  pushQueueDepth: () => Promise<number>;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Seconds: 5 ms … 10 s (REQUEST_TIMEOUT_MS's default). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60];

export function createMetrics(sources: MetricsSources, clock: () => number = Date.now): Metrics {
  const registry = new Registry();
  // Process memory, CPU, event-loop lag (nodejs_eventloop_lag_*), heap, handles, GC.
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template (or tRPC procedure) and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request to its answer, by method, route template (or tRPC procedure) and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const queries = new Histogram({
    name: 'db_query_duration_seconds',
    help: 'Time of each database statement, from the driver call to its answer.',
    buckets: QUERY_BUCKETS,
    registers: [registry],
  });
  const poolGauge = (name: string, help: string, read: (use: PoolUse) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(sources.pool()));
      },
    });
  poolGauge('db_pool_max', 'Connections the pool may open (1 on the embedded database).', (use) => use.max);
  poolGauge(
    'db_pool_in_use',
    'Connections held: open transactions and statements running outside one.',
    (use) => use.inUse,
  );
  poolGauge('db_pool_waiting', 'Transactions and statements waiting for a connection.', (use) => use.waiting);

  const sockets = new Map<string, Set<() => number>>();
  new Gauge({
    name: 'realtime_open_sockets',
    help: 'Open socket.io connections of this process, by namespace.',
    labelNames: ['namespace'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [namespace, counts] of sockets) {
        let open = 0;
        for (const count of counts) open += count();
        this.set({ namespace }, open);
      }
    },
  });
  const publishFailures = new Counter({
    name: 'realtime_publish_failures_total',
    help: 'Times the link to the other processes failed to publish (PostgreSQL NOTIFY).',
    registers: [registry],
  });
  const publishDropped = new Counter({
    name: 'realtime_messages_dropped_total',
    help: 'Realtime messages the link dropped (the other processes resync when it works again).',
    registers: [registry],
  });

  const jobRuns = new Counter({
    name: 'job_runs_total',
    help: 'Periodic job runs by job and outcome: ran, skipped (another process held it), failed.',
    labelNames: ['job', 'outcome'],
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: 'job_duration_seconds',
    help: 'Time of each job run that did its work, by job.',
    labelNames: ['job'],
    buckets: JOB_BUCKETS,
    registers: [registry],
  });
  const due = new Map<string, number>();
  new Gauge({
    name: 'job_lag_seconds',
    help: 'How far past its due time each job is in this process (0 while on schedule).',
    labelNames: ['job'],
    registers: [registry],
    collect() {
      const now = clock();
      for (const [job, at] of due) this.set({ job }, Math.max(0, (now - at) / 1000));
    },
  });

  new Gauge({
    name: 'push_queue_depth',
    help: 'Push notifications queued and not yet sent (read from the database at scrape time).',
    registers: [registry],
    async collect() {
      try {
        this.set(await sources.pushQueueDepth());
      } catch {
        this.reset();
      }
    },
  });
  const refusals = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused (or silently not acted on) by a rate limit, by kind.',
    labelNames: ['kind'],
    registers: [registry],
  });

  return {
    contentType: registry.contentType,
    render: () => registry.metrics(),
    observeRequest(method, route, status, seconds) {
      const labels = { method: METHODS.has(method) ? method : 'OTHER', route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    rateLimitRefused: (kind) => refusals.inc({ kind }),
    realtimePublishFailed(dropped) {
      publishFailures.inc();
      if (dropped > 0) publishDropped.inc(dropped);
    },
    jobFinished(job, outcome, seconds) {
      jobRuns.inc({ job, outcome });
      if (outcome === 'ran') jobDuration.observe({ job }, seconds);
    },
    jobDue: (job, dueAtMs) => due.set(job, dueAtMs),
    watchSockets(namespace, count) {
      const counts = sockets.get(namespace) ?? new Set();
      sockets.set(namespace, counts.add(count));
      return () => {
        counts.delete(count);
        if (counts.size === 0) sockets.delete(namespace);
      };
    },
    observeQuery: (seconds) => queries.observe(seconds),
  };
}
