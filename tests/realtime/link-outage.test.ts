// Sockets on the process that took a write never wait on the link to the other processes: with
// the realtime link's database hanging (a TCP server that accepts and never answers), events
// still reach this process's own sockets at once, the link reports itself down (so /readyz
// says unready), and closing the service stays bounded. Any database: the link's URL is the
// silent server, the app's own database is the test one.
import { serve } from '@hono/node-server';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userRoom } from '../../server/shared/realtime-publisher.js';
import { type RealtimeService, startRealtime } from '../../server/realtime/service.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { type SilentDatabase, startSilentDatabase } from '../setup/silent-database.js';
import { closeAllSockets, connectReady, nextEvent } from './socket-harness.js';
import { eventually } from '../setup/wait.js';

let t: TestApp;
let silent: SilentDatabase | undefined;
let http: HttpServer;
let service: RealtimeService;
let url: string;

beforeAll(async () => {
  t = await createTestApp();
  silent = await startSilentDatabase();
  const silentUrl = silent.url;
  http = await new Promise<HttpServer>((resolve) => {
    const started = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started)) as HttpServer;
  });
  service = startRealtime(http, t.deps, { databaseUrl: silentUrl });
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  closeAllSockets();
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
  silent?.close();
  await t?.close();
});

describe('realtime with its link to the other processes hanging', () => {
  it('delivers to local sockets at once and reports the link down', async () => {
    const m = await createMember(t);
    const { socket } = await connectReady(url, m.token);
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const got = nextEvent(socket, 'conversation.left', 3000);
      t.deps.realtime.publisher.emit(userRoom(m.id), 'conversation.left', { conversationId: `c${i}` });
      expect(await got).toEqual({ conversationId: `c${i}` });
      // The link's connect timeout is 2 s (5 s before): delivery must not wait on it.
      expect(performance.now() - started).toBeLessThan(500);
    }
    expect(service.health()).toMatchObject({ listening: false });
    await eventually(() => service.health()?.publishing === false, { timeoutMs: 10_000, intervalMs: 50 });
    expect(service.health()).toEqual({ listening: false, publishing: false });
  });

  it('closes within a bounded time although its database never answers', async () => {
    const started = performance.now();
    await service.close();
    expect(performance.now() - started).toBeLessThan(2500);
  });
});
