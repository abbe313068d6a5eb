// createApp(deps): the one Hono app with every surface. Exported for tests (app.request) and
// used by main.ts behind @hono/node-server.
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { TRPCError } from '@trpc/server';
import { Hono, type Context as HonoContext } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { AppError, errorBody } from './errors.js';
import { createRequestContext, type AppDeps, type Context, type HeaderReader } from './trpc/context.js';
import { describeError } from './trpc/errors.js';
import { appRouter, rawRoutes } from './composition.js';
import { buildOpenApiDocument } from './http/openapi.js';
import { createDocs, mountDocs } from './http/docs-page.js';
import { createRestHandler, errorResponse, type OtherRoute } from './http/rest.js';
import { signalFreeRequest, tooLarge } from './http/request-body.js';
import { mountBrowserPolicies } from './http/security-headers.js';
import { mountMetrics } from './http/metrics.js';
import { procedurePaths } from './trpc/trpc-internals.js';
import packageJson from '../package.json' with { type: 'json' };

export const HEALTH_TIMEOUT_MS = 2000;

/** Node's socket address when served by @hono/node-server; tests pass the same shape as env. */
export interface ServerEnv {
  incoming?: {
    socket?: { remoteAddress?: string };
    headers?: Record<string, string | string[] | undefined>;
    rawHeaders?: string[];
  };
}

type Env = {
  Bindings: ServerEnv;
  Variables: { requestId: string; answeredWithHeaders: boolean; route: string };
};

/** An incoming X-Request-Id we keep (a balancer's or client's id ties their logs to ours). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** /trpc/<procedure>[,<procedure>…] (batches); only procedure names, never input. */
const TRPC_PATH = /^\/trpc\/([A-Za-z0-9_.,]{1,200})$/;

/**
 * What the access log calls the route: the REST template (/api/places/{slug}) or the tRPC
 * procedure path, never the raw path, whose segments can be secrets (calendar feed tokens).
 */
function routeForLog(c: HonoContext<Env>, procedures: ReadonlySet<string>): string {
  const known = c.get('route');
  if (known) return known;
  const routePath = c.req.routePath;
  if (routePath === '/trpc/*') {
    // Only the names of real procedures reach the log: anything else the path says (a token
    // pasted there by a confused client) does not.
    const names = TRPC_PATH.exec(c.req.path)?.[1];
    return names?.split(',').every((name) => procedures.has(name)) ? `/trpc/${names}` : '/trpc/{unknown}';
  }
  if (routePath === '*' || routePath === '/*' || routePath === '/api/*') return '(unmatched)';
  return routePath;
}

/**
 * Request headers as the context reads them: straight from Node's parsed headers when served by
 * @hono/node-server (asking its Request for `headers` builds a Headers object per request),
 * otherwise (app.request in tests) from the Request.
 */
/**
 * Node's request stream when the server is Node's (undefined under app.request): bodies are read
 * from it rather than from the web Request (server/http/request-body.ts says why).
 */
function nodeRequestStream(c: HonoContext<Env>): Readable | undefined {
  const incoming: unknown = c.env?.incoming;
  return incoming instanceof Readable ? incoming : undefined;
}

