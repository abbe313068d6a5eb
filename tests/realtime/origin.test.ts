// The `/messages` handshake checks the browser's Origin (ASVS 4.4.2): a page of another site
// must not open a member's socket. Allowed: the API's own origin (PUBLIC_URL) and
// CORS_ALLOWED_ORIGINS (the web front end's); no Origin at all (native apps, server clients)
// stays allowed, the token deciding as before. Both transports: long-polling and WebSocket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type TestApp } from '../setup/harness.js';
import { nextEvent, type RealtimeServer, socketTo, startRealtimeApp, stopRealtimeApp } from './socket-harness.js';

const WEB = 'https://app.example.org';
let t: TestApp;
let server: RealtimeServer;
beforeAll(async () => {
  ({ t, server } = await startRealtimeApp({ CORS_ALLOWED_ORIGINS: WEB }));
});
afterAll(() => stopRealtimeApp({ t, server }));

/** The first request of a long-polling handshake, as a browser page would send it. */
const pollingHandshake = (origin?: string) =>
  fetch(`${server.url}/socket.io/?EIO=4&transport=polling`, { headers: origin ? { origin } : {} });

/** Opens a WebSocket socket with the given Origin: 'ready' or the connect_error's message. */
async function websocketWith(token: string, origin?: string): Promise<string> {
  const socket = socketTo(server.url, { token, ...(origin ? { headers: { origin } } : {}) });
  return Promise.race([
    nextEvent(socket, 'ready', 10_000).then(() => 'ready'),
    nextEvent<Error>(socket, 'connect_error', 10_000).then((error) => `refused: ${error.message}`),
  ]);
}

describe('/messages Origin check', () => {
  it('refuses a long-polling handshake from a foreign origin with 403', async () => {
    for (const origin of ['https://evil.example', 'null', `${WEB}.evil.example`, 'http://app.example.org']) {
      const res = await pollingHandshake(origin);
      expect(res.status, origin).toBe(403);
      expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(await res.text(), origin).not.toContain('"sid"');
    }
  });

  it('accepts the web origin, the API origin and no Origin at all', async () => {
    for (const origin of [WEB, new URL(t.config.PUBLIC_URL).origin, undefined]) {
      const res = await pollingHandshake(origin);
      expect(res.status, String(origin)).toBe(200);
      expect(await res.text(), String(origin)).toContain('"sid"');
    }
  });

  it('refuses a WebSocket handshake from a foreign origin, even with a valid token', async () => {
    const m = await createMember(t);
    expect(await websocketWith(m.token, 'https://evil.example')).toMatch(/^refused/);
    expect(await websocketWith(m.token, WEB)).toBe('ready');
    expect(await websocketWith(m.token)).toBe('ready');
  });
});
