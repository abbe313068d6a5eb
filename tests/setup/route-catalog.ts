// Every REST route, read at test time from the OpenAPI document the server serves (x-auth,
// x-unbuilt, parameters, body schema) and cross-checked against the tRPC router, so the
// security, fuzzing and canary suites cover a route the moment it is mounted, raw Hono routes
// documented by hand (the calendar feed) included.
import { listProcedures as listRouterProcedures } from '../../server/trpc/trpc-internals.js';
import { buildSdkDocument } from '../../client-sdk/scripts/openapi-source.js';
import { appRouter } from '../../server/composition.js';
import type { AuthLevel, RouteMeta } from '../../server/trpc/init.js';

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  nullable?: boolean;
  [key: string]: unknown;
};

export interface ParamSpec {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface CatalogRoute {
  /** "METHOD /api/path/{param}": the key of the authorization table. */
  key: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  auth: AuthLevel;
  unbuilt: boolean;
  /**
   * The route may answer 501 `not_implemented`: unbuilt, or built but declaring 501 for a
   * feature this deployment has not configured (e.g. Sign in with Apple without a client id).
   */
  mayBeUnconfigured: boolean;
  successStatus: number;
  pathParams: ParamSpec[];
  queryParams: ParamSpec[];
  /** JSON body schema (refs resolved at the top level); null for GET/DELETE. */
  body: JsonSchema | null;
  /** True when the method changes state (used for the "database unchanged" check). */
  write: boolean;
  /**
   * Where the route answers: a route some tRPC procedure serves answers on both; a raw Hono
   * route (the .ics and Atom feeds, the ActivityPub inboxes, whatever their content type) on
   * REST only.
   */
  surfaces: ('rest' | 'trpc')[];
  /** The success answer is JSON (application/json). */
  json: boolean;
}

/** The document exactly as GET /api/openapi.json serves it (built through createApp, no database). */
export function servedDocument() {
  return buildSdkDocument();
}

/** Any OpenAPI 3 document (the generated one or a parsed JSON copy). */
export type OpenApiLike = object;
interface OpenApiShape {
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown> };
}

/** Follows $ref (and allOf with a single member) until a concrete schema. */
export function resolveSchema(doc: OpenApiLike, schema: JsonSchema | undefined): JsonSchema {
  let current: JsonSchema = schema ?? {};
  for (let depth = 0; depth < 20; depth++) {
    if (current.$ref) {
      const name = current.$ref.replace('#/components/schemas/', '');
      current = ((doc as OpenApiShape).components?.schemas?.[name] as JsonSchema | undefined) ?? {};
      continue;
    }
    if (current.allOf?.length === 1 && !current.type && !current.properties) {
      current = current.allOf[0]!;
      continue;
    }
    return current;
  }
  return current;
}

export function listRoutes(doc: OpenApiLike): CatalogRoute[] {
  const routes: CatalogRoute[] = [];
  for (const [path, item] of Object.entries((doc as OpenApiShape).paths ?? {})) {
    for (const [lower, raw] of Object.entries(item)) {
      const op = raw as {
        'x-auth'?: AuthLevel;
        'x-unbuilt'?: boolean;
        parameters?: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        responses?: Record<string, { content?: Record<string, unknown> }>;
      };
      if (!op || typeof op !== 'object' || !op.responses) continue;
      const method = lower.toUpperCase() as CatalogRoute['method'];
      const params = (op.parameters ?? []).map((p) => ({
        in: p.in,
        name: p.name,
        required: Boolean(p.required),
        schema: resolveSchema(doc, p.schema),
      }));
      const success =
        Object.keys(op.responses)
          .map(Number)
          .find((s) => s >= 200 && s < 300) ?? 200;
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const successTypes = Object.keys(op.responses[String(success)]?.content ?? { 'application/json': {} });
      routes.push({
        key: `${method} ${path}`,
        method,
        path,
        auth: op['x-auth'] ?? 'public',
        unbuilt: op['x-unbuilt'] === true,
        mayBeUnconfigured: op['x-unbuilt'] === true || '501' in op.responses,
        successStatus: success,
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        body: bodySchema
          ? resolveSchema(doc, bodySchema)
          : method === 'GET' || method === 'DELETE'
            ? null
            : { type: 'object', properties: {} },
        write: method !== 'GET',
        surfaces: proceduresByRoute().has(`${method} ${path}`) ? ['rest', 'trpc'] : ['rest'],
        json: successTypes.includes('application/json'),
      });
    }
  }
  return routes.sort((a, b) => a.key.localeCompare(b.key));
}

export interface ProcedureInfo {
  path: string;
  type: 'query' | 'mutation' | 'subscription';
  meta: RouteMeta | undefined;
}

/** Every procedure of the tRPC router (including those without a REST path). */
let procedureRoutes: Set<string> | undefined;
/** `METHOD /path` of every procedure with a REST path. */
function proceduresByRoute(): Set<string> {
  procedureRoutes ??= new Set(
    listProcedures().flatMap((p) => (p.meta?.openapi ? [`${p.meta.openapi.method} ${p.meta.openapi.path}`] : [])),
  );
  return procedureRoutes;
}

export function listProcedures(): ProcedureInfo[] {
  return listRouterProcedures(appRouter).map(({ path, type, meta }) => ({ path, type, meta }));
}

/** Fills `{param}` segments, percent-encoding each value. */
export function fillPath(path: string, params: Record<string, unknown>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeSegment(String(params[name] ?? '')));
}

/** encodeURIComponent, except that a lone surrogate becomes its (invalid UTF-8) bytes instead of throwing. */
function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return Array.from(value, (ch) => {
      try {
        return encodeURIComponent(ch);
      } catch {
        return `%${[0xed, 0xa0 | ((ch.charCodeAt(0) >> 6) & 0x0f), 0x80 | (ch.charCodeAt(0) & 0x3f)].map((b) => b.toString(16).toUpperCase()).join('%')}`;
      }
    }).join('');
  }
}

/** Path plus query string; arrays repeat the key, objects are JSON-encoded, undefined is dropped. */
export function buildUrl(path: string, params: Record<string, unknown>, query: Record<string, unknown> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) search.append(key, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
  }
  const qs = search.toString();
  return fillPath(path, params) + (qs ? `?${qs}` : '');
}
