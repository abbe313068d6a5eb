// What the Node HTTP server itself must do that the Hono app cannot see: answer protocol-level
// failures (headers too large, malformed requests) with our error envelope instead of Node's
// bare status line, and, while draining, end kept-alive connections politely with
// `Connection: close` after their current response instead of resetting them.
import { randomUUID } from 'node:crypto';
import type { Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody, errorStatus, type ErrorCode } from '../errors.js';

export interface DrainState {
  /** Set once SIGTERM arrived: /healthz answers 503 and every response closes its connection. */
  draining: boolean;
}

const statusText: Record<number, string> = { 400: 'Bad Request', 431: 'Request Header Fields Too Large' };

/** A complete HTTP/1.1 response carrying the JSON error envelope; the connection closes after it. */
export function rawErrorResponse(code: ErrorCode, message: string): string {
  const status = errorStatus[code];
  const body = JSON.stringify(errorBody(code, message));
  return [
    `HTTP/1.1 ${status} ${statusText[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    // Every answer carries one, these too (the app never saw the request to give it its own).
    `X-Request-Id: ${randomUUID()}`,
    '',
    body,
  ].join('\r\n');
}

/**
 * Replaces Node's default clientError answer (a bare `431` or `400` with no body). As Node does,
 * it only answers when nothing of a response went out on that socket yet; otherwise it cuts.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const current = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || current?.headersSent) {
    socket.destroy();
    return;
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    // Not an API answer: the client never finished its request. Node's own reply, kept.
    socket.end(`HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nX-Request-Id: ${randomUUID()}\r\n\r\n`);
    return;
  }
  const response =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? rawErrorResponse(
          'request_header_fields_too_large',
          'The request headers are larger than the server accepts (16 KiB in all).',
        )
      : rawErrorResponse('validation_failed', 'The request is not valid HTTP.');
  socket.end(response);
}

/** Wires the server; returns startDraining(), called on SIGTERM before the listener closes. */
export function prepareNodeServer(server: Server, state: DrainState) {
  const inFlight = new Set<ServerResponse>();
  // Runs before @hono/node-server's listener: a request arriving while draining is still served,
  // but its connection is not kept alive.
  server.prependListener('request', (_request, response: ServerResponse) => {
    if (state.draining) {
      response.shouldKeepAlive = false;
      return;
    }
    inFlight.add(response);
    response.once('close', () => inFlight.delete(response));
  });
  server.on('clientError', answerClientError);
  return {
    startDraining() {
      state.draining = true;
      // Responses still being computed go out with `Connection: close`; Node then ends the
      // socket after the last byte rather than the client finding it reset later.
      for (const response of inFlight) response.shouldKeepAlive = false;
      inFlight.clear();
    },
  };
}
