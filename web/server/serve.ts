// Serves the web front end on its own port: used by web/main.ts (web alone) and server/main.ts
// (`npm start`: API and web together in one process).
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebApp } from './app.js';
import type { WebConfig } from './config.js';

export interface RunningWebServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function startWebServer(
  config: WebConfig,
  logError: (error: unknown, context: { method: string; path: string }) => void,
  logWarning?: (message: string, fields: Record<string, string>) => void,
): Promise<RunningWebServer> {
  const app = createWebApp({ config, logError, logWarning });
  const server = await new Promise<Server>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, port: config.WEB_PORT, hostname: config.WEB_HOST }, () =>
      resolve(started),
    ) as Server;
    started.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: config.WEB_URL || `http://localhost:${port}`,
    async close() {
      server.closeIdleConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
