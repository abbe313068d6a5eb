import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_LABEL, EMBEDDED_NOTHING } from '../../server/domains/companion/replies.js';
import { createCategory, createGuide, createMedia, uniqueSlug, MISSING_ID } from '../library/helpers.js';
import { createMember, createTestApp, unique, type TestApp, type TestMember } from '../setup/harness.js';
import { captureLog } from '../setup/log-capture.js';
import { chatSse, replyOf } from './helpers.js';

let t: TestApp;
let admin: TestMember;
const { lines: logLines, log } = captureLog();
/** A word no other test uses, so retrieval finds exactly the items seeded here. */
const topic = `zorblat${process.pid.toString(36)}${Date.now().toString(36)}`;
let guide: { slug: string; title: string };
let media: { slug: string; title: string };
let draft: { slug: string };

beforeAll(async () => {
  t = await createTestApp({}, { log });
  admin = await createMember(t, { admin: true });
  const category = await createCategory(t, admin);
  guide = await createGuide(t, admin, category, {
    title: `Feeding a crowd with ${topic}`,
    slug: uniqueSlug('g'),
    summary: `How to plan ${topic} dishes for twenty people.`,
    body: 'Cook in big pots.',
  });
  media = await createMedia(t, admin, { title: `The ${topic} story`, slug: uniqueSlug('m'), synopsis: 'A film.' });
  draft = await createGuide(
    t,
    admin,
    category,
    { title: `Secret ${topic} draft`, slug: uniqueSlug('d'), body: `Unpublished ${topic}.` },
    { publish: false },
  );
});
afterAll(() => t.close());

