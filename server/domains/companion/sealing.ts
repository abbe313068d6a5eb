// Companion text at rest: a message's content, a reply's sources and a conversation's title are
// sealed with the message keyring (server/crypto/message-cipher.ts) before they reach the
// database and opened only on the way out. Each is bound to its row and kind (conversation and
// message ids, or the conversation id for a title), so a ciphertext copied elsewhere does not
// open. A message's content and sources are always sealed together, under one key (the row's
// `keyId`). A row written before encryption has no ciphertext, only its legacy plaintext columns:
// those are read as they are until `npm run messages:rekey` seals them
// (server/domains/companion/rekey.ts).
import { type MessageKeyring, messageKeyring } from '../../crypto/message-keys.js';
import { openText, type SealedMessage, sealText } from '../../crypto/message-cipher.js';
import { type CompanionSource, companionMessages } from '../../../db/schema/index.js';
import type { ServiceContext } from '../../service/context.js';

export function companionKeyring(ctx: Pick<ServiceContext, 'config' | 'log'>): MessageKeyring {
  return messageKeyring(ctx.config, ctx.log);
}

/**
 * The sealed columns of a message row: its content and, when it has any, its sources, under the
 * current key (the legacy plaintext columns left null).
 */
export function sealCompanionMessage(
  keyring: MessageKeyring,
  address: { conversationId: string; messageId: string },
  content: string,
  sources: readonly CompanionSource[] = [],
) {
  const sealed = sealText(keyring, { record: 'companion-message', ...address }, content);
  const sealedSources =
    sources.length === 0
      ? null
      : sealText(keyring, { record: 'companion-sources', ...address }, JSON.stringify(sources));
  return {
    keyId: sealed.keyId,
    nonce: sealed.nonce,
    ciphertext: sealed.ciphertext,
    legacyContent: null,
    sourcesNonce: sealedSources?.nonce ?? null,
    sourcesCiphertext: sealedSources?.ciphertext ?? null,
    legacySources: null,
  };
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
  sourcesNonce: companionMessages.sourcesNonce,
  sourcesCiphertext: companionMessages.sourcesCiphertext,
  legacySources: companionMessages.legacySources,
};

/** The columns a message is read from. */
export interface StoredCompanionMessage {
  id: string;
  conversationId: string;
  keyId: string | null;
  nonce: Uint8Array | null;
  ciphertext: Uint8Array | null;
  legacyContent: string | null;
  sourcesNonce: Uint8Array | null;
  sourcesCiphertext: Uint8Array | null;
  legacySources: CompanionSource[] | null;
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

/** A message's sources (none for a member's own message); throws like openCompanionMessage. */
export function openCompanionSources(keyring: MessageKeyring, row: StoredCompanionMessage): CompanionSource[] {
  const sealed = sealedOf(row.keyId, row.sourcesNonce, row.sourcesCiphertext);
  if (!sealed) return row.legacySources ?? [];
  const json = openText(
    keyring,
    { record: 'companion-sources', conversationId: row.conversationId, messageId: row.id },
    sealed,
  );
  return JSON.parse(json) as CompanionSource[];
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
