// The `/messages` handshake: the same session check as the API, the token only in the auth
// object, refusals as connect_error with { code, message }, rooms joined before `ready`.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSecretToken } from '../../server/auth/tokens.js';
import { createMember, type TestApp } from '../setup/harness.js';
import {
  connectReady,
  refusedHandshake,
  type RealtimeServer,
  startRealtimeApp,
  stopRealtimeApp,
} from './socket-harness.js';

let t: TestApp;
let server: RealtimeServer;
beforeAll(async () => {
  ({ t, server } = await startRealtimeApp());
});
afterAll(() => stopRealtimeApp({ t, server }));

describe('handshake authentication', () => {
  it('accepts a live session token in auth and says ready with the member id', async () => {
    const m = await createMember(t);
    const { socket, ready } = await connectReady(server.url, m.token);
    expect(socket.connected).toBe(true);
    expect(ready).toEqual({ userId: m.id, conversationIds: [] });
  });

  it('refuses a handshake without a token (unauthorized)', async () => {
    for (const auth of [{}, { token: '' }, { token: 42 }, { tok: 'x' }]) {
      const { data } = await refusedHandshake(server.url, { auth });
      expect(data, JSON.stringify(auth)).toEqual({ code: 'unauthorized', message: expect.stringContaining('auth') });
    }
  });

  it('refuses a malformed or unknown token (unauthorized)', async () => {
    for (const token of ['not-ours', 'a'.repeat(52), generateSecretToken()]) {
      const { data, message } = await refusedHandshake(server.url, { token });
      expect(data).toEqual({ code: 'unauthorized', message: 'The session token is invalid, expired or revoked.' });
      expect(message).toBe(data!.message);
    }
  });

  it('refuses a revoked token (logged out) and an expired one', async () => {
    const m = await createMember(t);
    expect((await t.request('POST', '/api/auth/logout', { token: m.token })).status).toBe(200);
    expect((await refusedHandshake(server.url, { token: m.token })).data?.code).toBe('unauthorized');

    const n = await createMember(t);
    await t.deps.database.rows(
      sql`update sessions set expires_at = ${new Date(t.clock.now().getTime() - 1000).toISOString()} where user_id = ${n.id}`,
    );
    expect((await refusedHandshake(server.url, { token: n.token })).data?.code).toBe('unauthorized');
  });

  it('refuses a token in the URL, even a valid one, even alongside auth', async () => {
    const m = await createMember(t);
    for (const query of <Record<string, string>[]>[
      { token: m.token },
      { access_token: m.token },
      { sessionToken: m.token },
      { x: m.token },
    ]) {
      const alone = await refusedHandshake(server.url, { query });
      expect(alone.data?.code, JSON.stringify(query)).toBe('unauthorized');
      expect(alone.data?.message).toContain('never in the URL');
      const withAuth = await refusedHandshake(server.url, { query, token: m.token });
      expect(withAuth.data?.code).toBe('unauthorized');
    }
    // The token itself still works the right way.
    await connectReady(server.url, m.token);
  });

  it('serves nothing on the main namespace (not_found)', async () => {
    const m = await createMember(t);
    const { data } = await refusedHandshake(server.url, { token: m.token, namespace: '/' });
    expect(data?.code).toBe('not_found');
  });

  it('an unknown namespace is refused by socket.io itself', async () => {
    const m = await createMember(t);
    const { message } = await refusedHandshake(server.url, { token: m.token, namespace: '/admin' });
    expect(message).toBe('Invalid namespace');
  });
});
