// Messages: send, list (newest first), delete one's own for everyone. Text is sealed with
// AES-256-GCM before it reaches the database and opened only on the way out; a message past
// its expiresAt is never returned, whether or not the hourly sweep has deleted it yet.
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { conversationMembers, messages, users } from '../../../db/schema/index.js';
import { newId } from '../../../db/ids.js';
import { messageKeyring } from '../../crypto/message-keys.js';
import { MessageDecryptError, openMessage, sealMessage } from '../../crypto/message-cipher.js';
import { AppError } from '../../errors.js';
import { beforeCursor, toPage } from '../../lib/pagination.js';
import type { MemberServiceContext, ServiceContext } from '../../service/context.js';
import { conversationRoom, publish } from './publish.js';
import { storeMessage } from './send-statement.js';
import type { MessageOutput } from './schemas.js';
import { notFound } from './views.js';

export function keyringOf(ctx: Pick<ServiceContext, 'config' | 'log'>) {
  return messageKeyring(ctx.config, ctx.log);
}

/** Is the caller in the conversation? (The join every message query starts from.) */
const callerIsMember = (ctx: MemberServiceContext, conversationId: string) =>
  sql`exists (select 1 from conversation_members cm where cm.conversation_id = ${conversationId}::uuid and cm.user_id = ${ctx.user.id}::uuid)`;

export async function sendMessage(
  ctx: MemberServiceContext,
  input: { id: string; body: string },
): Promise<MessageOutput> {
  const keyring = keyringOf(ctx);
  const now = ctx.clock.now();
  const id = newId();
  // Sealed before the one statement that checks the membership and stores it (send-statement.ts).
  const sealed = sealMessage(keyring, { conversationId: input.id, messageId: id }, input.body);
  const outcome = await storeMessage(ctx.db, { id, conversationId: input.id, senderId: ctx.user.id, sealed, now });
  if (outcome.kind === 'not_member') throw notFound();
  if (outcome.kind === 'closed_pair')
    throw new AppError('conflict', 'The other member left this conversation; start a new one to write to them.');
  const message: MessageOutput = {
    _id: id,
    conversationId: input.id,
    sender: { _id: ctx.user.id, handle: ctx.user.handle },
    body: input.body,
    createdAt: now.toISOString(),
    expiresAt: outcome.expiresAt.toISOString(),
  };
  publish(ctx, conversationRoom(input.id), 'message.created', { message });
  return message;
}

/** Newest first; `nextCursor` pages back in time. */
export async function listMessages(ctx: MemberServiceContext, input: { id: string; cursor?: string; limit: number }) {
  const before = beforeCursor(messages.id, input.cursor);
  const keyring = keyringOf(ctx);
  const [member] = await ctx.db
    .select({ id: conversationMembers.conversationId })
    .from(conversationMembers)
    .where(and(eq(conversationMembers.conversationId, input.id), eq(conversationMembers.userId, ctx.user.id)));
  if (!member) throw notFound();
  const rows = await ctx.db
    .select({
      id: messages.id,
      keyId: messages.keyId,
      nonce: messages.nonce,
      ciphertext: messages.ciphertext,
      createdAt: messages.createdAt,
      expiresAt: messages.expiresAt,
      senderId: users.id,
      senderHandle: users.handle,
    })
    .from(messages)
    .innerJoin(users, eq(users.id, messages.senderId))
    .where(
      and(
        eq(messages.conversationId, input.id),
        gt(messages.expiresAt, ctx.clock.now()),
        callerIsMember(ctx, input.id),
        before,
      ),
    )
    .orderBy(desc(messages.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (r) => r.id);
  return {
    items: page.items.map(
      (row): MessageOutput => ({
        _id: row.id,
        conversationId: input.id,
        sender: { _id: row.senderId, handle: row.senderHandle },
        ...readableBody(ctx, keyring, input.id, row),
        createdAt: row.createdAt.toISOString(),
        expiresAt: row.expiresAt.toISOString(),
      }),
    ),
    nextCursor: page.nextCursor,
  };
}

/**
 * The message's text, or the placeholder of one no configured key opens (its key was retired too
 * early, or the row was damaged): `body` empty and `unreadable: true`, so one bad row does not
 * make the whole history fail. Logged with ids and key id only.
 */
function readableBody(
  ctx: MemberServiceContext,
  keyring: ReturnType<typeof keyringOf>,
  conversationId: string,
  row: { id: string; keyId: string; nonce: Uint8Array; ciphertext: Uint8Array },
): Pick<MessageOutput, 'body' | 'unreadable'> {
  try {
    return { body: openMessage(keyring, { conversationId, messageId: row.id }, row) };
  } catch (error) {
    if (!(error instanceof MessageDecryptError)) throw error;
    ctx.log.error(
      { err: error, conversationId, messageId: row.id, keyId: row.keyId },
      'message text does not decrypt: served as an unreadable placeholder',
    );
    return { body: '', unreadable: true };
  }
}

/** The sender deletes their message for everyone: the row goes. Someone else's message: 403. */
export async function deleteMessage(ctx: MemberServiceContext, input: { id: string; messageId: string }) {
  const [message] = await ctx.db
    .select({ senderId: messages.senderId })
    .from(messages)
    .where(
      and(
        eq(messages.id, input.messageId),
        eq(messages.conversationId, input.id),
        gt(messages.expiresAt, ctx.clock.now()),
        callerIsMember(ctx, input.id),
      ),
    );
  if (!message) throw new AppError('not_found', 'No such message.');
  if (message.senderId !== ctx.user.id) throw new AppError('forbidden', 'Only its sender can delete a message.');
  const deleted = await ctx.db
    .delete(messages)
    .where(and(eq(messages.id, input.messageId), eq(messages.senderId, ctx.user.id)))
    .returning({ id: messages.id });
  if (deleted.length > 0)
    publish(ctx, conversationRoom(input.id), 'message.deleted', {
      conversationId: input.id,
      messageId: input.messageId,
    });
  return { ok: true as const };
}
