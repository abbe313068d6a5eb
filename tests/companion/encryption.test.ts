// Companion text at rest: what a member asks, what the assistant answers, the library items the
// answer cites (they tell what was asked about) and the conversation's title are sealed under
// MESSAGE_KEYS, proven by canaries that no column of any table (bytea read
// as text too) and no log line contains, while every read still shows the text. A ciphertext
// moved to another row or conversation, or under a key no longer configured, does not open: the
// history shows it as a placeholder (`unreadable: true`), other reads fail, both logged with ids only. Rows written in clear before encryption stay
// readable and are sealed by the rekey, which also moves companion rows to the newest key.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageKeyring } from '../../server/crypto/message-keys.js';
import { rekeyCompanion } from '../../server/domains/companion/rekey.js';
import { createCategory, createGuide, uniqueSlug } from '../library/helpers.js';
import { findInEveryTable } from '../setup/db-scan.js';
import { createMember, createTestApp, unique, type TestApp, type TestMember } from '../setup/harness.js';
import { captureLog, useMessageKeys } from '../setup/log-capture.js';
import { chatSse, type FakeProvider, insertLegacyConversation, replyOf, startFakeProvider } from './helpers.js';

const key = () => randomBytes(32).toString('base64');
const K1 = `k1:${key()}`;
const K2 = `k2:${key()}`;
/** Every reply of the fake model carries this. */
const REPLY_CANARY = `reply-canary-${randomBytes(6).toString('hex')}`;
const REPLY = `Here is an answer: ${REPLY_CANARY}.`;

