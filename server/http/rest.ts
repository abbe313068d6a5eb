// The /api REST surface: every procedure with meta.openapi, mapped to its path the way
// trpc-to-openapi maps it (its utilities build the route table once at startup), and called
// directly; a small adapter normalises the request (body, content type, method) and rewrites
// every error into the spec's envelope `{ error: { code, message } }`.
import {
  coerceSchema,
  forEachOpenApiProcedure,
  getInputOutputParsers,
  getPathRegExp,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  instanceofZodTypeOptional,
  normalizePath,
  unwrapZodType,
  zodSupportsCoerce,
  type OpenApiRouter,
} from 'trpc-to-openapi';
import { TRPCError, getTRPCErrorFromUnknown, type AnyProcedure } from '@trpc/server';
import { getErrorShape } from '@trpc/server/unstable-core-do-not-import';
import { ZodArray } from 'zod/v4';
import { AppError, errorBody, type ErrorBody } from '../errors.js';
import type { Context } from '../trpc/context.js';
import { pinBodyCoercion } from './coercion.js';
import { describeError } from '../trpc/errors.js';
import type { RouteMeta } from '../trpc/init.js';

interface RouteEntry {
  method: string;
  pattern: RegExp;
  procedurePath: string;
  successStatus: number;
}

export type RestHandler = (request: Request, ctx: Context) => Promise<Response>;

/** Every REST route, read from the router's meta, in declaration order. */
export function listRestRoutes(router: OpenApiRouter): RouteEntry[] {
  return buildRoutes(router).map(({ method, pattern, procedurePath, successStatus }) => ({
    method,
    pattern,
    procedurePath,
    successStatus,
  }));
}

class RequestError extends AppError {}

/** Reads at most maxBytes, stopping as soon as a chunked body goes over (never buffers more). */
async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new RequestError('payload_too_large', `The body may be at most ${maxBytes} bytes.`);
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const bytes = await readCapped(request, maxBytes);
  if (bytes.byteLength === 0) return {};
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new RequestError('unsupported_media_type', 'Send the body as application/json.');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new RequestError('validation_failed', 'The body is not valid JSON.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new RequestError('validation_failed', 'The body must be a JSON object.');
  }
  return parsed;
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

export function errorResponse(error: AppError): Response {
  return jsonResponse(error.status, errorBody(error.code, error.message), error.headers);
}

/**
 * One route as the dispatcher needs it, built once: trpc-to-openapi's own pieces (path regex,
 * input parser, coercion) so the mapping is the same as its handler's, without redoing the
 * lookups, schema merges and caller proxies of createOpenApiNodeHttpHandler on every request.
 */
interface Route extends RouteEntry {
  /** The normalised OpenAPI path, e.g. /api/places/{id}. */
  template: string;
  procedure: AnyProcedure;
  type: AnyProcedure['_def']['type'];
  /** Input parser unwrapped as trpc-to-openapi does; null for a void-like input (no input at all). */
  inputSchema: unknown;
  /** Query keys whose schema is an array: a single value is wrapped, as trpc-to-openapi does. */
  arrayKeys: string[];
  /** coerceSchema() has run (it is idempotent: it only sets flags, which stay set). */
  coerced: boolean;
}

