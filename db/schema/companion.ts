// The companion chat: each member's own conversations with the assistant and their messages.
// Only finished turns are stored (server/domains/companion/service.ts): a user message and its
// reply are written together once the reply is complete, so no half-written reply is ever kept.
// Both cascade from the member, so account deletion removes them.
import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, idColumn } from './columns.js';

export const companionRoles = ['user', 'assistant'] as const;
export type CompanionRole = (typeof companionRoles)[number];

/** A library item a reply was grounded in (cited by slug). */
export interface CompanionSource {
  type: 'guide' | 'media';
  slug: string;
  title: string;
}

export const companionConversations = pgTable(
  'companion_conversations',
  {
    id: idColumn(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The start of the first message, so a list is readable. */
    title: text(),
    pinned: boolean().notNull().default(false),
    createdAt: createdAt(),
    /** When the last finished turn was stored (pinning is not activity). */
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /**
     * The id of the last stored message (UUIDv7, so write order): lists are newest activity
     * first by it, and the list cursor is this id, opaque like every cursor.
     */
    activityId: uuid().notNull(),
  },
  (t) => [
    uniqueIndex('companion_conversations_user_activity_key').on(t.userId, t.activityId),
    index('companion_conversations_user_pinned_idx').on(t.userId, t.activityId).where(sql`${t.pinned}`),
  ],
);

export const companionMessages = pgTable(
  'companion_messages',
  {
    id: idColumn(),
    conversationId: uuid()
      .notNull()
      .references(() => companionConversations.id, { onDelete: 'cascade' }),
    role: text({ enum: companionRoles }).notNull(),
    content: text().notNull(),
    /** Assistant messages: the library items the reply was grounded in. */
    sources: jsonb().$type<CompanionSource[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
  },
  (t) => [index('companion_messages_conversation_id_idx').on(t.conversationId, t.id)],
);
