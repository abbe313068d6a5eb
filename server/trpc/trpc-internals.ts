// The one place that touches tRPC's and trpc-to-openapi's internals. The REST dispatcher
// (server/http/rest.ts) calls procedures directly instead of running trpc-to-openapi's per-request handler
// (bench/README.md has why), which needs a few things neither library promises to keep:
//   - `@trpc/server/unstable-core-do-not-import`'s getErrorShape (the error formatter's output)
//     and middlewareMarker (a middleware answering without next(): Idempotency-Key replays);
//   - a procedure's middleware chain (`_def.middlewares[0]` tells a sign-in route apart);
//   - router internals: `router._def.procedures`, `router._def._config`, `procedure._def.type`,
//     `procedure._def.meta`, and calling a procedure as `procedure({ path, getRawInput, ctx,
//     type, signal, batchIndex })` (what createCaller does, without its proxy);
//   - trpc-to-openapi's route utilities (normalizePath, getPathRegExp, getInputOutputParsers,
//     unwrapZodType, forEachOpenApiProcedure and the zod kind checks).
// The versions they were checked against are pinned exactly in package.json and below;
// tests/http/trpc-internals.test.ts fails on an upgrade until every item above is re-checked.
// It lives beside the procedures (their Idempotency-Key replay needs middlewareMarker), so the
// HTTP plumbing depends on server/trpc and never the other way round.
import { getTRPCErrorFromUnknown, type AnyProcedure, type TRPCError } from '@trpc/server';
import { getErrorShape, middlewareMarker } from '@trpc/server/unstable-core-do-not-import';
import {
  forEachOpenApiProcedure,
  getInputOutputParsers,
  getPathRegExp,
  instanceofZodTypeCoercible,
  instanceofZodTypeLikeString,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  instanceofZodTypeOptional,
  normalizePath,
  unwrapZodType,
  type OpenApiRouter,
} from 'trpc-to-openapi';
import type { ErrorDetail } from '../errors.js';
import type { RouteMeta } from './init.js';

/** The exact versions whose internals this module was written against (package.json pins them). */
export const PINNED_VERSIONS = {
  '@trpc/server': '11.25.2',
  '@trpc/client': '11.25.2',
  'trpc-to-openapi': '3.3.0',
} as const;

export { getTRPCErrorFromUnknown, normalizePath };
export type { AnyProcedure, OpenApiRouter };
export type ProcedureType = AnyProcedure['_def']['type'];

export interface ProcedureFacts {
  path: string;
  type: ProcedureType;
  meta?: RouteMeta;
  /** The merged input parser (a zod schema), or undefined for a procedure without input. */
  inputParser: unknown;
  /** The first middleware of its chain: tells which procedure level it was built on. */
  firstMiddleware: unknown;
}

/** The dotted tRPC paths of every procedure of a router (the access log and the metrics name no other). */
export function procedurePaths(router: OpenApiRouter): string[] {
  return Object.keys(router._def.procedures);
}

/** Every procedure of a router (REST-mapped or not), flattened to its dotted tRPC path. */
export function listProcedures(router: OpenApiRouter): ProcedureFacts[] {
  const procedures = router._def.procedures as Record<string, AnyProcedure>;
  return Object.entries(procedures).map(([path, procedure]) => ({
    path,
    type: procedure._def.type,
    meta: procedure._def.meta as RouteMeta | undefined,
    inputParser: getInputOutputParsers(procedure as never).inputParser,
    firstMiddleware: (procedure._def as unknown as { middlewares: unknown[] }).middlewares[0],
  }));
}

/** The first middleware of a procedure builder (compare with ProcedureFacts.firstMiddleware). */
export function firstMiddlewareOf(builder: object): unknown {
  return (builder as { _def: { middlewares: unknown[] } })._def.middlewares[0];
}

/**
 * What a middleware returns for a call it answers itself without calling `next()` (an
 * Idempotency-Key replay): tRPC's own success result shape, marker included.
 */
