// GET /api/actions/export: the caller's whole log as CSV, a raw Hono route (tRPC speaks JSON
// only) over the `actions.list` procedure, called through createCaller page by page: auth,
// validation and the request deadline are the procedure's, and the file is streamed one page
// at a time (a long log is never held in memory). Mounted by server/app.ts before the REST
// adapter; documentActionsExport adds it to the OpenAPI document.
//
// The CSV is written by csv-stringify: RFC 4180 (CRLF line ends, quotes doubled, a field with a
// comma, quote or line break quoted), a header row, and formula injection neutralised: a cell
// starting with =, +, -, @, tab or CR (or their full-width forms) gets a leading apostrophe, so
// a spreadsheet shows it as text instead of running it. Numbers are never prefixed.
import { stringify } from 'csv-stringify/sync';
import type { Env, Hono, Context as HonoContext } from 'hono';
import type { OpenAPIObject } from 'trpc-to-openapi';
import { routeErrorAnswer } from '../../http/rest.js';
import { createCallerFactory } from '../../trpc/init.js';
import type { Context } from '../../trpc/context.js';
import { actionsRouter } from './router.js';
import type { ActionEntryOutput, ListActionsInput } from './schemas.js';

export const EXPORT_PATH = '/api/actions/export';
/** Entries per page read (and per chunk written). */
export const EXPORT_PAGE_SIZE = 100;
/** The columns, in order; the header row names them. */
export const EXPORT_COLUMNS = [
  'id',
  'kind',
  'occurredOn',
  'hours',
  'note',
  'placeId',
  'placeName',
  'eventId',
  'eventTitle',
  'createdAt',
] as const;
/** The query parameters the export reads (the list's filters; no cursor, no limit). */
const FILTERS = ['kind', 'from', 'to'] as const;

const createCaller = createCallerFactory(actionsRouter);

function csvChunk(entries: ActionEntryOutput[], withHeader: boolean): string {
  return stringify(
    entries.map((e) => [
      e._id,
      e.kind,
      e.occurredOn,
      e.hours,
      e.note,
      e.placeId,
      e.placeName,
      e.eventId,
      e.eventTitle,
      e.createdAt,
    ]),
    {
      header: withHeader,
      columns: [...EXPORT_COLUMNS],
      record_delimiter: 'windows',
      // Any CR or LF inside a cell is quoted (csv-stringify quotes only the record delimiter
      // itself once one is set), so a bare line break can never split a record.
      quote_record_delimiter: true,
      escape_formulas: true,
    },
  );
}

/** The filters as the REST adapter reads a query: one value alone, a repeated key as an array (a 400). */
function filtersOf(url: URL): Record<string, string | string[]> {
  const filters: Record<string, string | string[]> = {};
  for (const key of FILTERS) {
    const values = url.searchParams.getAll(key);
    if (values.length > 0) filters[key] = values.length === 1 ? values[0]! : values;
  }
  return filters;
}

export function exportFileName(now: Date): string {
  return `action-log-${now.toISOString().slice(0, 10)}.csv`;
}

export function mountActionsExport<E extends Env>(app: Hono<E>, contextFor: (c: HonoContext<E>) => Context) {
  app.get(EXPORT_PATH, async (c) => {
    const ctx = contextFor(c);
    const caller = createCaller(ctx);
    const filters = filtersOf(new URL(c.req.url)) as Omit<ListActionsInput, 'limit' | 'cursor'>;
    const page = (cursor?: string) => caller.list({ ...filters, cursor, limit: EXPORT_PAGE_SIZE });

    // The first page decides the status: 401, 400 and the rest answer the JSON envelope.
    let first: Awaited<ReturnType<typeof page>>;
    try {
      first = await page();
    } catch (cause) {
      return routeErrorAnswer(c, ctx, cause);
    }

    const encoder = new TextEncoder();
    let cursor = first.nextCursor;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(csvChunk(first.items, true)));
        if (cursor === null) controller.close();
      },
      // Pulled as the client reads: one page in memory at a time.
      async pull(controller) {
        try {
          const next = await page(cursor!);
          if (next.items.length > 0) controller.enqueue(encoder.encode(csvChunk(next.items, false)));
          cursor = next.nextCursor;
          if (cursor === null) controller.close();
        } catch (error) {
          // Headers are gone: the only honest signal left is a broken (incomplete) transfer.
          ctx.log.error({ err: error }, 'action log export failed mid-stream');
          controller.error(error);
        }
      },
    });
    return c.body(body, 200, {
      'Content-Type': 'text/csv; charset=utf-8; header=present',
      'Content-Disposition': `attachment; filename="${exportFileName(ctx.clock.now())}"`,
      'Cache-Control': 'no-store',
    });
  });
}

const envelope = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };
const retryAfter = { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } };

/** Adds the export to the OpenAPI document, its filters copied from GET /api/actions (call after generation). */
export function documentActionsExport(doc: OpenAPIObject) {
  doc.paths ??= {};
  const listParameters = ((doc.paths['/api/actions'] as { get?: { parameters?: { name: string }[] } } | undefined)?.get
    ?.parameters ?? []) as { name: string }[];
  doc.paths[EXPORT_PATH] = {
    get: {
      operationId: 'actions-export',
      tags: ['actions'],
      summary: "The caller's whole log as CSV (text/csv)",
      description: `Every entry of the caller's own log that the filters select, newest logged first, as one CSV file (RFC 4180: a header row, CRLF line ends, fields with commas, quotes or line breaks quoted, quotes doubled; UTF-8 without BOM). Columns: ${EXPORT_COLUMNS.join(', ')} (empty cell for null; \`hours\` in quarter hours). Formula injection is neutralised: a cell that starts with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage return (or their full-width forms) gets a leading apostrophe (\`'\`), so spreadsheets show it as text. Streamed page by page: a failure after the first bytes breaks the transfer (the file is then incomplete; retry). REST only: typed clients page through \`actions.list\`, which carries the same entries.`,
      parameters: listParameters.filter((p) => (FILTERS as readonly string[]).includes(p.name)),
      responses: {
        '200': {
          description:
            'The log as CSV, as a download (`Content-Disposition: attachment; filename="action-log-YYYY-MM-DD.csv"`).',
          headers: {
            'Content-Disposition': {
              description: 'attachment; filename="action-log-YYYY-MM-DD.csv" (the date of the export, UTC).',
              schema: { type: 'string' },
            },
          },
          content: {
            'text/csv': {
              schema: { type: 'string' },
              example: `${EXPORT_COLUMNS.join(',')}\r\n0193a5b2-6f1e-7c3a-8b2d-1234567890ab,outreach,2026-11-14,2.5,Leafleting at the market.,,,,,2026-11-14T18:03:11.000Z\r\n`,
            },
          },
        },
        '400': { description: 'The input is not valid: `validation_failed`.', content: envelope },
        '401': {
          description: 'Not signed in, or the token is invalid, expired or revoked: `unauthorized`.',
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
