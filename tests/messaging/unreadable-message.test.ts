// One message that no configured key opens (a damaged row, a key retired too early) must not take
// the whole conversation's history down: it is served as a placeholder (`body` empty,
// `unreadable: true`), logged with ids only, and every other message reads as usual.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, unique, type TestApp } from '../setup/harness.js';
import { captureLog, useMessageKeys } from '../setup/log-capture.js';
import { circle, send, startConversation } from './helpers.js';

const K1 = `k1:${randomBytes(32).toString('base64')}`;
const K2 = `k2:${randomBytes(32).toString('base64')}`;

const { lines: logLines, log, errors: loggedErrors } = captureLog();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ MESSAGE_KEYS: K1 }, { log });
});
afterAll(() => t.close());

const useKeys = (keys: string) => useMessageKeys(t, keys);
const logged = () => logLines.join('');

describe('an undecryptable message in a history', () => {
  it('is a placeholder; the rest of the history reads (REST and tRPC), the log names ids only', async () => {
    useKeys(K1);
    const secret = `unreadable-secret-${unique('u')}`;
    const [a, b] = await circle(t, 2);
    const c = await startConversation(t, a!, [b!]);
    const first = await send(t, a!, c._id, `${secret} first`);
    const damaged = await send(t, b!, c._id, `${secret} damaged`);
    const last = await send(t, a!, c._id, `${secret} last`);
    // One bit of its ciphertext flipped.
    await t.deps.database.rows(
      sql`update messages set ciphertext = set_byte(ciphertext, 0, get_byte(ciphertext, 0) # 1) where id = ${damaged._id}::uuid`,
    );

    const rest = await t.request('GET', `/api/conversations/${c._id}/messages`, { token: a!.token });
    expect(rest.status).toBe(200);
    expect(rest.body.items.map((m: { _id: string }) => m._id)).toEqual([last._id, damaged._id, first._id]);
    expect(rest.body.items[1]).toEqual({
      _id: damaged._id,
      conversationId: c._id,
      sender: { _id: b!.id, handle: b!.handle },
      body: '',
      unreadable: true,
      createdAt: damaged.createdAt,
      expiresAt: damaged.expiresAt,
    });
    expect(rest.body.items[0]).toEqual({ ...last, sender: { _id: a!.id, handle: a!.handle } });
    expect('unreadable' in rest.body.items[0]).toBe(false);
    const typed = await t.trpc(b!.token).conversations.listMessages.query({ id: c._id });
    expect(typed.items.map((m) => [m.body, m.unreadable])).toEqual([
      [`${secret} last`, undefined],
      ['', true],
      [`${secret} first`, undefined],
    ]);

    const line = logLines.find((l) => l.includes('served as an unreadable placeholder'));
    expect(JSON.parse(line!)).toMatchObject({ conversationId: c._id, messageId: damaged._id, keyId: 'k1' });
    expect(loggedErrors()).toContain(`message ${damaged._id}: authentication failed under key "k1"`);
    expect(logged()).not.toContain(secret);
  });

  it('under a key MESSAGE_KEYS no longer lists: placeholders, and the history still pages', async () => {
    useKeys(K1);
    const [a, b] = await circle(t, 2);
    const c = await startConversation(t, a!, [b!]);
    await send(t, a!, c._id, 'under k1');
    useKeys(`${K1},${K2}`);
    await send(t, b!, c._id, 'under k2');
    useKeys(K2);
    try {
      const page = await t.request('GET', `/api/conversations/${c._id}/messages?limit=1`, { token: a!.token });
      expect(page.status).toBe(200);
      expect(page.body.items.map((m: { body: string }) => m.body)).toEqual(['under k2']);
      const next = await t.request(
        'GET',
        `/api/conversations/${c._id}/messages?limit=1&cursor=${page.body.nextCursor}`,
        {
          token: a!.token,
        },
      );
      expect(next.status).toBe(200);
      expect(next.body.items).toMatchObject([{ body: '', unreadable: true }]);
      expect(loggedErrors()).toContain('is encrypted with key "k1", which MESSAGE_KEYS no longer lists');
    } finally {
      useKeys(K1);
    }
  });
});
