// The companion chat: each member's own conversations with the assistant and their messages.
// Only finished turns are stored (server/domains/companion/service.ts): a user message and its
// reply are written together once the reply is complete, so no half-written reply is ever kept.
// Both cascade from the member, so account deletion removes them.
//
// Text at rest: a message's content and a conversation's title are AES-256-GCM ciphertext under
// MESSAGE_KEYS (server/crypto/message-cipher.ts; key id, nonce and ciphertext columns, as for
// members' messages). The plaintext columns `content` and `title` are legacy: only rows written
// before encryption hold text there, the server reads it when a row has no ciphertext, and
// `npm run messages:rekey` seals those rows and empties the column. Checks keep a row from
// holding both. An assistant message's `sources` (the library items its reply cites, which tell
// what was asked about) are sealed the same way, under the same key as the content, in their own
// nonce and ciphertext columns; the jsonb column `sources` is legacy like `content` (rows written
// before migration 0028), emptied by the rekey.
import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { bytea, createdAt, idColumn } from './columns.js';

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
    /** Legacy plaintext title (rows from before encryption, until the rekey seals them); never written. */
    legacyTitle: text('title'),
    /** The title (the start of the first message, so a list is readable): MESSAGE_KEYS entry that sealed it. */
    titleKeyId: text(),
    /** 96-bit GCM nonce, fresh per encryption. */
    titleNonce: bytea(),
    /** AES-256-GCM ciphertext of the title followed by its 16-byte tag; null: no title, or a legacy one. */
    titleCiphertext: bytea(),
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
    check(
      'companion_conversations_title_sealed_whole',
      sql`(${t.titleKeyId} is null) = (${t.titleCiphertext} is null) and (${t.titleNonce} is null) = (${t.titleCiphertext} is null)`,
    ),
    check(
      'companion_conversations_title_sealed_or_legacy',
      sql`${t.legacyTitle} is null or ${t.titleCiphertext} is null`,
    ),
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
    /** Legacy plaintext content (rows from before encryption, until the rekey seals them); never written. */
    legacyContent: text('content'),
    /** Id of the MESSAGE_KEYS entry that sealed the content. */
    keyId: text(),
    /** 96-bit GCM nonce, fresh per encryption. */
    nonce: bytea(),
    /** AES-256-GCM ciphertext of the content followed by its 16-byte tag. */
    ciphertext: bytea(),
    /** Legacy plaintext sources (rows from before migration 0028, until the rekey seals them); never written. */
    legacySources: jsonb('sources').$type<CompanionSource[]>(),
    /**
     * Assistant messages: the library items the reply was grounded in, as JSON, sealed under the
     * content's key (`keyId`) with their own nonce. Null when there are none.
     */
    sourcesNonce: bytea(),
    sourcesCiphertext: bytea(),
    createdAt: createdAt(),
  },
  (t) => [
    index('companion_messages_conversation_id_idx').on(t.conversationId, t.id),
    check(
      'companion_messages_sealed_whole',
      sql`(${t.keyId} is null) = (${t.ciphertext} is null) and (${t.nonce} is null) = (${t.ciphertext} is null)`,
    ),
    // Exactly one: sealed content, or (a row from before encryption) the legacy plaintext.
    check('companion_messages_sealed_or_legacy', sql`(${t.legacyContent} is null) <> (${t.ciphertext} is null)`),
    // Sealed sources are whole and under the content's key; never both sealed and in clear.
    check(
      'companion_messages_sources_sealed_whole',
      sql`(${t.sourcesNonce} is null) = (${t.sourcesCiphertext} is null) and (${t.sourcesCiphertext} is null or ${t.keyId} is not null)`,
    ),
    check(
      'companion_messages_sources_sealed_or_legacy',
      sql`${t.legacySources} is null or ${t.sourcesCiphertext} is null`,
    ),
  ],
);
