// POST /api/companion/chat: a raw Hono route answering text/event-stream (tRPC speaks JSON
// only). It calls the `prepareChat` procedure through createCaller, so auth, validation, the
// per-member rate limit and the conversation's ownership are decided before any byte of the
// stream, and a refusal is the usual JSON error envelope with its status. Then it streams:
//
//   event: meta   data: {"conversationId":"…"}
//   event: delta  data: {"text":"…"}             (any number)
//   event: done   data: {"conversationId","userMessageId","replyMessageId","sources":[…]}
//   event: error  data: {"code":"unavailable","message":"…"}   (instead of done)
//
// The turn is stored only when the reply is complete (just before `done`). A client that goes
// away aborts the provider request (AbortSignal through to the openai package) and nothing is
// stored. Mounted by server/app.ts before the REST adapter; documentCompanionChat documents it.
import type { Env, Hono, Context as HonoContext } from 'hono';
import type { OpenAPIObject } from 'trpc-to-openapi';
import { routeErrorAnswer } from '../../http/rest.js';
import { readJsonBody } from '../../http/request-body.js';
import { createCallerFactory } from '../../trpc/init.js';
import type { Context } from '../../trpc/context.js';
import { companionStreamRouter } from './router.js';
import type { ChatInput } from './schemas.js';
import { ChatFailure, runChat, type PreparedChat } from './service.js';

export const CHAT_PATH = '/api/companion/chat';
/** A comment line this often keeps proxies from closing a quiet stream (a slow model). */
export const HEARTBEAT_MS = 15_000;

const createCaller = createCallerFactory(companionStreamRouter);

/** `Accept: application/json` without `text/event-stream`: the JSON answer, not the stream. */
export function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.toLowerCase();
  return types.includes('application/json') && !types.includes('text/event-stream');
}

export function mountCompanionChat<E extends Env>(app: Hono<E>, contextFor: (c: HonoContext<E>) => Context) {
  app.post(CHAT_PATH, async (c, next) => {
    // A client asking for JSON only gets the whole turn from the REST adapter (`companion.chat`).
    if (wantsJson(c.req.header('accept'))) {
      await next();
      return;
    }
    const ctx = contextFor(c);
    let prepared: PreparedChat;
    try {
      const input = await readJsonBody(c.req.raw, ctx.config.MAX_BODY_BYTES);
      prepared = await createCaller(ctx).prepareChat(input as ChatInput);
    } catch (cause) {
      return routeErrorAnswer(c, ctx, cause);
    }

    const cancelled = new AbortController();
    c.req.raw.signal.addEventListener('abort', () => cancelled.abort(), { once: true });
    const encoder = new TextEncoder();
    let closed = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const write = (text: string) => {
          if (!closed) controller.enqueue(encoder.encode(text));
        };
        const send = (event: string, data: unknown) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
        send('meta', { conversationId: prepared.conversationId });
        const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
        runChat(ctx, prepared, { signal: cancelled.signal, onDelta: (text) => send('delta', { text }) })
          .then((turn) =>
            send('done', {
              conversationId: turn.conversationId,
              userMessageId: turn.userMessageId,
              replyMessageId: turn.replyMessageId,
              sources: turn.sources,
            }),
          )
          .catch((error: unknown) => {
            if (error instanceof ChatFailure) send('error', { code: error.code, message: error.message });
            else {
              // The error only: the prompt and the reply never reach the log.
              ctx.log.error({ err: error }, 'companion chat failed');
              send('error', {
                code: 'internal_error',
                message: 'Something went wrong on our side; nothing was stored.',
              });
            }
          })
          .finally(() => {
            clearInterval(heartbeat);
            if (!closed) {
              closed = true;
              controller.close();
            }
          });
      },
      cancel() {
        closed = true;
        cancelled.abort();
      },
    });
    return c.body(body, 200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      // Tells nginx-style proxies not to buffer the stream.
      'X-Accel-Buffering': 'no',
    });
  });
}

const EVENTS_DESCRIPTION = `Answers \`text/event-stream\` once the request is accepted. Before the stream starts, a refusal is the JSON error envelope: 400 \`validation_failed\`, 401, 404 \`not_found\` (\`conversationId\` missing or another member's), 429 \`rate_limited\` with Retry-After (COMPANION_RATE_LIMIT_PER_MEMBER messages per COMPANION_RATE_LIMIT_WINDOW_SECONDS, per member).

Events, in order:
- \`meta\` \`{ conversationId }\`: the conversation (for a new one, its id; it exists once \`done\` arrives);
- \`delta\` \`{ text }\`, any number: the reply's next piece;
- \`done\` \`{ conversationId, userMessageId, replyMessageId, sources: [{ type: 'guide'|'media', slug, title }] }\`: the turn is stored;
- or instead of \`done\`, \`error\` \`{ code, message }\` (codes of the error envelope: \`unavailable\` when the language model fails, breaks off or takes longer than COMPANION_TIMEOUT_MS; \`not_found\` when the conversation was deleted meanwhile; \`internal_error\`). Nothing of that turn is stored: send the message again.
Lines starting with \`:\` are keep-alive comments. A client that disconnects cancels the reply (the provider request is aborted) and nothing is stored.

Replies are grounded in the service's published guides and media (full-text search over the message's words), cited by reference (\`[guide:slug]\`, \`[media:slug]\`) and listed in \`sources\`. Without a configured language model (COMPANION_BASE_URL) the reply is a retrieval answer from those items, starting with "No language model is configured on this server; here is what the library has on this:". A request with \`Accept: application/json\` (and not \`text/event-stream\`) gets the same turn as one JSON object (\`CompanionReply\`) once complete, within the request deadline (a provider failure is then 503 \`unavailable\`); typed clients get that from \`companion.chat\`.`;

/** Replaces the JSON success the generator derived from `companion.chat` with the event stream. */
export function documentCompanionChat(doc: OpenAPIObject) {
  const operation = (doc.paths?.[CHAT_PATH] as { post?: Record<string, unknown> } | undefined)?.post;
  if (!operation) throw new Error(`${CHAT_PATH} is missing from the OpenAPI document`);
  operation.description = EVENTS_DESCRIPTION;
  const responses = operation.responses as Record<string, { description?: string; content?: Record<string, unknown> }>;
  const json = responses['200']?.content?.['application/json'];
  responses['200'] = {
    description:
      'The reply as server-sent events (`meta`, `delta`…, then `done` or `error`); with `Accept: application/json` (and not `text/event-stream`), the finished turn as one JSON object instead.',
    content: {
      'application/json': json,
      'text/event-stream': {
        schema: { type: 'string' },
        example:
          'event: meta\ndata: {"conversationId":"0193a5b2-6f1e-7c3a-8b2d-1234567890ab"}\n\nevent: delta\ndata: {"text":"No language model is configured on this server; "}\n\nevent: done\ndata: {"conversationId":"0193a5b2-6f1e-7c3a-8b2d-1234567890ab","userMessageId":"0193a5b2-6f1f-7c3a-8b2d-1234567890ac","replyMessageId":"0193a5b2-6f20-7c3a-8b2d-1234567890ad","sources":[{"type":"guide","slug":"potluck-basics","title":"Potluck basics"}]}\n\n',
      },
    },
  };
}
