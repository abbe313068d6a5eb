// Companion chat shapes (docs/companion.md).
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { queryBoolean } from '../../shared/query.js';
import { uuidParam } from '../../shared/schemas.js';

export const COMPANION_LIMITS = {
  /** Characters of one member message. */
  message: 4000,
  /** Earlier messages of the conversation sent to the model with a new one. */
  historyMessages: 20,
  /** Library items looked up for one message. */
  sources: 5,
  /** Characters of a conversation's title (the start of its first message). */
  title: 80,
} as const;

export const chatInput = z
  .object({
    conversationId: uuidParam()
      .optional()
      .meta({ description: 'Continue this conversation of yours; a new one is started when absent.' }),
    message: z.string().trim().min(1).max(COMPANION_LIMITS.message),
  })
  .strict()
  .meta({ examples: [{ message: 'What can I cook for a potluck of twenty?' }] });
export type ChatInput = z.infer<typeof chatInput>;

export const companionSourceOutput = z
  .object({
    type: z.enum(['guide', 'media']),
    slug: z.string().meta({ description: 'GET /api/guides/{slug} or GET /api/media/{slug}.' }),
    title: z.string(),
  })
  .meta({ id: 'CompanionSource' });

/** The finished turn: what the stream's `done` event carries, plus the whole reply. */
export const chatReplyOutput = z
  .object({
    conversationId: z.string(),
    userMessageId: z.string(),
    replyMessageId: z.string(),
    reply: z.string(),
    sources: z.array(companionSourceOutput),
    createdAt: z.string(),
  })
  .meta({ id: 'CompanionReply' });
export type ChatReplyOutput = z.infer<typeof chatReplyOutput>;

export const companionConversationOutput = z
  .object({
    _id: z.string(),
    title: z.string().nullable().meta({ description: 'The start of the first message.' }),
    pinned: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string().meta({ description: 'When the last finished reply was stored.' }),
  })
  .meta({ id: 'CompanionConversation' });
export type CompanionConversationOutput = z.infer<typeof companionConversationOutput>;

export const companionMessageOutput = z
  .object({
    _id: z.string(),
    role: z.enum(['user', 'assistant']),
    content: z.string(),
    sources: z.array(companionSourceOutput).meta({ description: 'Assistant messages: the items cited.' }),
    unreadable: z.literal(true).optional().meta({
      description:
        'Present, and true, only on a placeholder: the stored text could not be decrypted (its key was removed from MESSAGE_KEYS too early, or the row is damaged). `content` is then empty and `sources` empty; the rest of the history reads normally.',
    }),
    createdAt: z.string(),
  })
  .meta({ id: 'CompanionMessage' });
export type CompanionMessageOutput = z.infer<typeof companionMessageOutput>;

export const listConversationsInput = () =>
  z.object({
    pinned: queryBoolean().optional().meta({ description: 'true: pinned only; false: unpinned only.' }),
    ...pageQueryFields(),
  });
export const listMessagesInput = () => z.object({ id: uuidParam(), ...pageQueryFields() });
export const pinInput = z
  .object({ id: uuidParam(), pinned: z.boolean().default(true).meta({ description: 'false unpins.' }) })
  .strict()
  .meta({ examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', pinned: true }] });
export const conversationIdInput = z.object({ id: uuidParam() });

export const conversationListOutput = listEnvelope(companionConversationOutput);
export const messageListOutput = listEnvelope(companionMessageOutput);
