// The transport benchmark (bench/transport/) sends tRPC calls as hand-built URLs; this checks they
// are exactly what the typed client's httpLink and httpBatchLink send, and that the benchmark reads
// the procedure's output out of a response where the client does. No server or database needed:
// the client's fetch is a stub that records the URL and answers a canned tRPC response.
import { createTRPCClient, httpBatchLink, httpLink } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import {
  type Call,
  placeGetCall,
  placeListCall,
  procedureOutput,
  requestPath,
  statsCall,
  type Transport,
} from '../../bench/transport/requests.js';
import type { AppRouter } from '../../server/composition.js';

const BASE = 'http://bench.test';
const answer = { items: [{ _id: 'x', name: 'Green Fig Café' }], nextCursor: null };

/** Calls `call` through the typed client over one transport; answers the URL it requested and what it returned. */
async function throughClient(transport: 'trpc' | 'batch', call: Call) {
  let url = '';
  let body: unknown;
  const stubFetch = async (input: RequestInfo | URL) => {
    url = String(input);
    body = transport === 'batch' ? [{ result: { data: answer } }] : { result: { data: answer } };
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  };
  const link = (transport === 'batch' ? httpBatchLink : httpLink)({ url: `${BASE}/trpc`, fetch: stubFetch });
  const client = createTRPCClient<AppRouter>({ links: [link] }) as unknown as Record<
    string,
    Record<string, { query(input: unknown): Promise<unknown> }>
  >;
  const [router, procedure] = call.procedure.split('.') as [string, string];
  const returned = await client[router]![procedure]!.query(call.input);
  return { path: url.slice(BASE.length), returned, body };
}

const calls: Call[] = [
  placeListCall('-179.9,-19.1,178.2,-16.4'),
  placeListCall('13.3045,52.42,13.5045,52.62'),
  placeGetCall('green-fig-cafe-berlin-2'),
  statsCall(),
];

describe('transport benchmark requests', () => {
  for (const transport of ['trpc', 'batch'] as Transport[]) {
    it(`${transport}: the same URL as the typed client, and the same output read back`, async () => {
      for (const call of calls) {
        const sent = await throughClient(transport as 'trpc' | 'batch', call);
        expect(requestPath(transport, call)).toBe(sent.path);
        expect(procedureOutput(transport, sent.body)).toEqual(sent.returned);
      }
    });
  }

  it('rest: the path of the procedure in the OpenAPI mapping', () => {
    expect(requestPath('rest', calls[1]!)).toBe('/api/places?bbox=13.3045,52.42,13.5045,52.62');
    expect(requestPath('rest', calls[2]!)).toBe('/api/places/green-fig-cafe-berlin-2');
    expect(procedureOutput('rest', answer)).toBe(answer);
  });
});
