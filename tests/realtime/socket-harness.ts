// Real sockets for the realtime tests: the test app served on a real port with the `/messages`
// namespace attached (PostgreSQL adapter when the test database is PostgreSQL), and
// socket.io-client helpers that wait for what a socket receives.
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { io, type Socket } from 'socket.io-client';
import { expect } from 'vitest';
import { type RealtimeService, startRealtime } from '../../server/realtime/service.js';
import { testDatabaseUrl } from '../setup/database.js';
import { createTestApp, type TestApp } from '../setup/harness.js';

export interface RealtimeServer {
  url: string;
  service: RealtimeService;
  close(): Promise<void>;
}

export async function startRealtimeServer(t: TestApp): Promise<RealtimeServer> {
  const server = await new Promise<Server>((resolve) => {
    const started = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started)) as Server;
  });
  const service = startRealtime(server, t.deps, { databaseUrl: testDatabaseUrl() ?? undefined });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    service,
    async close() {
      await service.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A realtime test file's usual setup: a test app (with `env`) served with realtime on a real port. */
export async function startRealtimeApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; server: RealtimeServer }> {
  const t = await createTestApp(env);
  return { t, server: await startRealtimeServer(t) };
}

/** Its teardown: every socket the file opened, the realtime server, then the app (what was started). */
export async function stopRealtimeApp(started: { t?: TestApp; server?: RealtimeServer }): Promise<void> {
  closeAllSockets();
  await started.server?.close();
  await started.t?.close();
}

export interface ConnectOptions {
  token?: string;
  auth?: Record<string, unknown>;
  query?: Record<string, string>;
  namespace?: string;
  /** Request headers of the handshake (e.g. X-Forwarded-For behind a trusted proxy). */
  headers?: Record<string, string>;
}

const sockets = new Set<Socket>();

/** A client socket (websocket transport, no automatic reconnection); not yet connected. */
export function socketTo(baseUrl: string, options: ConnectOptions = {}): Socket {
  const socket = io(`${baseUrl}${options.namespace ?? '/messages'}`, {
    auth: options.auth ?? (options.token ? { token: options.token } : {}),
    query: options.query,
    ...(options.headers ? { extraHeaders: options.headers } : {}),
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 10_000,
  });
  sockets.add(socket);
  return socket;
}

/** Closes every socket the file opened (afterAll). */
export function closeAllSockets(): void {
  for (const socket of sockets) socket.close();
  sockets.clear();
}

/** Resolves with the next `event` the socket receives; rejects after `ms`. */
export function nextEvent<T = any>(socket: Socket, event: string, ms = 5_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, handler);
      reject(new Error(`no "${event}" within ${ms} ms`));
    }, ms);
    const handler = (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    };
    socket.once(event, handler);
  });
}

/** Connects and waits for `ready` (rooms joined). */
export async function connectReady(baseUrl: string, token: string) {
  const socket = socketTo(baseUrl, { token });
  const ready = await nextEvent<{ userId: string; conversationIds: string[] }>(socket, 'ready');
  return { socket, ready };
}

/** Connects expecting a refusal; resolves with the connect_error's `data` and message. */
export async function refusedHandshake(baseUrl: string, options: ConnectOptions) {
  const socket = socketTo(baseUrl, options);
  const error = await new Promise<Error & { data?: { code: string; message: string } }>((resolve, reject) => {
    socket.once('connect', () => reject(new Error('the handshake was accepted')));
    socket.once('connect_error', resolve);
  });
  socket.close();
  return { data: error.data, message: error.message };
}

/** Records every event a socket receives, in order. */
export function recorder(socket: Socket) {
  const events: { event: string; payload: any }[] = [];
  socket.onAny((event: string, payload: unknown) => events.push({ event, payload }));
  return {
    events,
    names: () => events.map((e) => e.event),
    of: (event: string) => events.filter((e) => e.event === event).map((e) => e.payload),
  };
}

/** Resolves with the disconnect reason; rejects if the socket stays connected for `ms`. */
export function disconnection(socket: Socket, ms = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    if (socket.disconnected && !socket.active) return resolve('already disconnected');
    const timer = setTimeout(() => reject(new Error(`still connected after ${ms} ms`)), ms);
    socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}

/**
 * Proves a socket did NOT receive `event`: a sentinel sent after it through `sendSentinel`
 * (to the same socket, in order) arrives while the event never did.
 */
export async function expectNothingBefore(
  socket: Socket,
  log: ReturnType<typeof recorder>,
  event: string,
  sendSentinel: (sentinelEvent: string) => void | Promise<void>,
) {
  const sentinel = `sentinel-${Math.random().toString(36).slice(2)}`;
  const arrived = nextEvent(socket, sentinel);
  await sendSentinel(sentinel);
  await arrived;
  expect(log.names()).not.toContain(event);
}
