// Conversations between members and their messages. Message text is never stored in clear:
// `ciphertext` is AES-256-GCM under the key named by `key_id` (server/crypto/message-cipher.ts),
// and every message row carries its own `expires_at` (90 days, or the conversation's shorter
// disappearing-message lifetime); an hourly sweep deletes expired rows. A group's title is sealed
// the same way (its own key id, nonce and ciphertext columns); the plaintext `title` column is
// legacy, read only for rows from before that until `npm run messages:rekey` seals them.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { bytea, createdAt, idColumn } from './columns.js';

export const conversationKinds = ['direct', 'group'] as const;
export type ConversationKind = (typeof conversationKinds)[number];

/** Bounds of a conversation's disappearing-message lifetime, in seconds: 1 hour to 90 days. */
export const MESSAGE_LIFETIME_MIN_SECONDS = 3600;
export const MESSAGE_LIFETIME_MAX_SECONDS = 90 * 86_400;

export const conversations = pgTable(
  'conversations',
  {
    id: idColumn(),
    kind: text({ enum: conversationKinds }).notNull(),
    /** Legacy plaintext title (groups created before titles were sealed, until the rekey seals them); never written. */
    legacyTitle: text('title'),
    /** Groups only: the MESSAGE_KEYS entry that sealed the title (null: no title, or a legacy one). */
    titleKeyId: text(),
    /** 96-bit GCM nonce, fresh per encryption. */
    titleNonce: bytea(),
    /** AES-256-GCM ciphertext of the title followed by its 16-byte tag. */
    titleCiphertext: bytea(),
    /** Disappearing messages: lifetime of messages sent from now on; null = the 90-day default. */
    messageLifetimeSeconds: integer(),
    /**
     * Groups: who started it (may remove members). Null for groups started before it was recorded,
     * for one-to-one conversations, and once the creator's account is gone.
     */
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('conversations_created_by_idx').on(t.createdBy),
    check(
      'conversations_title_sealed_whole',
      sql`(${t.titleKeyId} is null) = (${t.titleCiphertext} is null) and (${t.titleNonce} is null) = (${t.titleCiphertext} is null)`,
    ),
    check('conversations_title_sealed_or_legacy', sql`${t.legacyTitle} is null or ${t.titleCiphertext} is null`),
    check(
      'conversations_message_lifetime_bounds',
      sql`${t.messageLifetimeSeconds} is null or ${t.messageLifetimeSeconds} between ${sql.raw(String(MESSAGE_LIFETIME_MIN_SECONDS))} and ${sql.raw(String(MESSAGE_LIFETIME_MAX_SECONDS))}`,
    ),
  ],
);

export const conversationMembers = pgTable(
  'conversation_members',
  {
    conversationId: uuid()
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    joinedAt: createdAt(),
    /** When the member last marked the conversation read (null: never). */
    lastReadAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Messages up to this id (UUIDv7, so in send order) count as read. No FK: the message may expire. */
    lastReadMessageId: uuid(),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.userId] }),
    index('conversation_members_user_id_idx').on(t.userId, t.conversationId),
  ],
);

/**
 * The one open one-to-one conversation of a pair (`user_low` < `user_high`): the primary key makes
 * "starting again returns the existing one" race-safe. The row goes when either member leaves
 * (or deletes the account), so the next start opens a fresh conversation.
 */
export const directConversations = pgTable(
  'direct_conversations',
  {
    userLow: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userHigh: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    conversationId: uuid()
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.userLow, t.userHigh] }),
    index('direct_conversations_user_high_idx').on(t.userHigh),
    uniqueIndex('direct_conversations_conversation_id_key').on(t.conversationId),
    check('direct_conversations_ordered_pair', sql`${t.userLow} < ${t.userHigh}`),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: idColumn(),
    conversationId: uuid()
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    senderId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Id of the MESSAGE_KEYS entry that encrypted this row. */
    keyId: text().notNull(),
    /** 96-bit GCM nonce, fresh per encryption. */
    nonce: bytea().notNull(),
    /** AES-256-GCM ciphertext followed by its 16-byte tag. */
    ciphertext: bytea().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('messages_conversation_id_idx').on(t.conversationId, t.id),
    index('messages_sender_id_idx').on(t.senderId),
    index('messages_expires_at_idx').on(t.expiresAt),
    index('messages_key_id_idx').on(t.keyId),
  ],
);

export type Conversation = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
