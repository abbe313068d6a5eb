// The realtime metrics end to end: open sockets per namespace, and publish failures of the link
// to the other processes (its database here is a TCP server that accepts and never answers, so
// any test database will do: the app's own database is the test one).
import { serve } from '@hono/node-server';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RealtimeService, startRealtime } from '../../server/realtime/service.js';
import { userRoom } from '../../server/shared/realtime-publisher.js';
import { closeAllSockets, connectReady } from '../realtime/socket-harness.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { type SilentDatabase, startSilentDatabase } from '../setup/silent-database.js';
import { waitFor } from '../setup/wait.js';

const TOKEN = 'metrics-token-for-tests-0123456789abcdef';
let t: TestApp;
let silent: SilentDatabase | undefined;
let http: HttpServer;
let service: RealtimeService;
let url: string;

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN });
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
  await service?.close();
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
  silent?.close();
  await t?.close();
});

async function sampleOf(series: string): Promise<number | undefined> {
  const res = await t.request('GET', '/metrics', { token: TOKEN });
  const line = res.text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('realtime metrics', () => {
  it('counts open sockets per namespace and the publish failures of the link', async () => {
    const m = await createMember(t);
    const { socket } = await connectReady(url, m.token);
    expect(await sampleOf('realtime_open_sockets{namespace="/messages"}')).toBe(1);
    t.deps.realtime.publisher.emit(userRoom(m.id), 'conversation.left', { conversationId: 'c1' });
    await waitFor(async () => ((await sampleOf('realtime_publish_failures_total')) ?? 0) >= 1, {
      timeoutMs: 10_000,
      message: 'a publish failure counted',
    });
    // A failure may be counted before the message it drops (a failed reconnect drops nothing).
    await waitFor(async () => ((await sampleOf('realtime_messages_dropped_total')) ?? 0) >= 1, {
      timeoutMs: 10_000,
      message: 'the message counted as dropped',
    });
    socket.disconnect();
    await waitFor(async () => (await sampleOf('realtime_open_sockets{namespace="/messages"}')) === 0, {
      message: 'the socket no longer counted',
    });
  });
});
