// Group conversation titles at rest: sealed under MESSAGE_KEYS like companion titles (a canary
// title, set at creation or by PATCH, is in no column of any table and no log line), opened for
// every read (REST, tRPC, realtime payloads); a title no key opens reads as none (logged with
// ids); titles stored in clear before the sealing stay readable and the rekey seals them and
// moves titles to the newest key. The push that names a group is in
// tests/notifications/message-pushes.test.ts.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageKeyring } from '../../server/crypto/message-keys.js';
import { rekeyMessages } from '../../server/domains/conversations/rekey.js';
import { findInEveryTable } from '../setup/db-scan.js';
import { createTestApp, unique, type TestApp, type TestMember } from '../setup/harness.js';
import { captureLog, useMessageKeys } from '../setup/log-capture.js';
import { circle, recordRealtime, startConversation } from './helpers.js';

const key = () => randomBytes(32).toString('base64');
const K1 = `k1:${key()}`;
const K2 = `k2:${key()}`;

const { lines: logLines, log } = captureLog();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ MESSAGE_KEYS: K1 }, { log });
});
afterAll(() => t.close());

const useKeys = (keys: string) => useMessageKeys(t, keys);
const logged = () => logLines.join('');

interface RawTitle {
  title: string | null;
  title_key_id: string | null;
  title_nonce: Uint8Array | null;
  title_ciphertext: Uint8Array | null;
}
async function raw(conversationId: string): Promise<RawTitle> {
  const [row] = await t.deps.database.rows<RawTitle>(
    sql`select title, title_key_id, title_nonce, title_ciphertext from conversations where id = ${conversationId}::uuid`,
  );
  return row!;
}

/** The title as a member reads it: the list and the conversation, REST and tRPC, which must agree. */
async function titleSeenBy(member: TestMember, conversationId: string): Promise<string | null> {
  const one = await t.request('GET', `/api/conversations/${conversationId}`, { token: member.token });
  expect(one.status).toBe(200);
  const list = await t.request('GET', '/api/conversations?limit=100', { token: member.token });
  expect(list.status).toBe(200);
  const api = t.trpc(member.token).conversations;
  const typed = await api.get.query({ id: conversationId });
  const typedList = await api.list.query({ limit: 100 });
  const inList = list.body.items.find((c: { _id: string }) => c._id === conversationId).title;
  expect([inList, typed.title, typedList.items.find((c) => c._id === conversationId)!.title]).toEqual([
    one.body.title,
    one.body.title,
    one.body.title,
  ]);
  return one.body.title;
}