function requestHeaders(c: HonoContext<Env>): HeaderReader {
  const incoming = c.env?.incoming?.headers;
  if (!incoming) return c.req.raw.headers;
  const rawHeaders = c.env?.incoming?.rawHeaders;
  return {
    get(name) {
      // Node keeps only the first of duplicate Authorization headers; join them as fetch does,
      // so a request carrying two is refused instead of silently using one.
      if (name === 'authorization' && incoming.authorization !== undefined && rawHeaders)
        return joinedRawHeader(rawHeaders, name);
      const value = incoming[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

function joinedRawHeader(rawHeaders: string[], name: string): string {
  const values: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (rawHeaders[i]!.toLowerCase() === name) values.push(rawHeaders[i + 1]!);
  return values.join(', ');
}

/** Every operation of the document, as method and OpenAPI path. */
function documentedOperations(doc: { paths?: Record<string, object | undefined> }): OtherRoute[] {
  const methods = ['get', 'put', 'post', 'delete', 'patch'];
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.keys(item ?? {})
      .filter((method) => methods.includes(method))
      .map((method) => ({ method, path })),
  );
}

/** The process's state the app answers from; main.ts sets `draining` on SIGTERM. */
export interface AppLifecycle {
  draining: boolean;
  /**
   * Whether live delivery works on this process (set by server/main.ts once socket.io runs):
   * null when there is nothing to link (PGlite, one process).
   */
  realtimeHealth?: () => { listening: boolean; publishing: boolean } | null;
}

export function createApp(deps: AppDeps, lifecycle: AppLifecycle = { draining: false }) {
  const app = new Hono<Env>();
  const openApiDocument = buildOpenApiDocument(appRouter, {
    baseUrl: deps.config.PUBLIC_URL,
    version: packageJson.version,
  });
  for (const route of rawRoutes) route.document?.(openApiDocument);
  const docs = createDocs(openApiDocument);

  const logUnexpected = (ctx: Context | undefined, error: TRPCError) => {
    (ctx?.log ?? deps.log).error(
      { err: error.cause ?? error, path: (error as { path?: string }).path },
      'unexpected error',
    );
  };
  const restRoutes = new WeakMap<Context, string>();
  const restHandler = createRestHandler(appRouter, {
    maxBodyBytes: deps.config.MAX_BODY_BYTES,
    onUnexpected: logUnexpected,
    onRoute: (ctx, template) => restRoutes.set(ctx, template),
    // The raw routes' documented operations: their paths answer other methods with 405 too.
    otherRoutes: documentedOperations(openApiDocument),
  });

  const contextFor = (c: HonoContext<Env>): Context =>
    createRequestContext(deps, {
      requestId: c.get('requestId'),
      headers: requestHeaders(c),
      remoteAddress: c.env?.incoming?.socket?.remoteAddress,
    });

  /** The tRPC procedures by name: the access log and the metrics name no other. */
  const procedures: ReadonlySet<string> = new Set(procedurePaths(appRouter));

  // Request id on every answer, and one access-log line per request (info): method, route
  // template, status, duration, request id. Never the raw path, query, headers or body.
  app.use('*', async (c, next) => {
    const incomingId = requestHeaders(c).get('x-request-id');
    const requestId = incomingId !== null && SANE_REQUEST_ID.test(incomingId) ? incomingId : randomUUID();
    c.set('requestId', requestId);
    const started = performance.now();
    await next();
    // The REST handler already puts these on its answers (responseHeaders in server/http/rest.ts):
    // c.header() on a finished response rebuilds it, which costs @hono/node-server its fast path
    // (a real Response, its body read back as a stream), and even reading c.res.headers makes
    // a Headers object. Every other answer gets them here. (Mutating c.res.headers instead is
    // not reliable once node-server's lightweight Response has replaced the global one.)
    if (!c.get('answeredWithHeaders') || c.error) {
      c.header('X-Request-Id', requestId);
      c.header('X-Content-Type-Options', 'nosniff');
      if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
    }
    if (deps.log.isLevelEnabled('info')) {
      deps.log.info(
        {
          requestId,
          method: c.req.method,
          route: routeForLog(c, procedures),
          status: c.res.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        'request',
      );
    }
  });

  // Prometheus metrics, only when configured (METRICS_PORT / METRICS_TOKEN, docs/operations.md
  // "Metrics"): every answer counted by route template or known procedure, never by raw path.
  if (deps.metrics) mountMetrics(app, deps.metrics, deps.config, (c) => routeForLog(c, procedures), procedures);

  mountBrowserPolicies(app, deps.config);

  /** Null when the database answers; otherwise why not (logged once here). */
  const databaseProblem = async (): Promise<string | null> => {
    try {
      if (deps.database.health.isDown()) throw new Error('database marked down; probing in the background');
      await deps.database.ping(HEALTH_TIMEOUT_MS);
      return null;
    } catch (error) {
      deps.database.health.markDown(error);
      deps.log.warn({ err: error }, 'health check: database unreachable');
      return 'The database is unreachable.';
    }
  };

  // Health for a balancer (docs/operations.md): /healthz, the process and its database, as it
  // always was; /readyz, everything this process needs to serve, live delivery included. Both
  // name the running version (package.json), so an operator sees which one a rolling deploy reached.
  const healthy = { ok: true, version: packageJson.version } as const;
  app.get('/healthz', async (c) => {
    // Draining: tell the balancer to stop sending before the listener closes.
    if (lifecycle.draining) return c.json(errorBody('unavailable', 'The service is shutting down.'), 503);
    const problem = await databaseProblem();
    return problem ? c.json(errorBody('unavailable', problem), 503) : c.json(healthy);
  });
  app.get('/readyz', async (c) => {
    if (lifecycle.draining) return c.json(errorBody('unavailable', 'The service is shutting down.'), 503);
    const realtime = lifecycle.realtimeHealth?.() ?? null;
    const problem =
      (await databaseProblem()) ??
      (realtime && !realtime.listening
        ? 'Live delivery is interrupted: not listening to the other servers.'
        : realtime && !realtime.publishing
          ? 'Live delivery is interrupted: cannot reach the other servers.'
          : null);
    return problem ? c.json(errorBody('unavailable', problem), 503) : c.json(healthy);
  });

  app.get('/api/openapi.json', (c) => c.json(openApiDocument));
  mountDocs(app, docs);

  // The REST adapter caps its own bodies; native tRPC gets the same limit and envelope: read
  // from Node's stream when served by Node (signalFreeRequest), else by Hono's bodyLimit.
  const trpcBodyLimit = bodyLimit({
    maxSize: deps.config.MAX_BODY_BYTES,
    onError: () => errorResponse(tooLarge(deps.config.MAX_BODY_BYTES)),
  });
  app.use('/trpc/*', (c, next) => (nodeRequestStream(c) ? next() : trpcBodyLimit(c, next)));
  app.all('/trpc/*', async (c) => {
    const incoming = nodeRequestStream(c);
    let req = c.req.raw;
    if (incoming) {
      try {
        req = await signalFreeRequest(c.req.raw, incoming, deps.config.MAX_BODY_BYTES);
      } catch (error) {
        if (error instanceof AppError) return errorResponse(error);
        throw error;
      }
    }
    return fetchRequestHandler({
      endpoint: '/trpc',
      req,
      router: appRouter,
      // One batched request must not carry hundreds of guesses or writes (400 beyond it).
      maxBatchSize: deps.config.TRPC_MAX_BATCH_SIZE,
      createContext: () => contextFor(c),
      responseMeta: ({ errors }) => {
        const error = errors[0];
        return error ? { headers: describeError(error).headers } : {};
      },
      onError: ({ error, ctx }) => {
        if (describeError(error).unexpected) logUnexpected(ctx, error);
      },
    });
  });

  // Before the REST adapter's catch-all, which would answer their paths otherwise.
  for (const route of rawRoutes) route.mount(app, deps, contextFor);
  app.all('/api/*', async (c) => {
    c.set('answeredWithHeaders', true);
    const ctx = contextFor(c);
    const response = await restHandler(c.req.raw, ctx, nodeRequestStream(c));
    const template = restRoutes.get(ctx);
    if (template) c.set('route', template);
    return response;
  });

  app.notFound((c) => errorResponse(new AppError('not_found', `No route ${c.req.method} ${c.req.path}.`)));
  app.onError((error, c) => {
    deps.log.error({ err: error, requestId: c.get('requestId') }, 'unhandled error');
    return errorResponse(new AppError('internal_error'));
  });

  return { app, openApiDocument };
}

export type App = ReturnType<typeof createApp>['app'];
