// The test app behind a real Node HTTP server (what production runs), for what app.request
// cannot show: Node's parser, its request stream, its sockets.
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { prepareNodeServer } from '../../server/http/node-server.js';
import type { TestApp } from './harness.js';

export interface NodeServed {
  port: number;
  close(): Promise<void>;
}

export async function serveOnNode(t: TestApp): Promise<NodeServed> {
  const server = createAdaptorServer({ fetch: t.app.fetch }) as http.Server;
  prepareNodeServer(server, { draining: false });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
