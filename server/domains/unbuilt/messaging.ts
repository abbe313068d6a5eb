// Conversations and messages: mounted, validated, answering 501. Messages are encrypted at rest
// and live 90 days (spec: Limits); realtime delivery is the socket.io /messages namespace.
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { memberProcedure, notImplemented } from '../../trpc/procedures.js';
import { memberRef, uuidParam } from './common.js';

const unbuilt = true as const;
const tags = ['messaging'];

export const MESSAGING_LIMITS = { members: 50, title: 100, body: 4000 } as const;

export const conversationOutput = z
  .object({
    _id: z.string(),
    title: z.string().nullable(),
    members: z.array(memberRef).meta({ description: 'Everyone in the conversation, the caller included.' }),
    lastMessageAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'Conversation' });

export const messageOutput = z
  .object({
    _id: z.string(),
    conversationId: z.string(),
    sender: memberRef,
    body: z.string(),
    createdAt: z.string(),
    expiresAt: z.string().meta({ description: 'Messages are deleted 90 days after they are sent.' }),
  })
  .meta({ id: 'Message' });

export const listConversationsInput = () => z.object(pageQueryFields());
export const createConversationInput = z
  .object({
    memberIds: z
      .array(uuidParam())
      .min(1)
      .max(MESSAGING_LIMITS.members - 1)
      .meta({ description: 'The other members (friends of the caller); the caller is added.' }),
    title: z.string().trim().min(1).max(MESSAGING_LIMITS.title).optional(),
  })
  .strict()
  .meta({ examples: [{ memberIds: ['01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6'], title: 'Saturday outreach' }] });
export const listMessagesInput = () => z.object({ id: uuidParam(), ...pageQueryFields() });
export const sendMessageInput = z
  .object({ id: uuidParam(), body: z.string().trim().min(1).max(MESSAGING_LIMITS.body) })
  .strict()
  .meta({ examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', body: 'See you at the fountain at 2.' }] });

export const messagingProcedures = {
  listConversations: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: { method: 'GET', path: '/api/conversations', tags, summary: "The caller's conversations" },
    })
    .input(listConversationsInput())
    .output(listEnvelope(conversationOutput))
    .query(() => notImplemented()),

  createConversation: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'messages.create',
      unbuilt,
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/api/conversations',
        tags,
        summary: 'Start a conversation',
        description: 'A one-to-one conversation that already exists is returned instead of a new one.',
      },
    })
    .input(createConversationInput)
    .output(conversationOutput)
    .mutation(() => notImplemented()),

  listMessages: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'GET',
        path: '/api/conversations/{id}/messages',
        tags,
        summary: 'Messages of a conversation the caller is in',
      },
    })
    .input(listMessagesInput())
    .output(listEnvelope(messageOutput))
    .query(() => notImplemented()),

  sendMessage: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'messages.create',
      unbuilt,
      successStatus: 201,
      openapi: { method: 'POST', path: '/api/conversations/{id}/messages', tags, summary: 'Send a message' },
    })
    .input(sendMessageInput)
    .output(messageOutput)
    .mutation(() => notImplemented()),
};
