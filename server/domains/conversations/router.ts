// Conversations and messages: wiring only (logic in service.ts and messages.ts). Every route
// answers 404 for a conversation the caller is not in, exactly as for one that does not exist.
import { router } from '../../trpc/init.js';
import { memberProcedure } from '../../trpc/procedures.js';
import { okOutput } from '../../shared/schemas.js';
import * as members from './members.js';
import * as messages from './messages.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['messaging'];

export const conversationsRouter = router({
  list: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/conversations',
        tags,
        summary: "The caller's conversations",
        description:
          "Newest activity first (the newest readable message, or creation while there is none). A conversation that gets a message while you page moves to the top: the realtime `message.created` event (or a fresh first page) brings it. `unreadCount`, `lastReadAt` and `lastReadMessageId` are the caller's own.",
      },
    })
    .input(schemas.listConversationsInput())
    .output(schemas.conversationListOutput)
    .query(({ ctx, input }) => service.listConversations(ctx, input)),

  create: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'messages.create',
      successStatus: 201,
      errors: ['not_found'],
      openapi: {
        method: 'POST',
        path: '/api/conversations',
        tags,
        summary: 'Start a conversation',
        description:
          "Only with members who are the caller's friends or share a grove with the caller; any other id answers 404 `not_found`, exactly like an id nobody has. One other member: the one-to-one conversation of the pair, unique while both are in it (starting again answers 201 with the same `_id`; after either left, a new one). Two or more: a group, up to 50 members with the caller, with an optional `title`. Members of a group may all write to each other, whether or not they are friends.",
      },
    })
    .input(schemas.createConversationInput)
    .output(schemas.conversationOutput)
    .mutation(({ ctx, input }) => service.createConversation(ctx, input)),

  get: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/conversations/{id}',
        tags,
        summary: 'One conversation the caller is in',
      },
    })
    .input(schemas.conversationIdInput())
    .output(schemas.conversationOutput)
    .query(({ ctx, input }) => service.getConversation(ctx, input)),

  update: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'PATCH',
        path: '/api/conversations/{id}',
        tags,
        summary: 'Set the title (groups) or the disappearing-message lifetime',
        description:
          'Any member may change either; every change reaches all members (realtime `conversation.changed`). `messageLifetimeSeconds` (3600 to 7776000, null = 90 days) applies to messages sent from then on, and a shorter lifetime also shortens the messages already there (those already older than it are deleted at once): a change can make messages disappear sooner, never keep them longer. A one-to-one conversation has no title (400).',
      },
    })
    .input(schemas.updateConversationInput)
    .output(schemas.conversationOutput)
    .mutation(({ ctx, input }) => service.updateConversation(ctx, input)),

  leave: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/conversations/{id}/leave',
        tags,
        summary: 'Leave a conversation',
        description:
          'The caller stops being a member (404 afterwards, like any conversation they are not in); their messages stay for the others until they expire. A one-to-one conversation closes: the other member keeps its history but can no longer write in it (409), and starting again opens a new one. The last member out deletes the conversation and its messages.',
      },
    })
    .input(schemas.conversationIdInput())
    .output(okOutput)
    .mutation(({ ctx, input }) => service.leaveConversation(ctx, input)),

  removeMember: memberProcedure
    .meta({
      auth: 'member',
      errors: ['forbidden', 'conflict'],
      openapi: {
        method: 'DELETE',
        path: '/api/conversations/{id}/members/{userId}',
        tags,
        summary: 'Remove a member from a group',
        description:
          "The group's creator, or a member of the group who organizes a grove the removed member is in or was banned from, may remove any other member; other members get 403. The removed member's devices get `conversation.left` and then 404 like any conversation they are not in; the others get `conversation.changed`. Removing yourself answers 409 (leave instead), as does a one-to-one conversation (no members to remove); 404 for a conversation the caller is not in and for someone who is not a member of it. A grove ban or removal also takes the member out of conversations they had only through that grove (see POST /api/groves/{id}/bans).",
      },
    })
    .input(schemas.removeMemberInput())
    .output(okOutput)
    .mutation(({ ctx, input }) => members.removeConversationMember(ctx, input)),

  markRead: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'PUT',
        path: '/api/conversations/{id}/read',
        tags,
        summary: 'Mark the conversation read',
        description:
          "Moves the caller's read marker to `messageId` (404 if it is not a readable message of this conversation) or, without it, to the newest message; it never moves backwards. Read markers are private: other members are never told when someone read.",
      },
    })
    .input(schemas.markReadInput)
    .output(schemas.readStateOutput)
    .mutation(({ ctx, input }) => service.markRead(ctx, input)),

  listMessages: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/conversations/{id}/messages',
        tags,
        summary: 'Messages of a conversation the caller is in',
        description:
          'Newest first; `nextCursor` pages back in time. Messages are encrypted at rest and decrypted for the answer; one that cannot be decrypted (its key was removed from MESSAGE_KEYS too early, or the row is damaged) is a placeholder with an empty `body` and `unreadable: true`, and the rest of the history reads as usual. A message past its `expiresAt` is never returned.',
      },
    })
    .input(schemas.listMessagesInput())
    .output(schemas.messageListOutput)
    .query(({ ctx, input }) => messages.listMessages(ctx, input)),

  sendMessage: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'messages.create',
      successStatus: 201,
      // The stored replay of an Idempotency-Key answer would keep the message text in clear for
      // 24 hours (idempotency_keys.response_body): messages are encrypted at rest, so no key here.
      idempotent: false,
      errors: ['conflict'],
      openapi: {
        method: 'POST',
        path: '/api/conversations/{id}/messages',
        tags,
        summary: 'Send a message',
        description:
          "Up to 4000 characters. `expiresAt` is 90 days on, or the conversation's disappearing-message lifetime. 409 in a one-to-one conversation the other member left. Idempotency-Key is not honoured here (its stored answer would keep the text in clear): a client that retries after a timeout may send a message twice.",
      },
    })
    .input(schemas.sendMessageInput)
    .output(schemas.messageOutput)
    .mutation(({ ctx, input }) => messages.sendMessage(ctx, input)),

  deleteMessage: memberProcedure
    .meta({
      auth: 'member',
      errors: ['forbidden'],
      openapi: {
        method: 'DELETE',
        path: '/api/conversations/{id}/messages/{messageId}',
        tags,
        summary: 'Delete your message for everyone',
        description:
          'Only its sender may (403 for a message of another member); the message is deleted, not hidden, and every member is told (realtime `message.deleted`).',
      },
    })
    .input(schemas.deleteMessageInput())
    .output(okOutput)
    .mutation(({ ctx, input }) => messages.deleteMessage(ctx, input)),
});
