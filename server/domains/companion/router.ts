// The companion: wiring only (logic in service.ts). POST /api/companion/chat is a raw Hono route
// streaming text/event-stream (chat-route.ts) over `prepareChat` below; typed clients call
// `companion.chat`, which answers the finished reply at once.
import { router } from '../../trpc/init.js';
import { memberProcedure } from '../../trpc/procedures.js';
import { okOutput } from '../../shared/schemas.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['companion'];

export const companionRouter = router({
  chat: memberProcedure
    .meta({
      auth: 'member',
      errors: ['not_found', 'rate_limited'],
      openapi: {
        method: 'POST',
        path: '/api/companion/chat',
        tags,
        summary: 'Chat with the companion (server-sent events)',
      },
    })
    .input(schemas.chatInput)
    .output(schemas.chatReplyOutput)
    .mutation(({ ctx, input }) => service.chat(ctx, input)),

  listConversations: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/companion/conversations',
        tags,
        summary: "The caller's companion conversations",
        description:
          "Only the caller's own, newest activity (last finished reply) first; `pinned=true` lists the pinned ones, `pinned=false` the others. A conversation exists once its first reply was stored.",
      },
    })
    .input(schemas.listConversationsInput())
    .output(schemas.conversationListOutput)
    .query(({ ctx, input }) => service.listConversations(ctx, input)),

  listMessages: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/companion/conversations/{id}/messages',
        tags,
        summary: "One of the caller's companion conversations, its messages newest first",
        description:
          "Each stored turn is the member's message and the finished reply (with the library items it cites). Another member's conversation answers 404 like a missing one.",
      },
    })
    .input(schemas.listMessagesInput())
    .output(schemas.messageListOutput)
    .query(({ ctx, input }) => service.listMessages(ctx, input)),

  pinConversation: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'POST',
        path: '/api/companion/conversations/{id}/pin',
        tags,
        summary: 'Pin (or unpin) a companion conversation',
        description:
          "`{ pinned: false }` unpins. Pinning does not change the conversation's place in the activity order. Another member's conversation answers 404.",
      },
    })
    .input(schemas.pinInput)
    .output(schemas.companionConversationOutput)
    .mutation(({ ctx, input }) => service.pinConversation(ctx, input)),

  deleteConversation: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/companion/conversations/{id}',
        tags,
        summary: 'Delete a companion conversation',
        description: "Hard delete, with every message. Another member's conversation answers 404.",
      },
    })
    .input(schemas.conversationIdInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => service.deleteConversation(ctx, input)),
});

/**
 * Not part of the API: the first step of a streamed turn, called by the SSE route through
 * createCaller so that auth, validation, the rate limit and the request deadline are a
 * procedure's, exactly as for `companion.chat`.
 */
export const companionStreamRouter = router({
  prepareChat: memberProcedure.input(schemas.chatInput).mutation(({ ctx, input }) => service.prepareChat(ctx, input)),
});
