// The /api REST surface: trpc-to-openapi's handler, built once at startup, behind a small
// adapter that normalises the request (body, content type, method) and rewrites every error
// into the spec's envelope `{ error: { code, message } }`.
import { getPathRegExp, normalizePath, forEachOpenApiProcedure, createOpenApiNodeHttpHandler, type OpenApiRouter } from 'trpc-to-openapi';
import type { TRPCError } from '@trpc/server';
import { AppError, errorBody, type ErrorBody } from '../errors.js';
import type { Context } from '../trpc/context.js';
import { pinBodyCoercion } from './coercion.js';
import { describeError } from '../trpc/errors.js';
import type { RouteMeta } from '../trpc/init.js';

const CONTEXT = Symbol('context');

interface RouteEntry {
  method: string;
  pattern: RegExp;
  procedurePath: string;
  successStatus: number;
}

export interface RestHandler {
  (request: Request, ctx: Context): Promise<Response>;
}

/** Every REST route, read from the router's meta; the adapter uses it for 404 vs 405. */
export function listRestRoutes(router: OpenApiRouter): RouteEntry[] {
  const routes: RouteEntry[] = [];
  forEachOpenApiProcedure(router._def.procedures, ({ path, meta }) => {
    const m = meta as RouteMeta & { openapi: NonNullable<RouteMeta['openapi']> };
    routes.push({
      method: m.openapi.method,
      pattern: getPathRegExp(normalizePath(m.openapi.path)),
      procedurePath: path,
      successStatus: m.successStatus ?? 200,
    });
  });
  return routes;
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

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

export function errorResponse(error: AppError): Response {
  return jsonResponse(error.status, errorBody(error.code, error.message), error.headers);
}

export function createRestHandler(router: OpenApiRouter, options: { maxBodyBytes: number; onUnexpected: (ctx: Context | undefined, error: TRPCError) => void }): RestHandler {
  pinBodyCoercion(router);
  const routes = listRestRoutes(router);
  const successStatus = new Map(routes.map((r) => [r.procedurePath, r.successStatus]));

  const handle = createOpenApiNodeHttpHandler({
    router,
    createContext: ({ req }: { req: unknown }) => (req as { [CONTEXT]: Context })[CONTEXT],
    responseMeta: ({ paths, errors }: { paths?: string[]; errors: TRPCError[] }) => {
      const error = errors[0];
      if (error) {
        const described = describeError(error);
        return { status: described.status, headers: described.headers };
      }
      return { status: successStatus.get(paths?.[0] ?? '') ?? 200 };
    },
    onError: ({ error, ctx }: { error: TRPCError; ctx?: Context }) => {
      if (describeError(error).unexpected) options.onUnexpected(ctx, error);
    },
  } as unknown as Parameters<typeof createOpenApiNodeHttpHandler>[0]);

  return async (request, ctx) => {
    const url = new URL(request.url);
    const path = normalizePath(url.pathname);
    // HEAD is GET without a body.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const candidates = routes.filter((r) => r.pattern.test(path));
    if (candidates.length === 0) return errorResponse(new AppError('not_found', `No route ${request.method} ${url.pathname}.`));
    if (!candidates.some((r) => r.method === method)) {
      const allow = [...new Set(candidates.map((r) => r.method))].join(', ');
      return errorResponse(new AppError('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, { Allow: allow }));
    }

    let body: unknown;
    try {
      body = method === 'GET' || method === 'DELETE' ? undefined : await readJsonBody(request, options.maxBodyBytes);
    } catch (error) {
      if (error instanceof AppError) return errorResponse(error);
      throw error;
    }

    // trpc-to-openapi reads `body` and the content type from the request it is given. An
    // empty POST is treated as `{}` so bodiless actions (logout, approve) need no header.
    const headers = new Headers(request.headers);
    if (body !== undefined) headers.set('content-type', 'application/json');
    const normalised = new Request(url, { method, headers, signal: request.signal });
    // The query as trpc-to-openapi expects it (arrays per key), on a null-prototype object: its
    // own parser uses `{}`, so `?__proto__=x` or `?constructor=x` crashed it (500).
    const query: Record<string, string[]> = Object.create(null);
    url.searchParams.forEach((value, key) => (query[key] ??= []).push(value));
    const proxied = new Proxy(normalised, {
      get(target, prop) {
        if (prop === 'body') return body;
        if (prop === 'query') return query;
        if (prop === CONTEXT) return ctx;
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });

    const response = await new Promise<Response>((resolve, reject) => {
      const responseHeaders = new Headers();
      let statusCode = 200;
      const res = {
        setHeader(key: string, value: string | string[]) {
          if (typeof value === 'string') responseHeaders.set(key, value);
          else for (const v of value) responseHeaders.append(key, v);
        },
        get statusCode() {
          return statusCode;
        },
        set statusCode(code: number) {
          statusCode = code;
        },
        end(payload?: string) {
          resolve(finish(statusCode, responseHeaders, payload));
        },
      };
      (handle as unknown as (req: unknown, res: unknown) => Promise<void>)(proxied, res).catch(reject);
    });
    return request.method === 'HEAD' ? new Response(null, { status: response.status, headers: response.headers }) : response;
  };
}

/** Success bodies pass through; error bodies become the envelope. */
function finish(status: number, headers: Headers, payload: string | undefined): Response {
  headers.set('content-type', 'application/json; charset=utf-8');
  if (status < 400) return new Response(payload ?? 'null', { status, headers });
  let envelope: ErrorBody;
  try {
    // trpc-to-openapi overwrites the shape's message for input errors; ours is kept in data.
    const shape = JSON.parse(payload ?? '{}') as { data?: { code?: string; message?: string } };
    envelope = { error: { code: shape.data?.code ?? 'internal_error', message: shape.data?.message ?? 'Something went wrong on our side.' } };
  } catch {
    envelope = errorBody('internal_error');
  }
  return new Response(JSON.stringify(envelope), { status, headers });
}
