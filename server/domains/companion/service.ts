// Companion conversations. A chat turn runs in two steps:
//  1. prepareChat (inside a procedure: auth, validation, rate limit, request deadline): checks the
//     conversation is the caller's (404 otherwise, like a missing one), reads its recent history
//     and looks up the library items to ground the reply in;
//  2. runChat: generates the reply (provider or embedded answer) piece by piece, then stores the
//     member's message and the finished reply together, in one transaction.
// Nothing is stored before the reply is complete: a provider error, a timeout or a client that
// went away leaves no trace (and a new conversation is not created). Prompts and replies are
// never logged, and are stored sealed (sealing.ts): message content and titles are ciphertext at
// rest, opened only for the member's own reads and the history sent to the model.
import { and, desc, eq } from 'drizzle-orm';
import { companionConversations, companionMessages } from '../../../db/schema/index.js';
import { newId } from '../../../db/ids.js';
import { hitRateLimit, rateLimitedError } from '../../auth/rate-limit.js';
import { AppError } from '../../errors.js';
import { beforeCursor, toPage } from '../../lib/pagination.js';
import { MessageDecryptError } from '../../crypto/message-cipher.js';
import type { MessageKeyring } from '../../crypto/message-keys.js';
import type { MemberServiceContext, ServiceContext } from '../../service/context.js';
import { generateReply, ProviderError } from './replies.js';
import { findLibraryItems, type LibraryItem } from './retrieval.js';
import {
  companionKeyring,
  openCompanionMessage,
  openCompanionSources,
  openCompanionTitle,
  sealCompanionMessage,
  sealCompanionTitle,
  storedMessageColumns,
} from './sealing.js';
import {
  COMPANION_LIMITS,
  type ChatInput,
  type ChatReplyOutput,
  type CompanionConversationOutput,
  type CompanionMessageOutput,
} from './schemas.js';

const notFound = () => new AppError('not_found', 'No such conversation.');

/** Everything runChat needs, decided before the first byte of the answer. */
export interface PreparedChat {
  userId: string;
  /** The conversation's id; for a new one, generated now and stored only with the finished reply. */
  conversationId: string;
  isNew: boolean;
  message: string;
  history: { role: 'user' | 'assistant'; content: string }[];
  items: LibraryItem[];
}

export async function prepareChat(ctx: MemberServiceContext, input: ChatInput): Promise<PreparedChat> {
  const limit = await hitRateLimit(
    ctx,
    {
      scope: 'companion:chat',
      limit: ctx.config.COMPANION_RATE_LIMIT_PER_MEMBER,
      windowSeconds: ctx.config.COMPANION_RATE_LIMIT_WINDOW_SECONDS,
    },
    [ctx.user.id],
    ctx.clock.now(),
  );
  if (!limit.allowed) throw rateLimitedError(limit.retryAfterSeconds);

  let history: PreparedChat['history'] = [];
  if (input.conversationId !== undefined) {
    await ownConversation(ctx, input.conversationId);
    const recent = await ctx.db
      .select({ role: companionMessages.role, ...storedMessageColumns })
      .from(companionMessages)
      .where(eq(companionMessages.conversationId, input.conversationId))
      .orderBy(desc(companionMessages.id))
      .limit(COMPANION_LIMITS.historyMessages);
    const keyring = companionKeyring(ctx);
    history = recent.reverse().map((row) => ({ role: row.role, content: openCompanionMessage(keyring, row) }));
  }
  return {
    userId: ctx.user.id,
    conversationId: input.conversationId ?? newId(),
    isNew: input.conversationId === undefined,
    message: input.message,
    history,
    items: await findLibraryItems(ctx, input.message),
  };
}