describe('group titles at rest', () => {
  it('are stored only as ciphertext, at creation and when changed; every read and realtime payload shows them', async () => {
    useKeys(K1);
    const canary = `title-canary-${unique('t')}`;
    const [a, b, c] = await circle(t, 3);
    const recorder = recordRealtime(t.deps);
    let group: { _id: string };
    try {
      group = await startConversation(t, a!, [b!, c!], `${canary} created`);
      const changed = await t.trpc(b!.token).conversations.update.mutate({ id: group._id, title: `${canary} changed` });
      expect(changed.title).toBe(`${canary} changed`);
      const created = recorder.calls.find((call) => call.event === 'conversation.created');
      expect(created?.payload.conversation.title).toBe(`${canary} created`);
      const change = recorder.calls.find((call) => call.event === 'conversation.changed');
      expect(change?.payload.conversation.title).toBe(`${canary} changed`);
    } finally {
      recorder.uninstall();
    }
    expect(await titleSeenBy(c!, group._id)).toBe(`${canary} changed`);
    const stored = await raw(group._id);
    expect(stored.title).toBeNull();
    expect(stored.title_key_id).toBe('k1');
    expect(Buffer.from(stored.title_nonce!)).toHaveLength(12);
    expect(await findInEveryTable(t.deps.database, [canary])).toEqual([]);
    expect(logLines.length).toBeGreaterThan(10);
    expect(logged()).not.toContain(canary);

    // Cleared: nothing sealed is left.
    await t.request('PATCH', `/api/conversations/${group._id}`, { token: a!.token, body: { title: null } });
    expect(await raw(group._id)).toEqual({
      title: null,
      title_key_id: null,
      title_nonce: null,
      title_ciphertext: null,
    });
    expect(await titleSeenBy(a!, group._id)).toBeNull();
  });

  it('a title copied onto another conversation does not open: it reads as none, logged with ids only', async () => {
    useKeys(K1);
    const secret = `moved-title-${unique('s')}`;
    const [a, b, c] = await circle(t, 3);
    const one = await startConversation(t, a!, [b!, c!], `${secret} one`);
    const two = await startConversation(t, a!, [b!, c!], `${secret} two`);
    await t.deps.database.rows(sql`
      update conversations set title_key_id = s.title_key_id, title_nonce = s.title_nonce, title_ciphertext = s.title_ciphertext
      from conversations s where s.id = ${one._id}::uuid and conversations.id = ${two._id}::uuid`);
    expect(await titleSeenBy(b!, two._id)).toBeNull();
    expect(await titleSeenBy(b!, one._id)).toBe(`${secret} one`);
    expect(logged()).toContain(`title of conversation ${two._id}: authentication failed under key`);
    expect(logged()).not.toContain(secret);
    // A new title replaces the damaged one (and leaves nothing for the rekey below to trip on).
    const renamed = await t.trpc(c!.token).conversations.update.mutate({ id: two._id, title: 'renamed' });
    expect(renamed.title).toBe('renamed');
  });
});

describe('titles stored in clear before the sealing, and the rekey', () => {
  it('stay readable; the rekey seals them and moves titles to the newest key; the old key can then go', async () => {
    useKeys(K1);
    const legacy = `legacy-title-${unique('l')}`;
    const [a, b, c] = await circle(t, 3);
    const old = await startConversation(t, a!, [b!, c!], 'placeholder');
    // As stored before the sealing: the title in clear.
    await t.deps.database.rows(sql`
      update conversations set title = ${legacy}, title_key_id = null, title_nonce = null, title_ciphertext = null
      where id = ${old._id}::uuid`);
    const sealed = await startConversation(t, a!, [b!, c!], 'sealed under k1');
    expect(await titleSeenBy(b!, old._id)).toBe(legacy);
    expect(await findInEveryTable(t.deps.database, [legacy])).toEqual(['public.conversations: 1']);

    useKeys(`${K1},${K2}`);
    try {
      const result = await rekeyMessages(t.deps.database, messageKeyring(t.deps.config), { batchSize: 1 });
      expect(result.titlesSealed).toBeGreaterThanOrEqual(1);
      expect(result.titlesRekeyed).toBeGreaterThanOrEqual(1);
      expect(result).toMatchObject({ plaintextLeft: 0, keysInUse: ['k2'] });
      expect(await findInEveryTable(t.deps.database, [legacy])).toEqual([]);
      expect(await raw(old._id)).toMatchObject({ title: null, title_key_id: 'k2' });
      expect((await raw(sealed._id)).title_key_id).toBe('k2');
      useKeys(K2);
      expect(await titleSeenBy(c!, old._id)).toBe(legacy);
      expect(await titleSeenBy(c!, sealed._id)).toBe('sealed under k1');
      const again = await rekeyMessages(t.deps.database, messageKeyring(t.deps.config));
      expect(again).toMatchObject({ rekeyed: 0, titlesSealed: 0, titlesRekeyed: 0, plaintextLeft: 0 });
    } finally {
      useKeys(`${K2},${K1}`);
      await rekeyMessages(t.deps.database, messageKeyring(t.deps.config));
      useKeys(K1);
    }
    expect(logged()).not.toContain(legacy);
  });
});
