// A group conversation's title at rest: sealed with the message keyring (server/crypto/
// message-cipher.ts, record `conversation-title`, bound to the conversation's id) before it
// reaches the database and opened only on the way out (the members' reads, realtime payloads,
// the push that names the group for members with pushShowsDetails). A group created before
// titles were sealed keeps its title in the legacy plaintext column, read as it is until
// `npm run messages:rekey` seals it (rekey.ts).
import { MessageDecryptError, openText, sealText } from '../../crypto/message-cipher.js';
import { type MessageKeyring, messageKeyring } from '../../crypto/message-keys.js';
import type { Logger } from '../../log.js';
import type { ServiceContext } from '../../service/context.js';

/** What reads a title: the keyring's configuration and a logger for one that does not open. */
export type TitleReader = Pick<ServiceContext, 'config' | 'log'>;

export function titleKeyring(ctx: TitleReader): MessageKeyring {
  return messageKeyring(ctx.config, ctx.log);
}

/** The title columns of a conversation row: sealed under the current key, or all null for no title. */
export function sealGroupTitle(keyring: MessageKeyring, conversationId: string, title: string | null) {
  if (title === null) return { titleKeyId: null, titleNonce: null, titleCiphertext: null, legacyTitle: null };
  const sealed = sealText(keyring, { record: 'conversation-title', conversationId }, title);
  return { titleKeyId: sealed.keyId, titleNonce: sealed.nonce, titleCiphertext: sealed.ciphertext, legacyTitle: null };
}

export interface StoredTitle {
  titleKeyId: string | null;
  titleNonce: Uint8Array | null;
  titleCiphertext: Uint8Array | null;
  legacyTitle: string | null;
}

/** The title; throws MessageDecryptError (ids only) when no configured key opens it. */
export function openGroupTitle(keyring: MessageKeyring, conversationId: string, row: StoredTitle): string | null {
  if (row.titleKeyId === null || row.titleNonce === null || row.titleCiphertext === null) return row.legacyTitle;
  return openText(
    keyring,
    { record: 'conversation-title', conversationId },
    { keyId: row.titleKeyId, nonce: new Uint8Array(row.titleNonce), ciphertext: new Uint8Array(row.titleCiphertext) },
  );
}

/**
 * The title for a read: one that no configured key opens (its key retired too early, a damaged
 * row) reads as no title, logged with ids only, so the conversation and its messages stay usable.
 */
export function readableGroupTitle(
  keyring: MessageKeyring,
  log: Pick<Logger, 'error'>,
  conversationId: string,
  row: StoredTitle,
): string | null {
  try {
    return openGroupTitle(keyring, conversationId, row);
  } catch (error) {
    if (!(error instanceof MessageDecryptError)) throw error;
    log.error(
      { err: error, conversationId, keyId: row.titleKeyId },
      'conversation title does not decrypt: shown as none',
    );
    return null;
  }
}
