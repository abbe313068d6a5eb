// Companion text at rest: a message's content and a conversation's title are sealed with the
// message keyring (server/crypto/message-cipher.ts) before they reach the database and opened
// only on the way out. Each is bound to its row (conversation and message ids, or the
// conversation id for a title), so a ciphertext copied elsewhere does not open. A row written
// before encryption has no ciphertext, only its legacy plaintext column: that is read as is
// until `npm run messages:rekey` seals it (server/domains/companion/rekey.ts).
import { type MessageKeyring, messageKeyring } from '../../crypto/message-keys.js';
import { openText, type SealedMessage, sealText } from '../../crypto/message-cipher.js';
import { companionMessages } from '../../../db/schema/index.js';
import type { Context } from '../../trpc/context.js';

export function companionKeyring(ctx: Pick<Context, 'config' | 'log'>): MessageKeyring {
  return messageKeyring(ctx.config, ctx.log);
}

/** The sealed columns of a message row (the legacy plaintext column left null). */
export function sealCompanionMessage(
  keyring: MessageKeyring,
  address: { conversationId: string; messageId: string },
  content: string,
) {
  const sealed = sealText(keyring, { record: 'companion-message', ...address }, content);
  return { keyId: sealed.keyId, nonce: sealed.nonce, ciphertext: sealed.ciphertext, legacyContent: null };
}

/** The sealed columns of a conversation's title. */
export function sealCompanionTitle(keyring: MessageKeyring, conversationId: string, title: string) {
  const sealed = sealText(keyring, { record: 'companion-title', conversationId }, title);
  return {
    titleKeyId: sealed.keyId,
    titleNonce: sealed.nonce,
    titleCiphertext: sealed.ciphertext,
    legacyTitle: null,
  };
}

/** The columns a message's content is opened from, as a select list (reads and the rekey). */
export const storedMessageColumns = {
  id: companionMessages.id,
  conversationId: companionMessages.conversationId,
  keyId: companionMessages.keyId,
  nonce: companionMessages.nonce,
  ciphertext: companionMessages.ciphertext,
  legacyContent: companionMessages.legacyContent,
};

/** The columns a message is read from. */
export interface StoredCompanionMessage {
  id: string;
  conversationId: string;
  keyId: string | null;
  nonce: Uint8Array | null;
  ciphertext: Uint8Array | null;
  legacyContent: string | null;
}

/** The columns a title is read from. */
export interface StoredCompanionTitle {
  id: string;
  titleKeyId: string | null;
  titleNonce: Uint8Array | null;
  titleCiphertext: Uint8Array | null;
  legacyTitle: string | null;
}

/** Throws MessageDecryptError (ids only in its message) when no configured key opens it. */
export function openCompanionMessage(keyring: MessageKeyring, row: StoredCompanionMessage): string {
  const sealed = sealedOf(row.keyId, row.nonce, row.ciphertext);
  // The table's check guarantees a row without ciphertext holds legacy content.
  if (!sealed) return row.legacyContent ?? '';
  return openText(
    keyring,
    { record: 'companion-message', conversationId: row.conversationId, messageId: row.id },
    sealed,
  );
}

export function openCompanionTitle(keyring: MessageKeyring, row: StoredCompanionTitle): string | null {
  const sealed = sealedOf(row.titleKeyId, row.titleNonce, row.titleCiphertext);
  if (!sealed) return row.legacyTitle;
  return openText(keyring, { record: 'companion-title', conversationId: row.id }, sealed);
}

function sealedOf(keyId: string | null, nonce: Uint8Array | null, ciphertext: Uint8Array | null): SealedMessage | null {
  if (keyId === null || nonce === null || ciphertext === null) return null;
  return { keyId, nonce, ciphertext };
}