/** A chat turn that ended without a stored reply; `code` is in the error envelope's vocabulary. */
export class ChatFailure extends Error {
  override name = 'ChatFailure';
  constructor(
    readonly code: 'unavailable' | 'not_found' | 'internal_error',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Generates the reply, handing each piece to `onDelta`, then stores the turn. Rejects with
 * ChatFailure when the provider fails or times out (COMPANION_TIMEOUT_MS), when `signal` aborts
 * (the client left), or when the conversation was deleted meanwhile; nothing is stored then.
 */
export async function runChat(
  ctx: ServiceContext,
  prepared: PreparedChat,
  options: { signal?: AbortSignal; timeoutMs?: number; onDelta?: (text: string) => void } = {},
): Promise<ChatReplyOutput> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? ctx.config.COMPANION_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let reply = '';
  try {
    for await (const piece of generateReply(ctx.config, { ...prepared, signal })) {
      reply += piece;
      options.onDelta?.(piece);
    }
  } catch (error) {
    if (error instanceof ProviderError) {
      // What failed, never what was asked or answered.
      ctx.log.warn({ provider: true, timedOut: timeout.aborted, cancelled: options.signal?.aborted }, error.message);
      throw new ChatFailure('unavailable', error.message);
    }
    throw error;
  }
  if (signal.aborted) {
    throw new ChatFailure(
      'unavailable',
      timeout.aborted
        ? 'The reply took too long; nothing was stored.'
        : 'The request was cancelled; nothing was stored.',
    );
  }
  if (reply.trim() === '') throw new ChatFailure('unavailable', 'The language model sent an empty answer; try again.');
  return storeTurn(ctx, prepared, reply);
}

async function storeTurn(ctx: ServiceContext, prepared: PreparedChat, reply: string): Promise<ChatReplyOutput> {
  const now = ctx.clock.now();
  const userMessageId = newId();
  const replyMessageId = newId();
  const keyring = companionKeyring(ctx);
  const { conversationId } = prepared;
  const sources = prepared.items.map(({ type, slug, title }) => ({ type, slug, title }));
  await ctx.db.transaction(async (tx) => {
    if (prepared.isNew) {
      await tx.insert(companionConversations).values({
        id: conversationId,
        userId: prepared.userId,
        ...sealCompanionTitle(keyring, conversationId, prepared.message.slice(0, COMPANION_LIMITS.title)),
        activityId: replyMessageId,
        createdAt: now,
        updatedAt: now,
      });
    } else {
      const touched = await tx
        .update(companionConversations)
        .set({ activityId: replyMessageId, updatedAt: now })
        .where(and(eq(companionConversations.id, conversationId), eq(companionConversations.userId, prepared.userId)))
        .returning({ id: companionConversations.id });
      // Deleted while the reply was being written.
      if (touched.length === 0) throw new ChatFailure('not_found', 'The conversation was deleted; nothing was stored.');
    }
    await tx.insert(companionMessages).values([
      {
        id: userMessageId,
        conversationId: conversationId,
        role: 'user',
        ...sealCompanionMessage(keyring, { conversationId, messageId: userMessageId }, prepared.message),
        createdAt: now,
      },
      {
        id: replyMessageId,
        conversationId: conversationId,
        role: 'assistant',
        ...sealCompanionMessage(keyring, { conversationId, messageId: replyMessageId }, reply, sources),
        createdAt: now,
      },
    ]);
  });
  return {
    conversationId: conversationId,
    userMessageId,
    replyMessageId,
    reply,
    sources,
    createdAt: now.toISOString(),
  };
}

/** The whole turn at once (the tRPC `companion.chat`), bounded by the request deadline too. */
export async function chat(ctx: MemberServiceContext, input: ChatInput): Promise<ChatReplyOutput> {
  const prepared = await prepareChat(ctx, input);
  // Give up on the model a second before the request deadline, so storing the turn never races
  // the 503 the caller would get (a reply stored after its caller was told it failed).
  const deadline = ctx.config.REQUEST_TIMEOUT_MS;
  const timeoutMs = Math.min(ctx.config.COMPANION_TIMEOUT_MS, Math.max(deadline - 1000, Math.floor(deadline / 2)));
  try {
    return await runChat(ctx, prepared, { timeoutMs });
  } catch (error) {
    if (error instanceof ChatFailure) throw new AppError(error.code, error.message);
    throw error;
  }
}

// ---- conversations ------------------------------------------------------------------------

async function ownConversation(ctx: MemberServiceContext, id: string) {
  const [row] = await ctx.db
    .select({ id: companionConversations.id })
    .from(companionConversations)
    .where(and(eq(companionConversations.id, id), eq(companionConversations.userId, ctx.user.id)));
  if (!row) throw notFound();
  return row;
}

type ConversationRow = typeof companionConversations.$inferSelect;

function toConversation(keyring: MessageKeyring, row: ConversationRow): CompanionConversationOutput {
  return {
    _id: row.id,
    title: openCompanionTitle(keyring, row),
    pinned: row.pinned,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The caller's conversations, newest activity first (cursor: the last item's activity id). */
export async function listConversations(
  ctx: MemberServiceContext,
  input: { pinned?: boolean; cursor?: string; limit: number },
) {
  const before = beforeCursor(companionConversations.activityId, input.cursor);
  const rows = await ctx.db
    .select()
    .from(companionConversations)
    .where(
      and(
        eq(companionConversations.userId, ctx.user.id),
        input.pinned === undefined ? undefined : eq(companionConversations.pinned, input.pinned),
        before,
      ),
    )
    .orderBy(desc(companionConversations.activityId))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (row) => row.activityId);
  const keyring = companionKeyring(ctx);
  return { items: page.items.map((row) => toConversation(keyring, row)), nextCursor: page.nextCursor };
}

export async function pinConversation(ctx: MemberServiceContext, input: { id: string; pinned: boolean }) {
  const [row] = await ctx.db
    .update(companionConversations)
    .set({ pinned: input.pinned })
    .where(and(eq(companionConversations.id, input.id), eq(companionConversations.userId, ctx.user.id)))
    .returning();
  if (!row) throw notFound();
  return toConversation(companionKeyring(ctx), row);
}

/** Hard delete; the messages go with it (FK cascade). */
export async function deleteConversation(ctx: MemberServiceContext, input: { id: string }): Promise<{ ok: true }> {
  const deleted = await ctx.db
    .delete(companionConversations)
    .where(and(eq(companionConversations.id, input.id), eq(companionConversations.userId, ctx.user.id)))
    .returning({ id: companionConversations.id });
  if (deleted.length === 0) throw notFound();
  return { ok: true };
}

/**
 * A message's content and sources, or the placeholder of one no configured key opens (`content`
 * empty, no sources, `unreadable: true`), logged with ids only: one damaged row does not make the
 * whole history fail.
 */
function readableMessage(
  ctx: MemberServiceContext,
  keyring: MessageKeyring,
  row: Parameters<typeof openCompanionMessage>[1],
): Pick<CompanionMessageOutput, 'content' | 'sources' | 'unreadable'> {
  try {
    return { content: openCompanionMessage(keyring, row), sources: openCompanionSources(keyring, row) };
  } catch (error) {
    if (!(error instanceof MessageDecryptError)) throw error;
    ctx.log.error(
      { err: error, conversationId: row.conversationId, messageId: row.id, keyId: row.keyId },
      'companion message does not decrypt: served as an unreadable placeholder',
    );
    return { content: '', sources: [], unreadable: true };
  }
}

/** One conversation's messages, newest first; 404 unless it is the caller's (decided in SQL). */
export async function listMessages(ctx: MemberServiceContext, input: { id: string; cursor?: string; limit: number }) {
  const before = beforeCursor(companionMessages.id, input.cursor);
  const rows = await ctx.db
    .select({
      ...storedMessageColumns,
      role: companionMessages.role,
      createdAt: companionMessages.createdAt,
    })
    .from(companionMessages)
    .innerJoin(companionConversations, eq(companionConversations.id, companionMessages.conversationId))
    .where(and(eq(companionMessages.conversationId, input.id), eq(companionConversations.userId, ctx.user.id), before))
    .orderBy(desc(companionMessages.id))
    .limit(input.limit + 1);
  if (rows.length === 0 && before === undefined) await ownConversation(ctx, input.id);
  const page = toPage(rows, input.limit, (row) => row.id);
  const keyring = companionKeyring(ctx);
  return {
    items: page.items.map(
      (row): CompanionMessageOutput => ({
        _id: row.id,
        role: row.role,
        ...readableMessage(ctx, keyring, row),
        createdAt: row.createdAt.toISOString(),
      }),
    ),
    nextCursor: page.nextCursor,
  };
}
