// The companion against an OpenAI-compatible provider: a real HTTP server started here speaks the
// chat-completions streaming protocol (SSE `data: {chunk}` lines, `data: [DONE]`). Normal, slow,
// failing (500), broken and hanging (timeout) streams, and a client that disconnects (the
// provider sees its request aborted). A turn that does not finish stores nothing.
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createGuide, uniqueSlug } from '../library/helpers.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { chatSse, parseSse, replyOf, startFakeProvider, type FakeProvider } from './helpers.js';
import { waitFor } from '../setup/wait.js';

let t: TestApp;
let provider: FakeProvider;
let server: ServerType;
let serverUrl: string;
const topic = `quimbly${process.pid.toString(36)}${Date.now().toString(36)}`;
let guide: { slug: string };
let draft: { slug: string };
const CHUNKS = ['Try a big ', 'lentil stew ', `[guide:placeholder].`];

beforeAll(async () => {
  provider = await startFakeProvider(CHUNKS);
  t = await createTestApp({
    COMPANION_BASE_URL: provider.baseUrl,
    COMPANION_MODEL: 'test-model',
    COMPANION_API_KEY: 'sk-test-key',
    COMPANION_TIMEOUT_MS: '1500',
  });
  const admin = await createMember(t, { admin: true });
  const category = await createCategory(t, admin);
  guide = await createGuide(t, admin, category, { title: `Potluck ${topic}`, slug: uniqueSlug('g'), body: 'Stews.' });
  draft = await createGuide(
    t,
    admin,
    category,
    { title: `Draft ${topic}`, slug: uniqueSlug('d'), body: 'Not yet.' },
    { publish: false },
  );
  await new Promise<void>((resolve) => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  (server as { closeAllConnections?: () => void })?.closeAllConnections?.();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await provider?.close();
  await t?.close();
});

async function storedConversations(member: TestMember): Promise<number> {
  const [row] = await t.deps.database.rows<{ n: number }>(
    sql`select count(*)::int as n from companion_conversations where user_id = ${member.id}::uuid`,
  );
  return Number(row!.n);
}

describe('chat through an OpenAI-compatible provider', () => {
  it('streams the model reply, grounded in published items only, and stores the turn', async () => {
    const member = await createMember(t);
    const before = provider.requests.length;
    const res = await chatSse(t, member, { message: `What about ${topic} for twenty?` });
    expect(res.status).toBe(200);
    expect(res.events.map((e) => e.event)).toEqual(['meta', 'delta', 'delta', 'delta', 'done']);
    expect(replyOf(res.events)).toBe(CHUNKS.join(''));
    const done = res.events.at(-1)!.data;
    expect(done.sources.map((s: { slug: string }) => s.slug)).toEqual([guide.slug]);

    const sent = provider.requests[before]!;
    expect(sent.authorization).toBe('Bearer sk-test-key');
    expect(sent.body.model).toBe('test-model');
    expect(sent.body.stream).toBe(true);
    const system = sent.body.messages[0];
    expect(system.role).toBe('system');
    expect(system.content).toContain(`[guide:${guide.slug}]`);
    expect(system.content).not.toContain(draft.slug);
    expect(sent.body.messages.at(-1)).toEqual({ role: 'user', content: `What about ${topic} for twenty?` });

    // The next message carries the stored history.
    const next = await chatSse(t, member, { conversationId: done.conversationId, message: 'And dessert?' });
    expect(next.events.at(-1)!.event).toBe('done');
    const history = provider.requests.at(-1)!.body.messages.slice(1);
    expect(history.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(history[1].content).toBe(CHUNKS.join(''));
  });

  it('waits for a slow provider within the timeout', async () => {
    const member = await createMember(t);
    const res = await chatSse(t, member, { message: 'mode-slow soup' });
    expect(res.events.at(-1)!.event).toBe('done');
    expect(replyOf(res.events)).toBe(CHUNKS.join(''));
    expect(await storedConversations(member)).toBe(1);
  });

  it('the typed client gets the whole reply as JSON', async () => {
    const member = await createMember(t);
    const turn = await t.trpc(member.token).companion.chat.mutate({ message: 'hello' });
    expect(turn.reply).toBe(CHUNKS.join(''));
    const failed = await t
      .trpc(member.token)
      .companion.chat.mutate({ message: 'mode-fail' })
      .catch((e) => e);
    expect(failed.data.code).toBe('unavailable');
    expect(failed.data.httpStatus).toBe(503);
  });

  for (const [mode, what] of [
    ['mode-fail', 'an HTTP 500'],
    ['mode-broken', 'a stream cut halfway'],
    ['mode-hang', 'a provider slower than COMPANION_TIMEOUT_MS'],
  ] as const) {
    it(`ends the stream with an error event on ${what}, storing nothing`, async () => {
      const member = await createMember(t);
      const res = await chatSse(t, member, { message: `${mode} please` });
      expect(res.status).toBe(200);
      const last = res.events.at(-1)!;
      expect(last.event).toBe('error');
      expect(last.data.code).toBe('unavailable');
      expect(typeof last.data.message).toBe('string');
      // The provider's own error text (which quotes the prompt) is not passed on.
      expect(last.data.message).not.toContain('please');
      expect(res.events.some((e) => e.event === 'done')).toBe(false);
      expect(await storedConversations(member)).toBe(0);
    });
  }

  it('a client that disconnects aborts the provider request and stores nothing', async () => {
    const member = await createMember(t);
    const before = provider.requests.length;
    const controller = new AbortController();
    const response = await fetch(`${serverUrl}/api/companion/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${member.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'mode-hang tell me everything' }),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('event: delta')) {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
    }
    expect(parseSse(text)[0]!.event).toBe('meta');
    controller.abort();
    await waitFor(() => provider.requests.length > before && provider.requests[before]!.aborted, {
      message: 'the provider to see its request aborted',
    });
    expect(await storedConversations(member)).toBe(0);
  });
});