function buildRoutes(router: OpenApiRouter): Route[] {
  const routes: Route[] = [];
  forEachOpenApiProcedure(router._def.procedures, ({ path, procedure, meta }) => {
    const m = meta as RouteMeta & { openapi: NonNullable<RouteMeta['openapi']> };
    const proc = procedure as unknown as AnyProcedure;
    const inputSchema = unwrapZodType(getInputOutputParsers(proc as never).inputParser as never, true) as {
      shape?: Record<string, unknown>;
    };
    const arrayKeys: string[] = [];
    if (instanceofZodTypeObject(inputSchema as never)) {
      for (const [key, shape] of Object.entries(inputSchema.shape ?? {})) {
        if (
          shape instanceof ZodArray ||
          (instanceofZodTypeOptional(shape as never) &&
            (shape as { unwrap: () => unknown }).unwrap() instanceof ZodArray)
        )
          arrayKeys.push(key);
      }
    }
    const template = normalizePath(m.openapi.path);
    routes.push({
      method: m.openapi.method,
      template,
      pattern: getPathRegExp(template),
      procedurePath: path,
      successStatus: m.successStatus ?? 200,
      procedure: proc,
      type: proc._def.type,
      inputSchema: instanceofZodTypeLikeVoid(inputSchema as never) ? null : inputSchema,
      arrayKeys,
      coerced: false,
    });
  });
  return routes;
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
  },
): RestHandler {
  pinBodyCoercion(router);
  const routes = buildRoutes(router);
  const candidatesFor = routeIndex(routes);
  const errorConfig = router._def._config;

  /** What trpc-to-openapi's handler did with a thrown error: log it if unexpected, answer the envelope. */
  const fail = (cause: unknown, route: Route | undefined, input: unknown, ctx: Context | undefined): Response => {
    const error = getTRPCErrorFromUnknown(cause);
    const described = describeError(error);
    if (described.unexpected) options.onUnexpected(ctx, error);
    const shape = getErrorShape({
      config: errorConfig,
      error,
      type: route?.type ?? 'unknown',
      path: route?.procedurePath,
      input,
      ctx,
    }) as { data?: { code?: string; message?: string } };
    // trpc-to-openapi overwrites the shape's message for input errors; ours is kept in data.
    const envelope: ErrorBody = {
      error: {
        code: shape.data?.code ?? 'internal_error',
        message: shape.data?.message ?? 'Something went wrong on our side.',
      },
    };
    return jsonResponse(
      described.status,
      envelope as never,
      ctx ? { ...responseHeaders(ctx), ...described.headers } : described.headers,
    );
  };

  return async (request, ctx) => {
    const url = new URL(request.url);
    const path = normalizePath(url.pathname);
    // HEAD is GET without a body.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    let route: Route | undefined;
    let pathInput: Record<string, string> = {};
    let anyMatch = false;
    let allow: Set<string> | undefined;
    for (const r of candidatesFor(path)) {
      const match = r.pattern.exec(path);
      if (!match) continue;
      anyMatch = true;
      if (r.method === method) {
        route = r;
        pathInput = match.groups ?? {};
        break;
      }
      allow ??= new Set();
      allow.add(r.method);
    }
    if (route) options.onRoute?.(ctx, route.template);
    // Every answer from here carries responseHeaders(ctx): the app middleware leaves /api alone.
    const refuse = (error: AppError) =>
      jsonResponse(error.status, errorBody(error.code, error.message), { ...responseHeaders(ctx), ...error.headers });
    if (!anyMatch) return refuse(new AppError('not_found', `No route ${request.method} ${url.pathname}.`));
    if (!route) {
      const allowed = [...allow!].join(', ');
      return refuse(
        new AppError('method_not_allowed', `${request.method} is not allowed here; use ${allowed}.`, {
          Allow: allowed,
        }),
      );
    }

    const useBody = method !== 'GET' && method !== 'DELETE';
    let body: unknown;
    try {
      body = useBody ? await readJsonBody(request, options.maxBodyBytes) : undefined;
    } catch (error) {
      if (error instanceof AppError) return refuse(error);
      throw error;
    }

    let input: Record<string, unknown> | undefined;
    try {
      if (route.type === 'subscription') throw new TRPCError({ code: 'NOT_FOUND', message: 'Not found' });
      if (route.inputSchema !== null) input = { ...(useBody ? (body as object) : queryInput(url)), ...pathInput };
      if (zodSupportsCoerce && input && instanceofZodTypeObject(route.inputSchema as never)) {
        if (!useBody) {
          for (const key of route.arrayKeys)
            if (input[key] !== undefined && !Array.isArray(input[key])) input[key] = [input[key]];
        }
        if (!route.coerced) {
          coerceSchema(route.inputSchema as never);
          route.coerced = true;
        }
      }
      // What router.createCaller(ctx)[path](input) does, without building the caller's proxy.
      const data: unknown = await route.procedure({
        path: route.procedurePath,
        getRawInput: async () => input,
        ctx,
        type: route.type,
        signal: undefined,
        batchIndex: 0,
      });
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
