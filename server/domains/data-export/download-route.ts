// GET /api/me/export/download?token=…: the archive as application/zip, a raw Hono route (tRPC
// speaks JSON only). It calls the `claim` procedure through createCaller, so the member gate
// (a live session: 401 otherwise) and the validation are the procedure's; a token that is not
// the caller's live one answers 404, whoever sends it. The claim deletes the archive in the
// transaction that reads it: the link works once. Mounted before the REST adapter;
// documentExportDownload adds it to the OpenAPI document.
import type { Env, Hono, Context as HonoContext } from 'hono';
import type { OpenAPIObject } from 'trpc-to-openapi';
import { routeErrorAnswer } from '../../http/rest.js';
import { createCallerFactory } from '../../trpc/init.js';
import type { Context } from '../../trpc/context.js';
import { downloadRouter } from './router.js';
import { archiveFileName, DOWNLOAD_PATH } from './service.js';

const createCaller = createCallerFactory(downloadRouter);

export function mountExportDownload<E extends Env>(app: Hono<E>, contextFor: (c: HonoContext<E>) => Context) {
  app.get(DOWNLOAD_PATH, async (c) => {
    const ctx = contextFor(c);
    const tokens = new URL(c.req.url).searchParams.getAll('token');
    try {
      // A repeated key reaches the schema as an array: 400, as on the REST adapter.
      const { archive, requestedAt } = await createCaller(ctx).claim({
        token: (tokens.length === 1 ? tokens[0] : tokens.length === 0 ? undefined : tokens) as string,
      });
      return c.body(archive as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="${archiveFileName(requestedAt)}"`,
        'Content-Length': String(archive.byteLength),
        'Cache-Control': 'no-store',
      });
    } catch (cause) {
      return routeErrorAnswer(c, ctx, cause);
    }
  });
}

const envelope = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };
const retryAfter = { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } };

/** Adds the download to the OpenAPI document. */
export function documentExportDownload(doc: OpenAPIObject) {
  doc.paths ??= {};
  doc.paths[DOWNLOAD_PATH] = {
    get: {
      operationId: 'me-downloadExport',
      tags: ['me'],
      summary: 'Download your data archive, once (application/zip)',
      description:
        "The archive GET /api/me/export announced as `download.url`. Needs both the link's token and the session of the member it belongs to (a leaked link alone opens nothing). Works once: the archive is deleted as it is handed out, so a second request, an older link (each read of GET /api/me/export issues a new one), an expired archive or another member's token all answer 404 `not_found`. Contents: docs/data-export.md. REST only (not JSON).",
      parameters: [
        {
          name: 'token',
          in: 'query',
          required: true,
          schema: { type: 'string', minLength: 1, maxLength: 200 },
          description: 'The single-use token of `download.url`.',
        },
      ],
      responses: {
        '200': {
          description: 'The zip (`Content-Disposition: attachment; filename="data-export-YYYY-MM-DD.zip"`).',
          headers: {
            'Content-Disposition': {
              description: 'attachment; filename="data-export-YYYY-MM-DD.zip" (the day it was asked for, UTC).',
              schema: { type: 'string' },
            },
          },
          content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
        },
        '400': { description: 'The input is not valid: `validation_failed`.', content: envelope },
        '401': {
          description: 'Not signed in, or the token is invalid, expired or revoked: `unauthorized`.',
          content: envelope,
        },
        '404': {
          description: "No such download (used, replaced, expired, or not the caller's): `not_found`.",
          content: envelope,
        },
        '500': { description: 'Unexpected error: `internal_error`.', content: envelope },
        '503': {
          description: 'Temporarily unavailable (database unreachable or request deadline): `unavailable`.',
          headers: retryAfter,
          content: envelope,
        },
      },
      security: [{ bearer: [] }],
      'x-auth': 'member',
    } as never,
  };
}
