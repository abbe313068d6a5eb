// Text at rest under MESSAGE_KEYS: AES-256-GCM (node:crypto) with a fresh 96-bit random nonce
// per encryption. Every sealed text has an address (what kind of record, and its ids) that is
// bound as additional data, so a ciphertext copied onto another row, into another conversation
// or into another kind of record fails to decrypt instead of showing up there. The key id
// travels with the row; any key of the keyring decrypts.
//
// Kinds of record and their additional data (the `message` bytes are those of the first
// version and must never change, or stored messages stop opening):
//   message            cas-message:v1:<conversationId>:<messageId>
//   companion-message  cas-companion:v1:<conversationId>:<messageId>
//   companion-title    cas-companion-title:v1:<conversationId>
//   companion-sources  cas-companion-sources:v1:<conversationId>:<messageId>
//   conversation-title cas-conversation-title:v1:<conversationId>
//   report-snapshot    cas-report-snapshot:v1:<reportId>
//   totp-secret        cas-totp-secret:v1:<userId>
//   federation-keys    cas-federation-keys:v1:<federationActorId>
//   federation-queue   cas-federation-queue:v1:<messageId>
import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import type { MessageKeyring } from './message-keys.js';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A member-to-member message. */
export interface MessageAddress {
  conversationId: string;
  messageId: string;
}

/** Where a sealed text belongs. */
export type SealedTextAddress =
  | ({ record: 'message' } & MessageAddress)
  | { record: 'companion-message'; conversationId: string; messageId: string }
  | { record: 'companion-title'; conversationId: string }
  | { record: 'companion-sources'; conversationId: string; messageId: string }
  | { record: 'conversation-title'; conversationId: string }
  | { record: 'report-snapshot'; reportId: string }
  | { record: 'totp-secret'; userId: string }
  | { record: 'federation-keys'; actorId: string }
  | { record: 'federation-queue'; messageId: string };

export interface SealedMessage {
  keyId: string;
  nonce: Uint8Array;
  /** Ciphertext followed by the 16-byte GCM tag. */
  ciphertext: Uint8Array;
}

/** A text that no configured key can open (its key was retired too early, or the row was tampered with). */
export class MessageDecryptError extends Error {
  override name = 'MessageDecryptError';
}

function additionalData(address: SealedTextAddress): Buffer {
  switch (address.record) {
    case 'message':
      return Buffer.from(`cas-message:v1:${address.conversationId}:${address.messageId}`, 'utf8');
    case 'companion-message':
      return Buffer.from(`cas-companion:v1:${address.conversationId}:${address.messageId}`, 'utf8');
    case 'companion-title':
      return Buffer.from(`cas-companion-title:v1:${address.conversationId}`, 'utf8');
    case 'companion-sources':
      return Buffer.from(`cas-companion-sources:v1:${address.conversationId}:${address.messageId}`, 'utf8');
    case 'conversation-title':
      return Buffer.from(`cas-conversation-title:v1:${address.conversationId}`, 'utf8');
    case 'report-snapshot':
      return Buffer.from(`cas-report-snapshot:v1:${address.reportId}`, 'utf8');
    case 'totp-secret':
      return Buffer.from(`cas-totp-secret:v1:${address.userId}`, 'utf8');
    case 'federation-keys':
      return Buffer.from(`cas-federation-keys:v1:${address.actorId}`, 'utf8');
    case 'federation-queue':
      return Buffer.from(`cas-federation-queue:v1:${address.messageId}`, 'utf8');
  }
}

/** How errors name the record: ids only, never text. */
function describe(address: SealedTextAddress): string {
  switch (address.record) {
    case 'message':
      return `message ${address.messageId}`;
    case 'companion-message':
      return `companion message ${address.messageId}`;
    case 'companion-title':
      return `title of companion conversation ${address.conversationId}`;
    case 'companion-sources':
      return `sources of companion message ${address.messageId}`;
    case 'conversation-title':
      return `title of conversation ${address.conversationId}`;
    case 'report-snapshot':
      return `snapshot of report ${address.reportId}`;
    case 'totp-secret':
      return `authenticator secret of member ${address.userId}`;
    case 'federation-keys':
      return `private keys of federation actor ${address.actorId}`;
    case 'federation-queue':
      return `federation queue message ${address.messageId}`;
  }
}

const keyObjects = new WeakMap<Buffer, KeyObject>();

/**
 * The key as a KeyObject, made once per key: given raw bytes, every createCipheriv imports the
 * key again, a measurable share of a message POST's CPU (bench/README.md, "The send path").
 */
function keyObject(key: Buffer): KeyObject {
  let object = keyObjects.get(key);
  if (!object) {
    object = createSecretKey(key);
    keyObjects.set(key, object);
  }
  return object;
}

export function sealText(keyring: MessageKeyring, address: SealedTextAddress, text: string): SealedMessage {
  const { id, key } = keyring.current;
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyObject(key), nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(address));
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { keyId: id, nonce, ciphertext: body };
}

export function openText(keyring: MessageKeyring, address: SealedTextAddress, sealed: SealedMessage): string {
  const what = describe(address);
  const key = keyring.byId.get(sealed.keyId);
  if (!key)
    throw new MessageDecryptError(
      `${what} is encrypted with key "${sealed.keyId}", which MESSAGE_KEYS no longer lists ` +
        '(run `npm run messages:rekey` before removing a key)',
    );
  const data = Buffer.from(sealed.ciphertext);
  if (data.length < TAG_BYTES || sealed.nonce.length !== NONCE_BYTES)
    throw new MessageDecryptError(`${what}: malformed ciphertext`);
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyObject(key), Buffer.from(sealed.nonce), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(additionalData(address));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    return Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new MessageDecryptError(`${what}: authentication failed under key "${sealed.keyId}"`);
  }
}

/** A member-to-member message's text. */
export function sealMessage(keyring: MessageKeyring, address: MessageAddress, text: string): SealedMessage {
  return sealText(keyring, { record: 'message', ...address }, text);
}

export function openMessage(keyring: MessageKeyring, address: MessageAddress, sealed: SealedMessage): string {
  return openText(keyring, { record: 'message', ...address }, sealed);
}
