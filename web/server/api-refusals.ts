// Refusals the typed client would not understand. The API's own procedures answer a refusal in
// tRPC's error shape (`data: { code, httpStatus }`); a few answers come from outside a procedure:
// the API's body limit (413 in the REST envelope), a proxy in front of it (an HTML 413 or 502
// page). Without `data` the typed client rejects with an error no page recognises, so a post
// that was merely too long ended on "Something went wrong" with its text lost. This file gives
// such answers the shape of the API's own refusals, and says "too large" in words (the viewer's:
// the wrapped fetch runs inside the request, so `t` knows the language).
import { fmt, t } from './i18n.js';

/** The API's error codes by status, for answers that carry none. */
const CODE_FOR_STATUS: Record<number, string> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'request_header_fields_too_large',
  501: 'not_implemented',
  503: 'unavailable',
};

/** JSON-RPC codes tRPC gives the same refusals (the typed client reads only `message` and `data`). */
function jsonRpcCode(status: number): number {
  if (status === 413) return -32413;
  if (status === 429) return -32029;
  return status < 500 ? -32600 : -32603;
}

function codeForStatus(status: number): string {
  return CODE_FOR_STATUS[status] ?? (status < 500 ? 'validation_failed' : 'internal_error');
}

/** A byte count for people, in the viewer's number format: "1 MB", "256 kB", "1,5 MB". */
function sizeInWords(bytes: number): string {
  if (bytes >= 1024 * 1024) {
    const size = fmt().formatNumber(Math.round((bytes / (1024 * 1024)) * 10) / 10);
    return t('errors.tooLarge.megabytes', { size });
  }
  return t('errors.tooLarge.kilobytes', { size: fmt().formatNumber(Math.max(1, Math.round(bytes / 1024))) });
}

/** What a person reads when what they sent was too large (the limit named when it is known). */
export function tooLargeInWords(maxBytes?: number): string {
  return maxBytes ? t('errors.tooLarge.withLimit', { limit: sizeInWords(maxBytes) }) : t('errors.tooLarge.plain');
}

/** The limit the API names in its 413 message ("The body may be at most 1048576 bytes."). */
function namedLimit(message: string | undefined): number | undefined {
  const match = message ? /at most (\d+) bytes/.exec(message) : null;
  return match ? Number(match[1]) : undefined;
}

interface Envelope {
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return JSON.parse(await response.clone().text());
  } catch {
    return undefined;
  }
}

/**
 * Wraps the fetch the typed client uses: a failed answer already in tRPC's shape (an object whose
 * `error` has `data`, or a batch array) passes untouched; any other gets that shape, keeping its
 * status, its code and message when it had the API's envelope, and its Retry-After.
 */
export function withRefusalShape(fetchImpl: typeof globalThis.fetch, maxBodyBytes: number): typeof globalThis.fetch {
  return async (input, init) => {
    // Larger than the API takes: refused here as the API would, without sending it (the API answers
    // 413 before reading and closes the connection, which the sender sees as "fetch failed").
    if (typeof init?.body === 'string' && Buffer.byteLength(init.body) > maxBodyBytes) {
      return refusalResponse(413, 'payload_too_large', tooLargeInWords(maxBodyBytes));
    }
    const response = await fetchImpl(input, init);
    if (response.ok) return response;
    const body = await readJson(response);
    if (Array.isArray(body)) return response;
    const envelope = (body as Envelope | undefined)?.error;
    if (envelope && typeof envelope === 'object' && envelope.data) return response;
    const status = response.status;
    const code = typeof envelope?.code === 'string' ? envelope.code : codeForStatus(status);
    const given = typeof envelope?.message === 'string' ? envelope.message : undefined;
    const message =
      code === 'payload_too_large'
        ? tooLargeInWords(namedLimit(given))
        : (given ?? (status < 500 ? 'The service refused this request.' : 'The service cannot answer right now.'));
    return refusalResponse(status, code, message, response.headers.get('retry-after'));
  };
}

/** An answer in tRPC's error shape, as the API's procedures give. */
function refusalResponse(status: number, code: string, message: string, retryAfter?: string | null): Response {
  const headers = new Headers({ 'content-type': 'application/json' });
  if (retryAfter) headers.set('retry-after', retryAfter);
  const shaped = { error: { message, code: jsonRpcCode(status), data: { code, httpStatus: status } } };
  return new Response(JSON.stringify(shaped), { status, headers });
}
