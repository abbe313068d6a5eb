// The companion chat assistant: mounted, validated, answering 501. Chat is rate limited (spec).
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { memberProcedure, notImplemented } from '../../trpc/procedures.js';
import { jsonBoolean, okOutput, queryBoolean, uuidParam } from './common.js';

const unbuilt = true as const;
const tags = ['companion'];

export const COMPANION_LIMITS = { message: 4000 } as const;

export const chatInput = z
  .object({
    conversationId: uuidParam()
      .optional()
      .meta({ description: 'Continue this conversation; a new one is started when absent.' }),
    message: z.string().trim().min(1).max(COMPANION_LIMITS.message),
  })
  .strict()
  .meta({ examples: [{ message: 'What can I cook for a potluck of twenty?' }] });

/** The finished reply; the streamed route sends it as SSE `delta` events and then this as `done`. */
export const chatReplyOutput = z
  .object({ conversationId: z.string(), messageId: z.string(), reply: z.string(), createdAt: z.string() })
  .meta({ id: 'CompanionReply' });

export const companionConversationOutput = z
  .object({
    _id: z.string(),
    title: z.string().nullable(),
    pinned: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'CompanionConversation' });

export const listCompanionConversationsInput = () =>
  z.object({ pinned: queryBoolean().optional(), ...pageQueryFields() });
export const pinInput = z
  .object({ id: uuidParam(), pinned: jsonBoolean().default(true).meta({ description: 'false unpins.' }) })
  .strict()
  .meta({ examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', pinned: true }] });
export const companionConversationIdInput = z.object({ id: uuidParam() });

export const companionProcedures = {
  // The milestone turns this into a raw Hono route streaming text/event-stream that calls this
  // procedure through createCaller (DESIGN.md §1); until then it is an ordinary JSON procedure.
  chat: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'POST',
        path: '/api/companion/chat',
        tags,
        summary: 'Chat with the companion (server-sent events)',
        description:
          'Answers a text/event-stream once built. Rate limited per member (429 `rate_limited` with Retry-After).',
      },
    })
    .input(chatInput)
    .output(chatReplyOutput)
    .mutation(() => notImplemented()),

  listConversations: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'GET',
        path: '/api/companion/conversations',
        tags,
        summary: "The caller's companion conversations",
      },
    })
    .input(listCompanionConversationsInput())
    .output(listEnvelope(companionConversationOutput))
    .query(() => notImplemented()),

  pin: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'POST',
        path: '/api/companion/conversations/{id}/pin',
        tags,
        summary: 'Pin (or unpin) a companion conversation',
      },
    })
    .input(pinInput)
    .output(companionConversationOutput)
    .mutation(() => notImplemented()),

  deleteConversation: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'DELETE',
        path: '/api/companion/conversations/{id}',
        tags,
        summary: 'Delete a companion conversation',
      },
    })
    .input(companionConversationIdInput)
    .output(okOutput)
    .mutation(() => notImplemented()),
};
