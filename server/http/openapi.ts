// The OpenAPI 3 document, generated from the router at boot (so a broken route definition
// fails startup and a test), then completed where trpc-to-openapi cannot express our rules:
// success statuses other than 200, every error status a route can answer (with the error
// envelope), who may send a token, what a request body rejects, and a body example.
//
// How a route's error answers are declared (`declaredErrorCodes`): most follow from what the
// route is, so they are derived here and nobody lists them: 400 when it takes input, 401
// unless it is a sign-in route (which ignores the Authorization header), 403 on admin and organizer routes,
// 404 when the path has a parameter, 413 and 415 when it reads a body, 500 and 503 always,
// 501 when unbuilt, 429 when it has a per-member `writeLimit`. Anything else a route answers (409 `conflict`, 429 `rate_limited`, 401
// `invalid_credentials`, 403 on a member route, 404 without a path parameter) is listed in
// its meta, `errors: [...]`, next to its definition. tests/contract/ fails when the suite
// sees an answer that the document does not declare.
import { generateOpenApiDocument, type OpenAPIObject, type OpenApiRouter } from 'trpc-to-openapi';
import { z } from 'zod';
import { type ErrorCode, errorStatus } from '../errors.js';
import type { RouteMeta } from '../trpc/init.js';
import { signInProcedure } from '../trpc/procedures.js';
import { honoursIdempotencyKey, idempotencyKeyParameter } from '../lib/idempotency.js';
import { NO_NUL_PATTERN } from '../shared/patterns.js';
import { firstMiddlewareOf, listProcedures } from '../trpc/trpc-internals.js';

const envelopeRef = { $ref: '#/components/schemas/ErrorEnvelope' } as const;

const errorEnvelopeSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: {
          type: 'string',
          enum: Object.keys(errorStatus),
          description: 'Stable machine-readable code; see the table in the description of this document.',
        },
        message: { type: 'string', description: 'Human-readable explanation; may change.' },
        details: {
          type: 'array',
          description:
            "On `validation_failed` only: every failing field (up to 50). `path` is dotted (`location.lat`); an empty path means the request as a whole. For an input that failed its schema, `issue` is the validator's issue code and, by code, `origin` with `minimum` (`too_small`) or `maximum` (`too_big`), or `format` (`invalid_format`): word the reason from these rather than from the English `message`.",
          items: {
            type: 'object',
            required: ['path', 'message'],
            properties: {
              path: { type: 'string' },
              message: { type: 'string' },
              issue: {
                type: 'string',
                description:
                  'The issue code: `too_small`, `too_big`, `invalid_format`, `invalid_type`, `invalid_value`, `unrecognized_keys`, `custom`… Absent on a refusal the service raised itself.',
              },
              origin: {
                type: 'string',
                description:
                  '`too_small`/`too_big`: what was measured: `string` (characters), `array` (items), `number`, `int`…',
              },
              minimum: { type: 'number', description: '`too_small`: the least allowed (characters, items or value).' },
              maximum: { type: 'number', description: '`too_big`: the most allowed.' },
              format: { type: 'string', description: '`invalid_format`: `email`, `datetime`, `regex`, `url`, `uuid`…' },
            },
          },
        },
      },
    },
  },
  example: {
    error: {
      code: 'validation_failed',
      message: 'email: Must be a valid email address.',
      details: [{ path: 'email', message: 'Must be a valid email address.', issue: 'invalid_format', format: 'email' }],
    },
  },
} as const;

const description = `REST interface of the Community Activism Service. Every path also exists as a tRPC procedure at \`/trpc\` for the typed client.

**Authentication.** Send \`Authorization: Bearer <token>\` with the token from register, login or magic-link verify. Tokens are opaque and looked up on every request; a token that was sent but is expired or revoked answers 401 even on public routes (the sign-in routes ignore the header). Tokens in the query string are ignored.

**Lists.** Every list answers \`{ items, nextCursor }\`, ordered by \`_id\` unless its description says otherwise (events: by start time). Pass \`nextCursor\` back as \`cursor\` for the next page; \`null\` means the last page. \`limit\` is 1–100, default 20. A malformed cursor answers 400 \`invalid_cursor\`.

**Errors.** Every error answers \`{ error: { code, message } }\`; \`validation_failed\` adds \`details: [{ path, message }]\`, one entry per failing field. Each operation declares every status it can answer:

| code | status |
|---|---|
${Object.entries(errorStatus)
  .map(([code, status]) => `| \`${code}\` | ${status} |`)
  .join('\n')}

