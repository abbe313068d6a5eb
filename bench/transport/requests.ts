// The same procedure call as each transport puts it on the wire, and how to get the procedure's
// answer back out of each response, so the benchmark can check that all of them answer alike.
//   rest   GET /api/places?bbox=…                     → { items, nextCursor }
//   trpc   GET /trpc/places.list?input=<json>          → { result: { data } }        (httpLink)
//   batch  GET /trpc/places.list?batch=1&input={"0":…} → [{ result: { data } }]      (httpBatchLink, one call)
// The tRPC forms are byte for byte what @trpc/client sends (tests/bench/transport-requests.test.ts).

export type Transport = 'rest' | 'trpc' | 'batch';
export const TRANSPORTS: readonly Transport[] = ['rest', 'trpc', 'batch'];

/** One procedure call: its tRPC path and input, and the REST path that maps to it. */
export interface Call {
  procedure: string;
  input: Record<string, unknown>;
  restPath: string;
}

export const placeListCall = (bbox: string): Call => ({
  procedure: 'places.list',
  input: { bbox },
  restPath: `/api/places?bbox=${bbox}`,
});

export const placeGetCall = (slug: string): Call => ({
  procedure: 'places.get',
  input: { slug },
  restPath: `/api/places/${encodeURIComponent(slug)}`,
});

export const statsCall = (): Call => ({ procedure: 'stats.get', input: {}, restPath: '/api/stats' });

const json = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/** The request path (with query) a transport sends for a call. */
export function requestPath(transport: Transport, call: Call): string {
  switch (transport) {
    case 'rest':
      return call.restPath;
    case 'trpc':
      return `/trpc/${call.procedure}?input=${json(call.input)}`;
    case 'batch':
      return `/trpc/${call.procedure}?batch=1&input=${json({ 0: call.input })}`;
  }
}

/** The procedure's output inside a transport's response body. */
export function procedureOutput(transport: Transport, body: unknown): unknown {
  switch (transport) {
    case 'rest':
      return body;
    case 'trpc':
      return (body as { result?: { data?: unknown } }).result?.data;
    case 'batch':
      return (body as { result?: { data?: unknown } }[])[0]?.result?.data;
  }
}
