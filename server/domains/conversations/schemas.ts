// Conversations and messages: inputs, outputs and limits (REST and tRPC share them, and the
// realtime events of server/domains/conversations/realtime-events.ts carry the same shapes).
import { z } from 'zod';
import { ifThen } from '../../shared/patterns.js';
import { MESSAGE_LIFETIME_MAX_SECONDS, MESSAGE_LIFETIME_MIN_SECONDS } from '../../../db/schema/messaging.js';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { memberRef, uuidParam } from '../../shared/schemas.js';

/** Members per conversation (the caller included), title and message lengths. */
export const MESSAGING_LIMITS = { members: 50, title: 100, body: 4000 } as const;
/** Spec (Limits): messages live 90 days. */
export const MESSAGE_TTL_SECONDS = 90 * 86_400;
export { MESSAGE_LIFETIME_MAX_SECONDS, MESSAGE_LIFETIME_MIN_SECONDS };

const exampleId = '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6';

const messageLifetime = z
  .number()
  .int()
  .min(MESSAGE_LIFETIME_MIN_SECONDS)
  .max(MESSAGE_LIFETIME_MAX_SECONDS)
  .nullable()
  .meta({
    description:
      'Disappearing messages: seconds a message lives, 3600 (1 hour) to 7776000 (90 days); null = the 90-day default.',
  });

/** What every member of a conversation sees alike (also the payload of the realtime conversation events). */
export const conversationSummary = z
  .object({
    _id: z.string(),
    kind: z.enum(['direct', 'group']).meta({
      description:
        '`direct`: one-to-one, unique per pair while both are in it; `group`: up to 50 members, with an optional title.',
    }),
    title: z.string().nullable().meta({ description: 'Groups only; always null for `direct`.' }),
    members: z
      .array(memberRef)
      .meta({ description: 'Everyone currently in the conversation, the caller included, ordered by handle.' }),
    messageLifetimeSeconds: messageLifetime,
    createdAt: z.string(),
  })
  .strict()
  .meta({ id: 'ConversationSummary' });

export const conversationOutput = conversationSummary
  .extend({
    lastMessageAt: z
      .string()
      .nullable()
      .meta({ description: 'When the newest message the caller can still read was sent; null when there is none.' }),
    unreadCount: z
      .number()
      .int()
      .meta({ description: "Messages from others after the caller's read marker (expired ones never count)." }),
    lastReadAt: z
      .string()
      .nullable()
      .meta({ description: 'When the caller last marked the conversation read; private to the caller.' }),
    lastReadMessageId: z
      .string()
      .nullable()
      .meta({ description: "Newest message covered by the caller's read marker; private to the caller." }),
  })
  .strict()
  .meta({ id: 'Conversation' });

export const messageOutput = z
  .object({
    _id: z.string(),
    conversationId: z.string(),
    sender: memberRef,
    body: z.string().meta({ description: 'The text as sent; empty only when `unreadable` is true.' }),
    unreadable: z.literal(true).optional().meta({
      description:
        'Present, and true, only on a placeholder: the stored text could not be decrypted (its key was removed from MESSAGE_KEYS too early, or the row is damaged). `body` is then empty; the rest of the history reads normally. Absent on every readable message.',
    }),
    createdAt: z.string(),
    expiresAt: z.string().meta({
      description:
        "When the message is deleted: 90 days after it was sent, or sooner under the conversation's disappearing-message lifetime. It is never returned after this time.",
    }),
  })
  .strict()
  .meta({ id: 'Message' });

export const readStateOutput = z
  .object({
    conversationId: z.string(),
    lastReadAt: z.string().nullable(),
    lastReadMessageId: z.string().nullable(),
    unreadCount: z.number().int(),
  })
  .strict()
  .meta({ id: 'ConversationReadState' });

export const listConversationsInput = () => z.object(pageQueryFields());
export const conversationListOutput = listEnvelope(conversationOutput);

export const createConversationInput = z
  .object({
    memberIds: z
      .array(uuidParam())
      .min(1)
      .max(MESSAGING_LIMITS.members - 1)
      .meta({
        description:
          "The other members' `_id`s (the caller is added): each must be a friend of the caller or share a grove with them. One id starts (or returns) the one-to-one conversation; more make a group of up to 50.",
      }),
    title: z
      .string()
      .trim()
      .min(1)
      .max(MESSAGING_LIMITS.title)
      .optional()
      .meta({ description: 'Groups only (two or more other members).' }),
  })
  .strict()
  .refine((input) => input.title === undefined || new Set(input.memberIds).size > 1, {
    path: ['title'],
    message: 'Only a group (two or more other members) has a title.',
  })
  .meta({
    // A title only for a group: two or more distinct other members.
    allOf: [ifThen({ required: ['title'] }, { properties: { memberIds: { minItems: 2, uniqueItems: true } } })],
    examples: [
      { memberIds: [exampleId] },
      { memberIds: [exampleId, '01936f5e-8c2a-7b3d-9e4f-b1b2c3d4e5f6'], title: 'Saturday outreach' },
    ],
  });

export const conversationIdInput = () => z.object({ id: uuidParam() });

export const updateConversationInput = z
  .object({
    id: uuidParam(),
    title: z
      .string()
      .trim()
      .min(1)
      .max(MESSAGING_LIMITS.title)
      .nullable()
      .optional()
      .meta({ description: 'Groups only; null removes it.' }),
    messageLifetimeSeconds: messageLifetime.optional(),
  })
  .strict()
  .meta({ examples: [{ id: exampleId, messageLifetimeSeconds: 86_400 }] });

export const markReadInput = z
  .object({
    id: uuidParam(),
    messageId: uuidParam()
      .optional()
      .meta({ description: 'Read up to this message (in send order); absent: up to the newest message.' }),
  })
  .strict()
  .meta({ examples: [{ id: exampleId }, { id: exampleId, messageId: exampleId }] });

export const listMessagesInput = () => z.object({ id: uuidParam(), ...pageQueryFields() });
export const messageListOutput = listEnvelope(messageOutput);

export const sendMessageInput = z
  .object({ id: uuidParam(), body: z.string().trim().min(1).max(MESSAGING_LIMITS.body) })
  .strict()
  .meta({ examples: [{ id: exampleId, body: 'See you at the fountain at 2.' }] });

export const deleteMessageInput = () => z.object({ id: uuidParam(), messageId: uuidParam() });

export const removeMemberInput = () =>
  z.object({ id: uuidParam(), userId: uuidParam().meta({ description: "The member's `_id` (as in `members`)." }) });

export type ConversationSummary = z.infer<typeof conversationSummary>;
export type ConversationOutput = z.infer<typeof conversationOutput>;
export type MessageOutput = z.infer<typeof messageOutput>;
export type ReadStateOutput = z.infer<typeof readStateOutput>;