\`method_not_allowed\` (405, with \`Allow\`) answers a method a path does not have, so it is not declared per operation.

Routes marked *not implemented* validate their input and their caller, then answer 501 \`not_implemented\` until their milestone.`;

/** Why each status is declared, in the response's description. */
const statusWhy: Record<number, string> = {
  400: 'The input is not valid',
  401: 'Not signed in, or the token is invalid, expired or revoked',
  403: 'Not allowed',
  404: 'Not found, or not visible to the caller',
  409: 'Conflicts with the current state',
  413: 'The body is too large (MAX_BODY_BYTES)',
  415: 'The body is not application/json',
  429: 'Too many requests; retry after `Retry-After` seconds',
  500: 'Unexpected error',
  501: 'Not implemented yet (after auth and validation pass)',
  503: 'Temporarily unavailable (database unreachable or request deadline); retry after `Retry-After` seconds',
};

interface RouteFacts {
  meta: RouteMeta;
  input: z.ZodType | undefined;
  signIn: boolean;
}

/** Methods whose body the REST adapter reads (server/http/rest.ts): they can answer 413/415. */
const readsBody = (method: string) => method !== 'get' && method !== 'delete';

function inputKeys(input: z.ZodType | undefined): string[] {
  return input instanceof z.ZodObject ? Object.keys(input.shape) : [];
}

/** Member and admin creates honour `Idempotency-Key` (server/lib/idempotency.ts). */
const takesIdempotencyKey = (meta: RouteMeta) =>
  meta.auth !== undefined && meta.auth !== 'public' && honoursIdempotencyKey(meta);

/** Every error code the operation can answer (see the header of this file). */
export function declaredErrorCodes(method: string, path: string, route: RouteFacts): Set<ErrorCode> {
  const codes = new Set<ErrorCode>(route.meta.errors ?? []);
  const keys = inputKeys(route.input);
  if (keys.length > 0 || readsBody(method)) codes.add('validation_failed');
  if (keys.includes('cursor')) codes.add('invalid_cursor');
  if (!route.signIn) codes.add('unauthorized');
  // Admin routes, and organizer routes (the service checks the host: 403 for a member who is not one).
  // REQUIRE_2FA_FOR gates them too (403 `second_factor_enrollment_required` until enrolled).
  if (route.meta.auth === 'admin' || route.meta.auth === 'organizer') {
    codes.add('forbidden');
    codes.add('second_factor_enrollment_required');
  }
  // Per-member write limits (server/trpc/procedures.ts) answer 429 past their window.
  if (route.meta.writeLimit) codes.add('rate_limited');
  // The same Idempotency-Key with another body answers 409 (server/lib/idempotency.ts).
  if (takesIdempotencyKey(route.meta)) codes.add('conflict');
  if (path.includes('{')) codes.add('not_found');
  if (readsBody(method)) {
    codes.add('payload_too_large');
    codes.add('unsupported_media_type');
  }
  codes.add('internal_error');
  codes.add('unavailable');
  if (route.meta.unbuilt) codes.add('not_implemented');
  return codes;
}

function errorResponses(codes: Set<ErrorCode>): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
  const responses: Record<string, unknown> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const names = byStatus.get(status)!.map((code) => `\`${code}\``);
    responses[String(status)] = {
      description: `${statusWhy[status] ?? 'Error'}: ${names.join(', ')}.`,
      ...(status === 429 || status === 503
        ? { headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } } }
        : {}),
      content: { 'application/json': { schema: envelopeRef } },
    };
  }
  return responses;
}

/** JSON Schema keywords an input's meta may carry to state cross-field rules (oneOf, minProperties…). */
const crossFieldKeywords = ['oneOf', 'anyOf', 'allOf', 'not', 'minProperties', 'dependentRequired'] as const;

interface BodyMedia {
  schema?: Record<string, unknown>;
  example?: unknown;
}

/**
 * What trpc-to-openapi loses when it rebuilds the body schema without the path parameters:
 * `additionalProperties: false` of a strict input, its cross-field rules and its example
 * (the input's meta `examples[0]`, path parameters removed).
 */
