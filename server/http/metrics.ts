// Where GET /metrics is served (docs/operations.md "Metrics"): on a listener of its own
// (METRICS_PORT, loopback by default) and/or on the API's port behind a bearer token
// (METRICS_TOKEN). Configured neither way, nothing is mounted and /metrics is the API's 404.
import { createServer, type Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { Context, Env, Hono } from 'hono';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { Metrics } from '../lib/metrics.js';
import type { Logger } from '../log.js';
import { errorResponse } from './rest.js';

/** A label for a tRPC route: a known procedure's path; a batch or an unknown name, a fixed word. */
function trpcLabel(route: string, procedures: ReadonlySet<string>): string {
  const names = route.slice('/trpc/'.length);
  if (names.includes(',')) return '/trpc/{batch}';
  return procedures.has(names) ? route : '/trpc/{unknown}';
}

function sameToken(header: string | undefined, token: string): boolean {
  const match = /^Bearer ([^\s,]+)$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Counts every answer by method, route label and status (one middleware, mounted first), and
 * serves GET /metrics on this app when METRICS_TOKEN is set. `routeOf`: the access log's route
 * (a template, `(unmatched)`, or `/trpc/<what the path says>`, narrowed here to `procedures`).
 */
export function mountMetrics<E extends Env>(
  app: Hono<E>,
  metrics: Metrics,
  config: Pick<Config, 'METRICS_TOKEN'>,
  routeOf: (c: Context<E>) => string,
  procedures: ReadonlySet<string>,
): void {
  app.use('*', async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = routeOf(c);
      const label = route.startsWith('/trpc/') ? trpcLabel(route, procedures) : route;
      metrics.observeRequest(c.req.method, label, c.res.status, (performance.now() - started) / 1000);
    }
  });
  const token = config.METRICS_TOKEN;
  if (token === undefined) return;
  app.get('/metrics', async (c) => {
    if (!sameToken(c.req.header('authorization'), token))
      return errorResponse(new AppError('unauthorized', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.'));
    return c.body(await metrics.render(), 200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' });
  });
}

/**
 * GET /metrics on METRICS_HOST:METRICS_PORT, nothing else (404). Unref'd: it never keeps the
 * process alive, and the process's exit closes it.
 */
export async function startMetricsServer(
  metrics: Metrics,
  config: Pick<Config, 'METRICS_HOST'> & { METRICS_PORT: number },
  log: Logger,
): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: only GET /metrics is served here.\n');
      return;
    }
    metrics.render().then(
      (text) => response.writeHead(200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' }).end(text),
      (error: unknown) => {
        log.error({ err: error }, 'metrics: could not render');
        response.writeHead(500, { 'Content-Type': 'text/plain' }).end('Metrics could not be read.\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: config.METRICS_PORT, host: config.METRICS_HOST }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  const address = server.address() as { port: number };
  log.info({ host: config.METRICS_HOST, port: address.port }, 'metrics listening');
  return server;
}