export function middlewareSuccess<T>(data: unknown, ctx: unknown): T {
  return { marker: middlewareMarker, ok: true, data, ctx } as T;
}

/** A REST-mapped procedure with what the dispatcher needs from it, computed once at startup. */
export interface RestProcedure {
  path: string;
  procedure: AnyProcedure;
  type: ProcedureType;
  meta: RouteMeta & { openapi: NonNullable<RouteMeta['openapi']> };
  /** The merged input schema unwrapped as trpc-to-openapi does; null for a void-like input. */
  inputSchema: unknown;
}

/** Every procedure with meta.openapi, in declaration order. */
export function listRestProcedures(router: OpenApiRouter): RestProcedure[] {
  const result: RestProcedure[] = [];
  forEachOpenApiProcedure(router._def.procedures, ({ path, procedure, meta }) => {
    const proc = procedure as unknown as AnyProcedure;
    const inputSchema = unwrapZodType(getInputOutputParsers(proc as never).inputParser as never, true);
    result.push({
      path,
      procedure: proc,
      type: proc._def.type,
      meta: meta as RestProcedure['meta'],
      inputSchema: instanceofZodTypeLikeVoid(inputSchema as never) ? null : inputSchema,
    });
  });
  return result;
}

/** The fields of an object input schema, or null when the input is not an object. */
export function objectShape(schema: unknown): Record<string, unknown> | null {
  if (!instanceofZodTypeObject(schema as never)) return null;
  return (schema as { shape: Record<string, unknown> }).shape;
}

/** True when a field's schema (optional or not) is an array: a single query value is then wrapped. */
export function isArrayField(field: unknown): boolean {
  const isArray = (s: unknown) => (s as { _zod?: { def?: { type?: string } } })?._zod?.def?.type === 'array';
  return (
    isArray(field) || (instanceofZodTypeOptional(field as never) && isArray((field as { unwrap(): unknown }).unwrap()))
  );
}

/**
 * How a query-string or path field turns the string it receives into its value. "string": it
 * takes strings (strings, enums, pipes such as z.stringbool()); "coerced": a z.coerce.* field;
 * "uncoerced": a plain number/boolean/bigint/date, which would reject every query string.
 */
export function stringFieldKind(field: unknown): 'string' | 'coerced' | 'uncoerced' | 'unsupported' {
  if (instanceofZodTypeLikeString(field as never)) return 'string';
  if (!instanceofZodTypeCoercible(field as never)) return 'unsupported';
  const inner = unwrapZodType(field as never, false) as { _zod: { def: { coerce?: boolean } } };
  return inner._zod.def.coerce ? 'coerced' : 'uncoerced';
}

/** `/api/places/{id}` → its template (normalised) and trpc-to-openapi's regex (a group per parameter). */
export function compilePath(path: string): { template: string; pattern: RegExp } {
  const template = normalizePath(path);
  return { template, pattern: getPathRegExp(template) };
}

/** What `router.createCaller(ctx)[path](input)` does, without building the caller's proxy. */
export function callProcedure(route: RestProcedure, ctx: unknown, input: unknown): Promise<unknown> {
  return route.procedure({
    path: route.path,
    getRawInput: async () => input,
    ctx,
    type: route.type,
    signal: undefined,
    batchIndex: 0,
  }) as Promise<unknown>;
}

/** The router's error formatter applied to an error, as tRPC's own handlers apply it. */
export function errorShaper(router: OpenApiRouter) {
  const config = router._def._config;
  return (
    error: TRPCError,
    at: { type: ProcedureType | 'unknown'; path: string | undefined; input: unknown; ctx: unknown },
  ): { data?: { code?: string; message?: string; details?: ErrorDetail[] } } =>
    getErrorShape({ config, error, type: at.type, path: at.path, input: at.input, ctx: at.ctx as never }) as {
      data?: { code?: string; message?: string; details?: ErrorDetail[] };
    };
}