const { lines: logLines, log, errors: loggedErrors } = captureLog();
let t: TestApp;
let provider: FakeProvider;
beforeAll(async () => {
  provider = await startFakeProvider(['Here is an answer: ', `${REPLY_CANARY}.`]);
  t = await createTestApp(
    { MESSAGE_KEYS: K1, COMPANION_BASE_URL: provider.baseUrl, COMPANION_MODEL: 'test-model' },
    { log },
  );
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

const useKeys = (keys: string) => useMessageKeys(t, keys);

interface RawMessage {
  id: string;
  conversation_id: string;
  content: string | null;
  key_id: string | null;
  nonce: Uint8Array | null;
  ciphertext: Uint8Array | null;
  sources: unknown;
  sources_nonce: Uint8Array | null;
  sources_ciphertext: Uint8Array | null;
}
interface RawConversation {
  id: string;
  title: string | null;
  title_key_id: string | null;
  title_nonce: Uint8Array | null;
  title_ciphertext: Uint8Array | null;
}

async function rawMessages(conversationIds: string[]) {
  return t.deps.database.rows<RawMessage>(sql`
    select id, conversation_id, content, key_id, nonce, ciphertext, sources, sources_nonce, sources_ciphertext
    from companion_messages
    where conversation_id in (${sql.join(
      conversationIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) order by id`);
}

async function rawConversations(ids: string[]) {
  return t.deps.database.rows<RawConversation>(sql`
    select id, title, title_key_id, title_nonce, title_ciphertext from companion_conversations
    where id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) order by id`);
}

/** Bytes as a reader of a dump would see them (every byte a character). */
const asText = (bytes: Uint8Array | null) => (bytes ? Buffer.from(bytes).toString('latin1') : '');

/** Message contents through REST and through tRPC, which must agree; newest first. */
async function contents(member: TestMember, conversationId: string): Promise<string[]> {
  const rest = await t.request('GET', `/api/companion/conversations/${conversationId}/messages`, {
    token: member.token,
  });
  expect(rest.status).toBe(200);
  const typed = await t.trpc(member.token).companion.listMessages.query({ id: conversationId });
  const texts = rest.body.items.map((m: { content: string }) => m.content);
  expect(typed.items.map((m) => m.content)).toEqual(texts);
  return texts;
}

/** Each message's sources through REST and through tRPC, which must agree; newest first. */
async function sourcesOf(member: TestMember, conversationId: string): Promise<unknown[]> {
  const rest = await t.request('GET', `/api/companion/conversations/${conversationId}/messages`, {
    token: member.token,
  });
  expect(rest.status).toBe(200);
  const typed = await t.trpc(member.token).companion.listMessages.query({ id: conversationId });
  const lists = rest.body.items.map((m: { sources: unknown[] }) => m.sources);
  expect(typed.items.map((m) => m.sources)).toEqual(lists);
  return lists;
}

/** Rows of the companion tables (every column as text, bytea included) that contain a needle. */
async function companionRowsContaining(needle: string): Promise<number> {
  const [row] = await t.deps.database.rows<{ n: number }>(sql`
    select (select count(*) from companion_messages r where strpos(lower(r::text), lower(${needle})) > 0)
      + (select count(*) from companion_conversations r where strpos(lower(r::text), lower(${needle})) > 0) as n`);
  return Number(row!.n);
}

/** Titles by conversation id through REST and through tRPC, which must agree. */
async function titles(member: TestMember): Promise<Record<string, string | null>> {
  const rest = await t.request('GET', '/api/companion/conversations', { token: member.token });
  expect(rest.status).toBe(200);
  const typed = await t.trpc(member.token).companion.listConversations.query({});
  const byId = Object.fromEntries(rest.body.items.map((c: { _id: string; title: string | null }) => [c._id, c.title]));
  expect(Object.fromEntries(typed.items.map((c) => [c._id, c.title]))).toEqual(byId);
  return byId;
}

/**
 * The history as REST and tRPC show it (which must agree), where a message no key opens is a
 * placeholder; newest first.
 */
async function placeholders(member: TestMember, conversationId: string) {
  const rest = await t.request('GET', `/api/companion/conversations/${conversationId}/messages`, {
    token: member.token,
  });
  expect(rest.status).toBe(200);
  const typed = await t.trpc(member.token).companion.listMessages.query({ id: conversationId });
  const shown = (items: { _id: string; content: string; sources: unknown[]; unreadable?: true }[]) =>
    items.map(({ _id, content, sources, unreadable }) => ({
      _id,
      content,
      sources,
      ...(unreadable ? { unreadable } : {}),
    }));
  expect(shown(typed.items)).toEqual(shown(rest.body.items));
  return shown(rest.body.items) as { _id: string; content: string; sources: unknown[]; unreadable?: true }[];
}

/** The error a failed read answers: the generic 500, nothing of the text. */
function expectGenericFailure(res: { status: number; body: any; text: string }) {
  expect(res.status).toBe(500);
  expect(res.body).toEqual({ error: { code: 'internal_error', message: 'Something went wrong on our side.' } });
}

const logged = () => logLines.join('');

describe('companion text at rest', () => {
  it("a turn's message, reply and title are stored only as ciphertext; reads show them as sent", async () => {
    useKeys(K1);
    const member = await createMember(t);
    const canary = `companion-canary-${unique('c')}`;
    const streamed = await chatSse(t, member, { message: `${canary} over the stream` });
    expect(streamed.status).toBe(200);
    expect(replyOf(streamed.events)).toBe(REPLY);
    const a = streamed.events[0]!.data.conversationId as string;
    const typed = await t.trpc(member.token).companion.chat.mutate({ message: `${canary} over tRPC` });
    expect(typed.reply).toBe(REPLY);
    // The JSON answer under an Idempotency-Key: the route does not store answers for replay.
    const json = await t.request('POST', '/api/companion/chat', {
      token: member.token,
      body: { message: `${canary} as JSON` },
      headers: { accept: 'application/json', 'idempotency-key': unique('idem') },
    });
    expect(json.status).toBe(200);
    const again = await chatSse(t, member, { conversationId: a, message: `${canary} follow-up` });
    expect(again.events.at(-1)!.event).toBe('done');
    // The history went to the model opened: the first turn, in clear, before the new message.
    const sent = provider.requests.at(-1)!.body.messages.map((m: { content: string }) => m.content);
    expect(sent.slice(-3)).toEqual([`${canary} over the stream`, REPLY, `${canary} follow-up`]);

    const conversationIds = [a, typed.conversationId, json.body.conversationId as string];
    expect(await findInEveryTable(t.deps.database, [canary, REPLY_CANARY])).toEqual([]);
    const messages = await rawMessages(conversationIds);
    expect(messages).toHaveLength(8);
    for (const row of messages) {
      expect(row.content).toBeNull();
      expect(row.key_id).toBe('k1');
      expect(Buffer.from(row.nonce!)).toHaveLength(12);
      expect(asText(row.ciphertext)).not.toContain(canary);
      expect(asText(row.ciphertext)).not.toContain(REPLY_CANARY);
    }
    const conversations = await rawConversations(conversationIds);
    expect(conversations).toHaveLength(3);
    for (const row of conversations) {
      expect(row.title).toBeNull();
      expect(row.title_key_id).toBe('k1');
      expect(Buffer.from(row.title_nonce!)).toHaveLength(12);
      expect(asText(row.title_ciphertext)).not.toContain(canary);
    }

    expect(await contents(member, a)).toEqual([REPLY, `${canary} follow-up`, REPLY, `${canary} over the stream`]);
    expect(await contents(member, typed.conversationId)).toEqual([REPLY, `${canary} over tRPC`]);
    expect(await titles(member)).toEqual({
      [a]: `${canary} over the stream`,
      [typed.conversationId]: `${canary} over tRPC`,
      [json.body.conversationId]: `${canary} as JSON`,
    });
    const pinned = await t.trpc(member.token).companion.pinConversation.mutate({ id: a, pinned: true });
    expect(pinned.title).toBe(`${canary} over the stream`);
    expect(logLines.length).toBeGreaterThan(10);
    expect(logged()).not.toContain(canary);
    expect(logged()).not.toContain(REPLY_CANARY);

    // Deleting a conversation, then the account, still removes every row (FK cascades).
    expect((await t.request('DELETE', `/api/companion/conversations/${a}`, { token: member.token })).status).toBe(200);
    expect(await rawMessages([a])).toEqual([]);
    expect((await t.request('DELETE', '/api/me', { token: member.token })).status).toBe(200);
    expect(await rawConversations(conversationIds)).toEqual([]);
    expect(await rawMessages(conversationIds)).toEqual([]);
  });

  it('a ciphertext copied onto another row or conversation does not open: a logged 500 naming ids, no text', async () => {
    useKeys(K1);
    const member = await createMember(t);
    const secret = `moved-secret-${unique('s')}`;
    const api = t.trpc(member.token);
    const a = await api.companion.chat.mutate({ message: `${secret} in A` });
    const b = await api.companion.chat.mutate({ message: `${secret} in B` });
    const c = await api.companion.chat.mutate({ message: `${secret} in C` });
    const copyMessage = (from: string, to: string) =>
      t.deps.database.rows(sql`
        update companion_messages set key_id = s.key_id, nonce = s.nonce, ciphertext = s.ciphertext
        from companion_messages s where s.id = ${from}::uuid and companion_messages.id = ${to}::uuid`);

    // Within a conversation: A's question over A's reply. The history shows it as a placeholder.
    await copyMessage(a.userMessageId, a.replyMessageId);
    expect(await placeholders(member, a.conversationId)).toEqual([
      { _id: a.replyMessageId, content: '', sources: [], unreadable: true },
      { _id: a.userMessageId, content: `${secret} in A`, sources: [] },
    ]);
    expect(loggedErrors()).toContain(`companion message ${a.replyMessageId}: authentication failed under key "k1"`);
    // Across conversations: A's question over B's question; continuing B fails before the stream.
    await copyMessage(a.userMessageId, b.userMessageId);
    expect((await placeholders(member, b.conversationId)).map((m) => m.unreadable)).toEqual([undefined, true]);
    expect(loggedErrors()).toContain(`companion message ${b.userMessageId}: authentication failed`);
    const requestsBefore = provider.requests.length;
    const continued = await chatSse(t, member, { conversationId: b.conversationId, message: 'and then?' });
    expectGenericFailure(continued);
    expect(provider.requests.length).toBe(requestsBefore);
    // A title onto another conversation.
    await t.deps.database.rows(sql`
      update companion_conversations set title_key_id = s.title_key_id, title_nonce = s.title_nonce,
        title_ciphertext = s.title_ciphertext
      from companion_conversations s where s.id = ${a.conversationId}::uuid and companion_conversations.id = ${c.conversationId}::uuid`);
    expectGenericFailure(await t.request('GET', '/api/companion/conversations', { token: member.token }));
    expect(loggedErrors()).toContain(`title of companion conversation ${c.conversationId}: authentication failed`);
    expect(logged()).not.toContain(secret);

    // Rows that do not open can still be deleted, with their messages.
    for (const id of [a.conversationId, b.conversationId, c.conversationId])
      expect((await t.request('DELETE', `/api/companion/conversations/${id}`, { token: member.token })).status).toBe(
        200,
      );
    expect(await rawMessages([a.conversationId, b.conversationId, c.conversationId])).toEqual([]);
  });

  it('a row under a key MESSAGE_KEYS no longer lists fails every read with a logged 500 naming the key, no text', async () => {
    useKeys(K1);
    const member = await createMember(t);
    const secret = `retired-key-secret-${unique('s')}`;
    const turn = await t.trpc(member.token).companion.chat.mutate({ message: secret });
    useKeys(K2);
    try {
      expect((await placeholders(member, turn.conversationId)).map((m) => [m.content, m.unreadable])).toEqual([
        ['', true],
        ['', true],
      ]);
      expect(loggedErrors()).toContain(
        `companion message ${turn.replyMessageId} is encrypted with key "k1", which MESSAGE_KEYS no longer lists`,
      );
      expectGenericFailure(await t.request('GET', '/api/companion/conversations', { token: member.token }));
      expect(loggedErrors()).toContain(
        `title of companion conversation ${turn.conversationId} is encrypted with key "k1"`,
      );
      const continued = await chatSse(t, member, { conversationId: turn.conversationId, message: 'more?' });
      expectGenericFailure(continued);
      expect((await rawMessages([turn.conversationId])).length).toBe(2);
      expect(logged()).not.toContain(secret);
    } finally {
      useKeys(K1);
    }
    expect(await contents(member, turn.conversationId)).toEqual([REPLY, secret]);
    await t.request('DELETE', '/api/me', { token: member.token });
  });
});

describe("a reply's sources at rest", () => {
  const topic = `snorvel${process.pid.toString(36)}${Date.now().toString(36)}`;
  let guides: { slug: string; title: string }[];
  beforeAll(async () => {
    const admin = await createMember(t, { admin: true });
    const category = await createCategory(t, admin);
    guides = [];
    for (const name of ['first', 'second'])
      guides.push(
        await createGuide(t, admin, category, {
          title: `Sourcecanary ${name} ${randomBytes(4).toString('hex')} ${topic}`,
          slug: uniqueSlug(`source-canary-${name}`),
          body: `How to ${topic}.`,
        }),
      );
  });

  it('are stored only as ciphertext, bound to their message; reads and the answer list them', async () => {
    useKeys(K1);
    const member = await createMember(t);
    const api = t.trpc(member.token);
    const turn = await api.companion.chat.mutate({ message: `Where do I start with ${topic}?` });
    const expected = guides
      .map((g) => ({ type: 'guide', slug: g.slug, title: g.title }))
      .sort((a, b) => a.slug.localeCompare(b.slug));
    const bySlug = (list: { slug: string }[]) => [...list].sort((a, b) => a.slug.localeCompare(b.slug));
    expect(bySlug(turn.sources)).toEqual(expected);
    const [replySources, questionSources] = (await sourcesOf(member, turn.conversationId)) as { slug: string }[][];
    expect(replySources).toEqual(turn.sources);
    expect(questionSources).toEqual([]);

    const [question, reply] = await rawMessages([turn.conversationId]);
    expect(question).toMatchObject({ sources: null, sources_nonce: null, sources_ciphertext: null });
    expect(reply!.sources).toBeNull();
    expect(Buffer.from(reply!.sources_nonce!)).toHaveLength(12);
    expect(reply!.key_id).toBe('k1');
    for (const guide of guides) {
      expect(await companionRowsContaining(guide.slug)).toBe(0);
      expect(await companionRowsContaining(guide.title.split(' ')[2]!)).toBe(0);
    }

    // Another reply's sealed sources copied onto this one do not open: a logged 500, ids only.
    const other = await api.companion.chat.mutate({ message: `And more on ${topic}?` });
    await t.deps.database.rows(sql`
      update companion_messages set sources_nonce = s.sources_nonce, sources_ciphertext = s.sources_ciphertext
      from companion_messages s where s.id = ${other.replyMessageId}::uuid
        and companion_messages.id = ${turn.replyMessageId}::uuid`);
    expect((await placeholders(member, turn.conversationId)).map((m) => m.unreadable)).toEqual([true, undefined]);
    expect(loggedErrors()).toContain(`sources of companion message ${turn.replyMessageId}: authentication failed`);
    expect(logged()).not.toContain(guides[0]!.slug);
    await t.request('DELETE', '/api/me', { token: member.token });
  });

  it('move to the newest key with their message', async () => {
    useKeys(K1);
    const member = await createMember(t);
    const turn = await t.trpc(member.token).companion.chat.mutate({ message: `Tell me about ${topic}` });
    useKeys(`${K1},${K2}`);
    try {
      const before = await rawMessages([turn.conversationId]);
      const result = await rekeyCompanion(t.deps.database, messageKeyring(t.deps.config));
      expect(result).toMatchObject({ plaintextLeft: 0, keysInUse: ['k2'] });
      const after = await rawMessages([turn.conversationId]);
      expect(after.map((r) => r.key_id)).toEqual(['k2', 'k2']);
      expect(asText(after[1]!.sources_nonce)).not.toBe(asText(before[1]!.sources_nonce));
      useKeys(K2);
      expect(await sourcesOf(member, turn.conversationId)).toEqual([turn.sources, []]);
    } finally {
      // Every companion row is back under k1 for the tests after this one.
      useKeys(`${K2},${K1}`);
      await rekeyCompanion(t.deps.database, messageKeyring(t.deps.config));
      useKeys(K1);
    }
    await t.request('DELETE', '/api/me', { token: member.token });
  });
});

describe('legacy rows and the rekey', () => {
  it('rows stored in clear before encryption stay readable, and the rekey seals them', async () => {
    useKeys(K1);
    const member = await createMember(t);
    const legacy = `legacy-canary-${unique('l')}`;
    const legacySource = { type: 'guide' as const, slug: uniqueSlug('legacy-source'), title: `${legacy} guide` };
    const { conversationId, messageIds } = await insertLegacyConversation(t, member, `${legacy} title`, [
      { role: 'user', content: `${legacy} question` },
      { role: 'assistant', content: `${legacy} answer`, sources: [legacySource] },
    ]);
    expect(await contents(member, conversationId)).toEqual([`${legacy} answer`, `${legacy} question`]);
    expect(await sourcesOf(member, conversationId)).toEqual([[legacySource], []]);
    expect((await titles(member))[conversationId]).toBe(`${legacy} title`);
    // Continuing it: the legacy history reaches the model; the new turn is sealed at once.
    const turn = await t.trpc(member.token).companion.chat.mutate({ conversationId, message: 'still there?' });
    const sent = provider.requests.at(-1)!.body.messages.map((m: { content: string }) => m.content);
    expect(sent.slice(-3)).toEqual([`${legacy} question`, `${legacy} answer`, 'still there?']);
    const before = await rawMessages([conversationId]);
    expect(before.map((r) => [r.content !== null, r.ciphertext !== null])).toEqual([
      [true, false],
      [true, false],
      [false, true],
      [false, true],
    ]);
    expect((await findInEveryTable(t.deps.database, [legacy])).sort()).toEqual([
      'public.companion_conversations: 1',
      'public.companion_messages: 2',
    ]);

    const result = await rekeyCompanion(t.deps.database, messageKeyring(t.deps.config), { batchSize: 1 });
    expect(result).toMatchObject({ plaintextLeft: 0, keysInUse: ['k1'] });
    expect(result.messagesSealed).toBeGreaterThanOrEqual(2);
    expect(result.titlesSealed).toBeGreaterThanOrEqual(1);

    expect(await findInEveryTable(t.deps.database, [legacy, legacySource.slug])).toEqual([]);
    const after = await rawMessages([conversationId]);
    expect(after.map((r) => [r.sources, r.sources_ciphertext !== null])).toEqual([
      [null, false],
      [null, true],
      [null, false],
      [null, false],
    ]);
    expect(after.map((r) => [r.id, r.content, r.key_id])).toEqual([
      [messageIds[0], null, 'k1'],
      [messageIds[1], null, 'k1'],
      [turn.userMessageId, null, 'k1'],
      [turn.replyMessageId, null, 'k1'],
    ]);
    // The turn sealed under the current key was left as it was.
    expect(asText(after[3]!.nonce)).toBe(asText(before[3]!.nonce));
    const [conversation] = await rawConversations([conversationId]);
    expect(conversation).toMatchObject({ title: null, title_key_id: 'k1' });
    expect(await contents(member, conversationId)).toEqual([
      REPLY,
      'still there?',
      `${legacy} answer`,
      `${legacy} question`,
    ]);
    expect((await titles(member))[conversationId]).toBe(`${legacy} title`);
    expect(await sourcesOf(member, conversationId)).toEqual([[], [], [legacySource], []]);
    expect(logged()).not.toContain(legacy);
  });

  it('migration 0028 empties the legacy sources that tell nothing and keeps the rest for the rekey', async () => {
    const member = await createMember(t);
    const kept = { type: 'media' as const, slug: uniqueSlug('kept'), title: 'Kept in clear until the rekey' };
    const { conversationId } = await insertLegacyConversation(t, member, 'before 0028', [
      { role: 'user', content: 'question', sources: [] },
      { role: 'assistant', content: 'answer', sources: [kept] },
    ]);
    // The hand-written statement of the migration, run again over rows written as before it.
    const migration = readFileSync(
      new URL('../../migrations/0028_companion_sealed_sources.sql', import.meta.url),
      'utf8',
    );
    const update = migration.split('--> statement-breakpoint').at(-1)!;
    expect(update).toContain('UPDATE "companion_messages" SET "sources" = NULL');
    await t.deps.database.rows(sql.raw(update));
    expect((await rawMessages([conversationId])).map((r) => r.sources)).toEqual([null, [kept]]);
    const result = await rekeyCompanion(t.deps.database, messageKeyring(t.deps.config));
    expect(result.plaintextLeft).toBe(0);
    expect((await rawMessages([conversationId])).map((r) => r.sources)).toEqual([null, null]);
    expect(await sourcesOf(member, conversationId)).toEqual([[kept], []]);
  });

  it('moves companion messages and titles from an old key to the newest; the old key can then go', async () => {
    useKeys(K1);
    const member = await createMember(t);
    const api = t.trpc(member.token);
    const first = await api.companion.chat.mutate({ message: 'asked under k1' });
    useKeys(`${K1},${K2}`);
    await api.companion.chat.mutate({ conversationId: first.conversationId, message: 'asked under k2' });
    const second = await api.companion.chat.mutate({ message: 'new under k2' });
    const ids = [first.conversationId, second.conversationId];
    const before = await rawMessages(ids);
    expect(before.map((r) => r.key_id)).toEqual(['k1', 'k1', 'k2', 'k2', 'k2', 'k2']);
    expect((await rawConversations(ids)).map((r) => r.title_key_id)).toEqual(['k1', 'k2']);

    const result = await rekeyCompanion(t.deps.database, messageKeyring(t.deps.config), { batchSize: 2 });
    expect(result).toMatchObject({ messagesSealed: 0, titlesSealed: 0, plaintextLeft: 0, keysInUse: ['k2'] });
    expect(result.messagesRekeyed).toBeGreaterThanOrEqual(2);
    expect(result.titlesRekeyed).toBeGreaterThanOrEqual(1);
    const after = await rawMessages(ids);
    expect(after.map((r) => r.key_id)).toEqual(['k2', 'k2', 'k2', 'k2', 'k2', 'k2']);
    // Sealed again with fresh nonces; rows already under k2 were left alone.
    expect(asText(after[0]!.nonce)).not.toBe(asText(before[0]!.nonce));
    expect(after.slice(2).map((r) => asText(r.nonce))).toEqual(before.slice(2).map((r) => asText(r.nonce)));
    expect((await rawConversations(ids)).map((r) => r.title_key_id)).toEqual(['k2', 'k2']);

    // k1 dropped from the configuration: everything still reads.
    useKeys(K2);
    try {
      expect(await contents(member, first.conversationId)).toEqual([REPLY, 'asked under k2', REPLY, 'asked under k1']);
      expect(await titles(member)).toEqual({
        [first.conversationId]: 'asked under k1',
        [second.conversationId]: 'new under k2',
      });
      // A second run has nothing to do.
      expect(await rekeyCompanion(t.deps.database, messageKeyring(t.deps.config))).toMatchObject({
        messagesSealed: 0,
        messagesRekeyed: 0,
        titlesSealed: 0,
        titlesRekeyed: 0,
        plaintextLeft: 0,
      });
    } finally {
      useKeys(K1);
    }
  });
});
