// Companion test helpers: a server-sent-events parser, a fake OpenAI-compatible provider (a real
// HTTP server speaking the chat-completions streaming protocol), the REST chat call, and legacy
// (pre-encryption) rows.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { newId } from '../../db/ids.js';
import type { CompanionSource } from '../../db/schema/index.js';
import type { TestApp, TestMember } from '../setup/harness.js';

export interface SseEvent {
  event: string;
  data: any;
}

/** Parses a text/event-stream body (event/data fields, blank-line separated, `:` comments). */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length) events.push({ event, data: JSON.parse(data.join('\n')) });
  }
  return events;
}

/** The reply text of a parsed stream: its deltas joined. */
export const replyOf = (events: SseEvent[]) =>
  events
    .filter((e) => e.event === 'delta')
    .map((e) => e.data.text)
    .join('');

/** POST /api/companion/chat through the app; `events` when the answer is a stream. */
export async function chatSse(t: TestApp, member: TestMember, body: Record<string, unknown>) {
  const res = await t.request('POST', '/api/companion/chat', { token: member.token, body });
  const isStream = (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  return { ...res, events: isStream ? parseSse(res.text) : [] };
}

export interface ProviderRequest {
  authorization: string | undefined;
  body: any;
  /** Set when the client went away before the answer was complete. */
  aborted: boolean;
}

export interface FakeProvider {
  baseUrl: string;
  requests: ProviderRequest[];
  close(): Promise<void>;
}

const chunk = (content: string, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'test-model',
    choices: [{ index: 0, delta: finish ? {} : { content }, finish_reason: finish }],
  })}\n\n`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Answers POST /v1/chat/completions as an OpenAI streaming endpoint. The behaviour is chosen by
 * a word in the last user message: `mode-slow` (pauses between chunks), `mode-fail` (HTTP 500),
 * `mode-broken` (one chunk, then the connection is cut), `mode-hang` (one chunk, then nothing
 * until the client leaves); otherwise a normal stream of `replyChunks`.
 */
export async function startFakeProvider(replyChunks: string[]): Promise<FakeProvider> {
  const requests: ProviderRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (d) => {
      raw += d;
    });
    req.on('end', async () => {
      const body = JSON.parse(raw);
      const record: ProviderRequest = { authorization: req.headers.authorization, body, aborted: false };
      requests.push(record);
      res.on('close', () => {
        if (!res.writableFinished) record.aborted = true;
      });
      const last: string = body.messages.at(-1).content;
      if (req.url !== '/v1/chat/completions' || body.stream !== true) {
        res.writeHead(404).end();
        return;
      }
      if (last.includes('mode-fail')) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `upstream exploded on: ${last}`, type: 'server_error' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if (last.includes('mode-broken')) {
        res.write(chunk('Half an ans'));
        await sleep(20);
        res.socket?.destroy();
        return;
      }
      if (last.includes('mode-hang')) {
        res.write(chunk('Thinking'));
        return; // never finishes; the client must give up
      }
      for (const piece of replyChunks) {
        if (res.destroyed) return;
        res.write(chunk(piece));
        if (last.includes('mode-slow')) await sleep(150);
      }
      res.write(chunk('', 'stop'));
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A conversation as the schema before encryption wrote it (migrations 0027 and 0028): title,
 * contents and sources in the plaintext columns, no ciphertext. Written raw, as such a row sits
 * in an upgraded database.
 */
export async function insertLegacyConversation(
  t: TestApp,
  member: TestMember,
  title: string,
  messages: { role: 'user' | 'assistant'; content: string; sources?: CompanionSource[] }[],
) {
  const conversationId = newId();
  const messageIds = messages.map(() => newId());
  await t.deps.database.rows(
    sql`insert into companion_conversations (id, user_id, title, activity_id)
        values (${conversationId}::uuid, ${member.id}::uuid, ${title}, ${messageIds.at(-1)!}::uuid)`,
  );
  for (const [i, message] of messages.entries())
    await t.deps.database.rows(
      sql`insert into companion_messages (id, conversation_id, role, content, sources)
          values (${messageIds[i]!}::uuid, ${conversationId}::uuid, ${message.role}, ${message.content},
                  ${message.sources ? JSON.stringify(message.sources) : null}::jsonb)`,
    );
  return { conversationId, messageIds };
}