describe('chat without a language model (embedded retrieval answer)', () => {
  it('streams a labelled answer citing the published items, never a draft, and stores the turn', async () => {
    const member = await createMember(t);
    const res = await chatSse(t, member, { message: `Any ideas about ${topic} for a potluck?` });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const names = res.events.map((e) => e.event);
    expect(names[0]).toBe('meta');
    expect(names.at(-1)).toBe('done');
    expect(names.filter((n) => n === 'delta').length).toBeGreaterThan(1);
    const reply = replyOf(res.events);
    expect(reply.startsWith(EMBEDDED_LABEL)).toBe(true);
    expect(reply).toContain(`[guide:${guide.slug}]`);
    expect(reply).toContain(`[media:${media.slug}]`);
    expect(reply).not.toContain(draft.slug);
    const done = res.events.at(-1)!.data;
    const conversationId = res.events[0]!.data.conversationId;
    expect(done.conversationId).toBe(conversationId);
    expect(done.sources).toEqual(
      expect.arrayContaining([
        { type: 'guide', slug: guide.slug, title: guide.title },
        { type: 'media', slug: media.slug, title: media.title },
      ]),
    );
    expect(done.sources.map((s: { slug: string }) => s.slug)).not.toContain(draft.slug);

    const messages = await t.request('GET', `/api/companion/conversations/${conversationId}/messages`, {
      token: member.token,
    });
    expect(messages.status).toBe(200);
    expect(messages.body.items.map((m: { _id: string; role: string }) => [m._id, m.role])).toEqual([
      [done.replyMessageId, 'assistant'],
      [done.userMessageId, 'user'],
    ]);
    expect(messages.body.items[0].content).toBe(reply);
    expect(messages.body.items[0].sources).toEqual(done.sources);
    expect(messages.body.items[1].content).toBe(`Any ideas about ${topic} for a potluck?`);
  });

  it('says plainly when the library has nothing on it', async () => {
    const member = await createMember(t);
    const res = await chatSse(t, member, { message: `qwxzv${unique('n')} ?` });
    expect(res.status).toBe(200);
    expect(replyOf(res.events)).toBe(EMBEDDED_NOTHING);
    expect(res.events.at(-1)!.data.sources).toEqual([]);
  });

  it('continues a conversation, and the typed client gets the whole turn as JSON', async () => {
    const member = await createMember(t);
    const first = await t.trpc(member.token).companion.chat.mutate({ message: `${topic} please` });
    expect(first.reply.startsWith(EMBEDDED_LABEL)).toBe(true);
    expect(first.sources.length).toBe(2);
    const second = await chatSse(t, member, { conversationId: first.conversationId, message: 'And more?' });
    expect(second.events.at(-1)!.event).toBe('done');
    expect(second.events.at(-1)!.data.conversationId).toBe(first.conversationId);
    const messages = await t.trpc(member.token).companion.listMessages.query({ id: first.conversationId });
    expect(messages.items).toHaveLength(4);
    const list = await t.trpc(member.token).companion.listConversations.query({});
    expect(list.items.map((c) => c._id)).toEqual([first.conversationId]);
    expect(list.items[0]!.title).toBe(`${topic} please`);
  });

  it('refuses before the stream with the JSON envelope: 400, 401, 404', async () => {
    const member = await createMember(t);
    const invalid = await chatSse(t, member, { message: '   ' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('validation_failed');
    const extra = await chatSse(t, member, { message: 'hi', role: 'system' });
    expect(extra.status).toBe(400);
    const anonymous = await t.request('POST', '/api/companion/chat', { body: { message: 'hi' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('unauthorized');
    const missing = await chatSse(t, member, { conversationId: MISSING_ID, message: 'hi' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    const malformed = await t.request('POST', '/api/companion/chat', {
      token: member.token,
      rawBody: '{"message":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
  });
});

describe('conversations', () => {
  it('lists newest activity first, filters by pinned, pins and unpins', async () => {
    const member = await createMember(t);
    const api = t.trpc(member.token);
    const a = await api.companion.chat.mutate({ message: 'first conversation' });
    const b = await api.companion.chat.mutate({ message: 'second conversation' });
    let list = await t.request('GET', '/api/companion/conversations', { token: member.token });
    expect(list.body.items.map((c: { _id: string }) => c._id)).toEqual([b.conversationId, a.conversationId]);
    // New activity in the older one moves it first.
    await chatSse(t, member, { conversationId: a.conversationId, message: 'back again' });
    list = await t.request('GET', '/api/companion/conversations?limit=1', { token: member.token });
    expect(list.body.items.map((c: { _id: string }) => c._id)).toEqual([a.conversationId]);
    const next = await t.request('GET', `/api/companion/conversations?limit=1&cursor=${list.body.nextCursor}`, {
      token: member.token,
    });
    expect(next.body.items.map((c: { _id: string }) => c._id)).toEqual([b.conversationId]);
    expect(next.body.nextCursor).toBeNull();

    const pinned = await t.request('POST', `/api/companion/conversations/${b.conversationId}/pin`, {
      token: member.token,
      body: { pinned: true },
    });
    expect(pinned.status).toBe(200);
    expect(pinned.body).toMatchObject({ _id: b.conversationId, pinned: true });
    const onlyPinned = await api.companion.listConversations.query({ pinned: 'true' });
    expect(onlyPinned.items.map((c) => c._id)).toEqual([b.conversationId]);
    const unpinnedOnes = await t.request('GET', '/api/companion/conversations?pinned=false', { token: member.token });
    expect(unpinnedOnes.body.items.map((c: { _id: string }) => c._id)).toEqual([a.conversationId]);
    const unpinned = await api.companion.pinConversation.mutate({ id: b.conversationId, pinned: false });
    expect(unpinned.pinned).toBe(false);
    const bad = await t.request('GET', '/api/companion/conversations?cursor=nope', { token: member.token });
    expect(bad.status).toBe(400);
  });

  it('deletes a conversation with its messages', async () => {
    const member = await createMember(t);
    const turn = await t.trpc(member.token).companion.chat.mutate({ message: 'to be deleted' });
    const deleted = await t.request('DELETE', `/api/companion/conversations/${turn.conversationId}`, {
      token: member.token,
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ok: true });
    const rows = await t.deps.database.rows<{ n: number }>(
      (await import('drizzle-orm'))
        .sql`select count(*)::int as n from companion_messages where conversation_id = ${turn.conversationId}::uuid`,
    );
    expect(Number(rows[0]!.n)).toBe(0);
    const again = await t
      .trpc(member.token)
      .companion.deleteConversation.mutate({ id: turn.conversationId })
      .catch((e) => e);
    expect(again.data.httpStatus).toBe(404);
  });

  it("another member's conversation answers 404 everywhere, as a missing one does", async () => {
    const owner = await createMember(t);
    const other = await createMember(t);
    const turn = await t.trpc(owner.token).companion.chat.mutate({ message: 'my private worries' });
    const id = turn.conversationId;
    const answers = [
      await t.request('GET', `/api/companion/conversations/${id}/messages`, { token: other.token }),
      await t.request('POST', `/api/companion/conversations/${id}/pin`, { token: other.token, body: { pinned: true } }),
      await t.request('DELETE', `/api/companion/conversations/${id}`, { token: other.token }),
      await chatSse(t, other, { conversationId: id, message: 'let me in' }),
      await t.request('GET', `/api/companion/conversations/${MISSING_ID}/messages`, { token: other.token }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 'not_found', message: 'No such conversation.' } });
    }
    const othersList = await t.request('GET', '/api/companion/conversations', { token: other.token });
    expect(othersList.body.items).toEqual([]);
    // Still intact for the owner.
    const mine = await t.trpc(owner.token).companion.listMessages.query({ id });
    expect(mine.items).toHaveLength(2);
  });

  it('account deletion removes the conversations (FK cascade)', async () => {
    const member = await createMember(t);
    const turn = await t.trpc(member.token).companion.chat.mutate({ message: 'soon gone' });
    const res = await t.request('DELETE', '/api/me', { token: member.token });
    expect(res.status).toBe(200);
    const rows = await t.deps.database.rows<{ n: number }>(
      (await import('drizzle-orm'))
        .sql`select count(*)::int as n from companion_conversations where id = ${turn.conversationId}::uuid`,
    );
    expect(Number(rows[0]!.n)).toBe(0);
  });
});

describe('privacy of prompts and replies', () => {
  it('a canary message and its reply never reach the log', async () => {
    const member = await createMember(t);
    const canary = `canary${unique('c')}`;
    await chatSse(t, member, { message: `${canary} ${topic}` });
    await t.trpc(member.token).companion.chat.mutate({ message: `${canary} again` });
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('')).not.toContain(canary);
    // The reply quoted the guide's summary: nor is that logged.
    expect(logLines.join('')).not.toContain(`How to plan ${topic} dishes`);
  });
});

describe('rate limit', () => {
  it('past the per-member limit answers 429 rate_limited with Retry-After, as JSON, before any stream', async () => {
    const limited = await createTestApp({
      COMPANION_RATE_LIMIT_PER_MEMBER: '2',
      COMPANION_RATE_LIMIT_WINDOW_SECONDS: '60',
    });
    try {
      const member = await createMember(limited);
      const other = await createMember(limited);
      expect((await chatSse(limited, member, { message: 'one' })).status).toBe(200);
      expect((await chatSse(limited, member, { message: 'two' })).status).toBe(200);
      const third = await chatSse(limited, member, { message: 'three' });
      expect(third.status).toBe(429);
      expect(third.headers.get('content-type')).toMatch(/^application\/json/);
      expect(third.body.error.code).toBe('rate_limited');
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      // The typed client's whole-turn chat shares the counter.
      const viaTrpc = await limited
        .trpc(member.token)
        .companion.chat.mutate({ message: 'four' })
        .catch((e) => e);
      expect(viaTrpc.data.code).toBe('rate_limited');
      // Per member: someone else is not affected.
      expect((await chatSse(limited, other, { message: 'one' })).status).toBe(200);
      // A new window lets the member in again.
      limited.clock.advance(61_000);
      expect((await chatSse(limited, member, { message: 'later' })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('Accept: application/json', () => {
  it('answers the whole turn as JSON over REST, like the typed client', async () => {
    const member = await createMember(t);
    const res = await t.request('POST', '/api/companion/chat', {
      token: member.token,
      body: { message: `${topic} as json` },
      headers: { accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.reply.startsWith(EMBEDDED_LABEL)).toBe(true);
    expect(res.body.sources).toHaveLength(2);
    const list = await t.request('GET', `/api/companion/conversations/${res.body.conversationId}/messages`, {
      token: member.token,
    });
    expect(list.body.items.map((m: { _id: string }) => m._id)).toEqual([
      res.body.replyMessageId,
      res.body.userMessageId,
    ]);
  });
});
