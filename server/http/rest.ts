// The /api REST surface: every procedure with meta.openapi, mapped to its path the way
// trpc-to-openapi maps it (its utilities build the route table once at startup), and called
// directly; a small adapter normalises the request (body, content type, method) and rewrites
// every error into the spec's envelope `{ error: { code, message } }`. Everything it needs from
// tRPC's and trpc-to-openapi's internals goes through ../trpc/trpc-internals.ts.
import type { Readable } from 'node:stream';
import { TRPCError } from '@trpc/server';
import type { Context as HonoContext } from 'hono';
import { AppError, errorBody, type ErrorBody } from '../errors.js';
import type { Context } from '../trpc/context.js';
import { assertDeclaredCoercion } from './coercion.js';
import { readJsonBody } from './request-body.js';
import { describeError, detailsFromMessage } from '../trpc/errors.js';
import {
  callProcedure,
  compilePath,
  errorShaper,
  getTRPCErrorFromUnknown,
  isArrayField,
  listRestProcedures,
  normalizePath,
  objectShape,
  type OpenApiRouter,
  type RestProcedure,
} from '../trpc/trpc-internals.js';

interface RouteEntry {
  method: string;
  pattern: RegExp;
  procedurePath: string;
  successStatus: number;
}

/** A path parameter's count in a template: fewer is more concrete, and wins (see the dispatcher). */
const parameterCount = (template: string) => (template.match(/\{/g) ?? []).length;

/**
 * A documented operation served outside the adapter (a raw Hono route mounted before it: the
 * calendar feed, the action log export): known here only so its path answers a method it does
 * not have with 405 and `Allow`, like every other path, and shadows a templated route.
 */
export interface OtherRoute {
  method: string;
  /** The OpenAPI path, e.g. /api/calendar/{token}.ics. */
  path: string;
}

/**
 * `body`: Node's request stream when the server is Node's (the body is read from it; see
 * readCappedFromNode); without it (app.request in tests) the web Request's body is read.
 */
export type RestHandler = (request: Request, ctx: Context, body?: Readable) => Promise<Response>;

/** Every REST route, read from the router's meta, in declaration order. */
export function listRestRoutes(router: OpenApiRouter): RouteEntry[] {
  return buildRoutes(router).map(({ method, pattern, procedurePath, successStatus }) => ({
    method,
    pattern,
    procedurePath,
    successStatus,
  }));
}

/** Headers every API answer carries; set here so the app middleware need not rebuild the response. */
function responseHeaders(ctx: Context): Record<string, string> {
  return {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': ctx.requestId,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  };
}

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** The envelope of an AppError; validation_failed carries `details` (server/trpc/errors.ts). */
function appErrorBody(error: AppError): ErrorBody {
  return errorBody(
    error.code,
    error.message,
    error.code === 'validation_failed' ? detailsFromMessage(error.message) : undefined,
  );
}

export function errorResponse(error: AppError): Response {
  return jsonResponse(error.status, appErrorBody(error), error.headers);
}

/**
 * The envelope answer of a route served beside the dispatcher (the CSV export, the companion
 * stream) for what it threw: an AppError as it is, anything else as describeError says (logged
 * when unexpected); never cached.
 */
export function routeErrorAnswer(c: HonoContext, ctx: Pick<Context, 'log'>, cause: unknown): Response {
  if (cause instanceof AppError)
    return c.json(errorBody(cause.code, cause.message), cause.status as 400, {
      ...cause.headers,
      'Cache-Control': 'no-store',
    });
  const error = getTRPCErrorFromUnknown(cause);
  const described = describeError(error);
  if (described.unexpected) ctx.log.error({ err: error.cause ?? error }, 'unexpected error');
  return c.json(errorBody(described.code, described.message, described.details), described.status as 400, {
    ...described.headers,
    'Cache-Control': 'no-store',
  });
}

/**
 * One route as the dispatcher needs it, built once: trpc-to-openapi's own pieces (path regex,
 * input parser) so the mapping is the same as its handler's, without redoing the lookups,
 * schema merges and caller proxies of createOpenApiNodeHttpHandler on every request.
 */
interface Route extends RouteEntry, RestProcedure {
  /** The normalised OpenAPI path, e.g. /api/places/{id}. */
  template: string;
  parameters: number;
  /** Served by a raw route before the adapter: never dispatched here. */
  elsewhere?: true;
  /** Query keys whose schema is an array: a single value is wrapped, as trpc-to-openapi does. */
  arrayKeys: string[];
}

function buildRoutes(router: OpenApiRouter): Route[] {
  return listRestProcedures(router).map((procedure) => {
    const { template, pattern } = compilePath(procedure.meta.openapi.path);
    const pathParameters = [...template.matchAll(/\{(.+?)\}/g)].map(([, key]) => key!);
    // Nothing is coerced at request time: a non-string field fed by the URL must say how it reads one.
    assertDeclaredCoercion(procedure, pathParameters);
    const shape = objectShape(procedure.inputSchema) ?? {};
    return {
      ...procedure,
      method: procedure.meta.openapi.method,
      template,
      pattern,
      parameters: pathParameters.length,
      procedurePath: procedure.path,
      successStatus: procedure.meta.successStatus ?? 200,
      arrayKeys: Object.keys(shape).filter((key) => isArrayField(shape[key])),
    };
  });
}

/** A route that only answers 405 for the methods its path lacks (OtherRoute). */
function elsewhereRoute(other: OtherRoute): Route {
  const { template, pattern } = compilePath(other.path);
  return {
    method: other.method.toUpperCase(),
    template,
    pattern,
    parameters: parameterCount(template),
    elsewhere: true,
    procedurePath: '',
    successStatus: 200,
    arrayKeys: [],
  } as unknown as Route;
}

/** "/api/places/{id}" → "/API/PLACES": the first two segments, or null when either has a parameter. */
function routePrefix(path: string): string | null {
  const [, a = '', b = ''] = path.split('/', 3);
  return a.includes('{') || b.includes('{') ? null : `/${a}/${b}`.toUpperCase();
}

/**
 * The routes that may match a path, in declaration order (the first match of a method wins):
 * those under the path's two-segment prefix plus those whose prefix has a parameter. The
 * patterns are case-insensitive with ASCII literals, so comparing upper-cased prefixes never
 * drops a route that would match; the pattern still decides.
 */
function routeIndex(routes: Route[]): (path: string) => Route[] {
  const prefixes = routes.map((r) => routePrefix(r.template));
  const fallback = routes.filter((_, i) => prefixes[i] === null);
  const byPrefix = new Map<string, Route[]>();
  for (const prefix of new Set(prefixes)) {
    if (prefix !== null)
      byPrefix.set(
        prefix,
        routes.filter((_, i) => prefixes[i] === prefix || prefixes[i] === null),
      );
  }
  return (path) => byPrefix.get(routePrefix(path) ?? '') ?? fallback;
}

export function createRestHandler(
  router: OpenApiRouter,
  options: {
    maxBodyBytes: number;
    onUnexpected: (ctx: Context | undefined, error: TRPCError) => void;
    /** Told the matched route's template (e.g. /api/places/{slug}), for the access log. */
    onRoute?: (ctx: Context, template: string) => void;
    /** Documented operations served by raw routes (OtherRoute). */
    otherRoutes?: OtherRoute[];
  },
): RestHandler {
  const procedureRoutes = buildRoutes(router);
  const served = new Set(procedureRoutes.map((r) => `${r.method} ${r.template}`));
  const routes = [
    ...procedureRoutes,
    ...(options.otherRoutes ?? [])
      .filter((other) => !served.has(`${other.method.toUpperCase()} ${normalizePath(other.path)}`))
      .map((other) => elsewhereRoute(other)),
  ];
  const candidatesFor = routeIndex(routes);
  const errorShape = errorShaper(router);

  /** What trpc-to-openapi's handler did with a thrown error: log it if unexpected, answer the envelope. */
  const fail = (cause: unknown, route: Route | undefined, input: unknown, ctx: Context | undefined): Response => {
    const error = getTRPCErrorFromUnknown(cause);
    const described = describeError(error);
    if (described.unexpected) options.onUnexpected(ctx, error);
    const shape = errorShape(error, { type: route?.type ?? 'unknown', path: route?.procedurePath, input, ctx });
    // trpc-to-openapi overwrites the shape's message for input errors; ours is kept in data.
    const envelope: ErrorBody = {
      error: {
        code: shape.data?.code ?? 'internal_error',
        message: shape.data?.message ?? 'Something went wrong on our side.',
        ...(shape.data?.details ? { details: shape.data.details } : {}),
      },
    };
    return jsonResponse(
      described.status,
      envelope as never,
      ctx ? { ...responseHeaders(ctx), ...described.headers } : described.headers,
    );
  };

  return async (request, ctx, nodeBody) => {
    const url = new URL(request.url);
    const path = normalizePath(url.pathname);
    // HEAD is GET without a body.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    // As OpenAPI matches paths: a concrete template wins over a templated one
    // (/api/actions/export over /api/actions/{id}), so the path's methods are those of its
    // most concrete matching templates; among them the first of the method wins.
    let route: Route | undefined;
    let rawPathInput: Record<string, string> = {};
    let concreteness = Number.POSITIVE_INFINITY;
    const allow = new Set<string>();
    for (const r of candidatesFor(path)) {
      if (r.parameters > concreteness) continue;
      const match = r.pattern.exec(path);
      if (!match) continue;
      if (r.parameters < concreteness) {
        concreteness = r.parameters;
        route = undefined;
        allow.clear();
      }
      allow.add(r.method);
      if (r.method === method && !route) {
        route = r;
        rawPathInput = match.groups ?? {};
        // Nothing is more concrete than a template without parameters: stop looking.
        if (concreteness === 0) break;
      }
    }
    if (route?.elsewhere) route = undefined;
    if (route) options.onRoute?.(ctx, route.template);
    // Every answer from here carries responseHeaders(ctx): the app middleware leaves /api alone.
    const refuse = (error: AppError) =>
      jsonResponse(error.status, appErrorBody(error), { ...responseHeaders(ctx), ...error.headers });
    if (allow.size === 0 || (!route && allow.has(method)))
      return refuse(new AppError('not_found', `No route ${request.method} ${url.pathname}.`));
    if (!route) {
      const allowed = [...allow].join(', ');
      return refuse(
        new AppError('method_not_allowed', `${request.method} is not allowed here; use ${allowed}.`, {
          Allow: allowed,
        }),
      );
    }

    const useBody = method !== 'GET' && method !== 'DELETE';
    let body: unknown;
    try {
      body = useBody ? await readJsonBody(request, options.maxBodyBytes, nodeBody) : undefined;
    } catch (error) {
      if (error instanceof AppError) return refuse(error);
      throw error;
    }

    // Templates match the raw path (an encoded "/" stays inside its segment); each parameter is
    // then percent-decoded once, before validation. A malformed escape is the parameter's 400.
    const pathInput = decodePathParameters(rawPathInput);
    if (pathInput instanceof AppError) return refuse(pathInput);

    let input: Record<string, unknown> | undefined;
    try {
      if (route.type === 'subscription') throw new TRPCError({ code: 'NOT_FOUND', message: 'Not found' });
      if (route.inputSchema !== null) {
        input = { ...(useBody ? (body as object) : queryInput(url)), ...pathInput };
        if (!useBody) {
          for (const key of route.arrayKeys)
            if (input[key] !== undefined && !Array.isArray(input[key])) input[key] = [input[key]];
        }
      }
      const data = await callProcedure(route, ctx, input);
      if (request.method === 'HEAD')
        return new Response(null, { status: route.successStatus, headers: responseHeaders(ctx) });
      return new Response(JSON.stringify(data) ?? 'null', {
        status: route.successStatus,
        headers: responseHeaders(ctx),
      });
    } catch (cause) {
      const response = fail(cause, route, input, ctx);
      return request.method === 'HEAD'
        ? new Response(null, { status: response.status, headers: response.headers })
        : response;
    }
  };
}

/** Each path parameter percent-decoded once; a malformed escape (e.g. `%E0%A4%A`) is a validation error. */
function decodePathParameters(raw: Record<string, string>): Record<string, string> | AppError {
  const decoded: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!value.includes('%')) {
      decoded[key] = value;
      continue;
    }
    try {
      decoded[key] = decodeURIComponent(value);
    } catch {
      return new AppError('validation_failed', `${key}: not a valid percent-encoded path segment.`);
    }
  }
  return decoded;
}

/** The query as trpc-to-openapi reads it: first value of a key alone, repeated keys as an array. */
function queryInput(url: URL): Record<string, unknown> {
  // Collected on a null-prototype object (`?__proto__=x` must not touch a prototype), then
  // copied onto a plain one as trpc-to-openapi's getQuery does.
  const grouped: Record<string, string[]> = Object.create(null);
  for (const [key, value] of url.searchParams) {
    grouped[key] ??= [];
    grouped[key].push(value);
  }
  const query: Record<string, unknown> = {};
  for (const key of Object.keys(grouped)) {
    const values = grouped[key]!;
    query[key] = values.length === 1 ? values[0] : values;
  }
  return query;
}
