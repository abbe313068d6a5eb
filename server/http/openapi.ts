// The OpenAPI 3 document, generated from the router at boot (so a broken route definition
// fails startup and a test), then patched where trpc-to-openapi cannot express our rules:
// success statuses other than 200, and the error envelope on every error response.
import { generateOpenApiDocument, type OpenAPIObject, type OpenApiRouter } from 'trpc-to-openapi';
import { errorStatus } from '../errors.js';
import type { RouteMeta } from '../trpc/init.js';
import { listProcedures } from './trpc-internals.js';

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
      },
    },
  },
} as const;

const description = `REST interface of the Community Activism Service. Every path also exists as a tRPC procedure at \`/trpc\` for the typed client.

**Authentication.** Send \`Authorization: Bearer <token>\` with the token from register, login or magic-link verify. Tokens are opaque and looked up on every request; a token that was sent but is expired or revoked answers 401 even on public routes. Tokens in the query string are ignored.

**Lists.** Every list answers \`{ items, nextCursor }\`, ordered by \`_id\`. Pass \`nextCursor\` back as \`cursor\` for the next page; \`null\` means the last page. \`limit\` is 1–100, default 20. A malformed cursor answers 400 \`invalid_cursor\`.

**Errors.** Every error answers \`{ error: { code, message } }\`:

| code | status |
|---|---|
${Object.entries(errorStatus)
  .map(([code, status]) => `| \`${code}\` | ${status} |`)
  .join('\n')}

Routes marked *not implemented* validate their input and their caller, then answer 501 \`not_implemented\` until their milestone.`;

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

  const metaByOperation = new Map<string, RouteMeta>();
  for (const { meta } of listProcedures(router)) {
    if (meta?.openapi) metaByOperation.set(`${meta.openapi.method} ${meta.openapi.path}`, meta);
  }

  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(
      item as Record<string, { responses?: Record<string, unknown>; 'x-auth'?: string }>,
    )) {
      const meta = metaByOperation.get(`${method.toUpperCase()} ${path}`);
      if (!operation?.responses || !meta) continue;
      operation['x-auth'] = meta.auth ?? 'public';
      if (meta.unbuilt) {
        (operation as Record<string, unknown>)['x-unbuilt'] = true;
        operation.responses['501'] = {
          description: 'Not implemented yet (`not_implemented`), after auth and validation pass.',
        };
      }
      if (meta.successStatus && operation.responses['200']) {
        operation.responses[String(meta.successStatus)] = operation.responses['200'];
        delete operation.responses['200'];
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) >= 400 || status === 'default') {
          const desc = (response as { description?: string }).description ?? 'Error';
          operation.responses[status] = {
            description: desc,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
          };
        }
      }
    }
  }
  return doc;
}
