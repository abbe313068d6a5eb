// The JSON body of a REST request: read with a cap (never buffering more than MAX_BODY_BYTES),
// from Node's request stream when the server is Node's, else from the web Request (app.request
// in tests, and raw routes that hold only the Request).
import type { Readable } from 'node:stream';
import { AppError } from '../errors.js';

class RequestError extends AppError {}

/** The one answer for a body over the cap, whether its length was declared or counted. */
export const tooLarge = (maxBytes: number) =>
  new RequestError('payload_too_large', `The body may be at most ${maxBytes} bytes.`);

/** A declared Content-Length over the cap is refused before a byte of the body is read. */
function refuseDeclaredOverCap(request: Request, maxBytes: number): void {
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) throw tooLarge(maxBytes);
}

/** Reads at most maxBytes, stopping as soon as a chunked body goes over (never buffers more). */
async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array> {
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
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * The same from Node's request stream. Reading `request.body` makes @hono/node-server build
 * undici's Request with an abort signal, which undici registers in a FinalizationRegistry; V8's
 * young-generation collector keeps such targets alive, so every POST's objects (its signal's
 * listeners and what they hold) were copied into the old generation and left only at the next
 * full GC (bench/README.md, "Why every POST was promoted"). Stops at maxBytes; what is left is
 * drained by the adapter.
 */
export function readCappedFromNode(stream: Readable, maxBytes: number): Promise<Uint8Array> {
  if (stream.readableEnded) return Promise.resolve(new Uint8Array(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const settle = (error?: AppError) => {
      stream.off('data', onData).off('end', onEnd).off('error', onBroken).off('close', onBroken);
      if (!error) return resolve(Buffer.concat(chunks, total));
      stream.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > maxBytes) settle(tooLarge(maxBytes));
      else chunks.push(chunk);
    };
    const onEnd = () => settle();
    // The client went away mid-body: nobody will read the answer, and it is not our fault.
    const onBroken = () => settle(new RequestError('validation_failed', 'The request body ended early.'));
    if (stream.destroyed) return onBroken();
    stream.on('data', onData).once('end', onEnd).once('error', onBroken).once('close', onBroken);
  });
}

export async function readJsonBody(request: Request, maxBytes: number, body?: Readable): Promise<unknown> {
  refuseDeclaredOverCap(request, maxBytes);
  const bytes = body ? await readCappedFromNode(body, maxBytes) : await readCapped(request, maxBytes);
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

/**
 * The Request handed to tRPC's fetch adapter when the server is Node's: built here without an
 * abort signal (undici registers a Request that has one in a FinalizationRegistry: see
 * readCappedFromNode), its body read from Node's stream with the same cap. tRPC passes the
 * signal to procedures that take it (none here) and to streamed batches, which now run to their
 * end when the client leaves, as every other answer does.
 */
export async function signalFreeRequest(request: Request, stream: Readable, maxBytes: number): Promise<Request> {
  const init: RequestInit = { method: request.method, headers: request.headers };
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    refuseDeclaredOverCap(request, maxBytes);
    // A Buffer over Node's pool (ArrayBufferLike): a body undici takes as it is.
    init.body = (await readCappedFromNode(stream, maxBytes)) as Uint8Array<ArrayBuffer>;
  }
  return new Request(request.url, init);
}