function completeRequestBody(media: BodyMedia, input: z.ZodType | undefined, pathParams: string[]) {
  if (!(input instanceof z.ZodObject) || !media.schema) return;
  const schema = media.schema;
  const catchall = (input._zod.def as { catchall?: z.ZodType }).catchall;
  if (catchall instanceof z.ZodNever) schema.additionalProperties = false;
  const meta = (input.meta() ?? {}) as Record<string, unknown>;
  for (const keyword of crossFieldKeywords) if (meta[keyword] !== undefined) schema[keyword] = meta[keyword];
  if (typeof meta.description === 'string') schema.description = meta.description;
  delete schema.examples;
  const example = (meta.examples as unknown[] | undefined)?.[0];
  if (example && typeof example === 'object') {
    media.example = Object.fromEntries(Object.entries(example).filter(([key]) => !pathParams.includes(key)));
  }
}

/**
 * Declares on every request string without a pattern, format or fixed values that it may not
 * hold a NUL character: the server refuses one wherever a string reaches the database
 * (PostgreSQL text cannot store it), so a generated client must never send one. `$ref`s are
 * not followed: request schemas are inline.
 */
function declareNoNul(schema: unknown): void {
  if (schema === null || typeof schema !== 'object') return;
  const node = schema as Record<string, unknown>;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const fixed = node.enum !== undefined || node.const !== undefined || node.format !== undefined;
  if (types.includes('string') && node.pattern === undefined && !fixed) node.pattern = NO_NUL_PATTERN;
  for (const key of ['items', 'additionalProperties'] as const) declareNoNul(node[key]);
  for (const key of ['properties'] as const)
    for (const child of Object.values((node[key] as Record<string, unknown> | undefined) ?? {})) declareNoNul(child);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const)
    for (const child of (node[key] as unknown[] | undefined) ?? []) declareNoNul(child);
}

interface Operation {
  requestBody?: { content?: Record<string, BodyMedia> };
  responses?: Record<string, unknown>;
  security?: unknown[];
  'x-auth'?: string;
  'x-unbuilt'?: boolean;
}

export function buildOpenApiDocument(
  router: OpenApiRouter,
  options: { baseUrl: string; version: string },
): OpenAPIObject {
  const doc = generateOpenApiDocument(router, {
    title: 'Community Activism Service API',
    version: options.version,
    description,
    baseUrl: options.baseUrl,
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Opaque session token.' } },
  });
  doc.components ??= {};
  // trpc-to-openapi's own error schemas (`error.BAD_REQUEST`, …) are replaced by ErrorEnvelope below.
  const schemas = Object.fromEntries(
    Object.entries(doc.components.schemas ?? {}).filter(([name]) => !name.startsWith('error.')),
  );
  doc.components.schemas = { ...schemas, ErrorEnvelope: errorEnvelopeSchema as never };
  // Default for operations without their own: a token is optional (public routes); member and
  // admin routes require one, sign-in routes ignore it (their own `security`).
  doc.security = [{}, { bearer: [] }];

  // A route built on signInProcedure starts with its guard: that is how a sign-in route is known
  // (no meta to forget; a new sign-in route is documented right by being one).
  const signInMiddleware = firstMiddlewareOf(signInProcedure);
  const facts = new Map<string, RouteFacts>();
  for (const procedure of listProcedures(router)) {
    const { meta } = procedure;
    if (!meta?.openapi) continue;
    facts.set(`${meta.openapi.method.toLowerCase()} ${meta.openapi.path}`, {
      meta,
      input: procedure.inputParser as z.ZodType | undefined,
      signIn: procedure.firstMiddleware === signInMiddleware,
    });
  }

  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, Operation>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const route = facts.get(`${method} ${path}`);
      if (!operation?.responses || !route) continue;
      const { meta } = route;
      operation['x-auth'] = meta.auth ?? 'public';
      if (meta.unbuilt) operation['x-unbuilt'] = true;
      // Sign-in routes ignore the token; public routes inherit the document's optional bearer.
      if (route.signIn) operation.security = [];
      const successStatus = String(meta.successStatus ?? 200);
      const success = operation.responses['200'];
      operation.responses = {
        [successStatus]: success,
        ...errorResponses(declaredErrorCodes(method, path, route)),
      };
      const media = operation.requestBody?.content?.['application/json'];
      const pathKeys = inputKeys(route.input).filter((key) => meta.openapi?.path.includes(`{${key}}`));
      if (media) completeRequestBody(media, route.input, pathKeys);
      declareNoNul(media?.schema);
      for (const parameter of (operation as { parameters?: { schema?: unknown }[] }).parameters ?? [])
        declareNoNul(parameter.schema);
      if (takesIdempotencyKey(meta)) {
        const withParameters = operation as { parameters?: unknown[] };
        withParameters.parameters = [...(withParameters.parameters ?? []), idempotencyKeyParameter];
      }
    }
  }
  return doc;
}
