// Message text at rest: AES-256-GCM (node:crypto) with a fresh 96-bit random nonce per
// encryption. The conversation id and the message id are bound as additional data, so a
// ciphertext copied onto another row (or into another conversation) fails to decrypt instead of
// showing up there. The key id travels with the row; any key of the keyring decrypts.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { MessageKeyring } from './message-keys.js';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export interface MessageAddress {
  conversationId: string;
  messageId: string;
}

export interface SealedMessage {
  keyId: string;
  nonce: Uint8Array;
  /** Ciphertext followed by the 16-byte GCM tag. */
  ciphertext: Uint8Array;
}

/** A message that no configured key can open (its key was retired too early, or the row was tampered with). */
export class MessageDecryptError extends Error {
  override name = 'MessageDecryptError';
}

function additionalData({ conversationId, messageId }: MessageAddress): Buffer {
  return Buffer.from(`cas-message:v1:${conversationId}:${messageId}`, 'utf8');
}

export function sealMessage(keyring: MessageKeyring, address: MessageAddress, text: string): SealedMessage {
  const { id, key } = keyring.current;
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(address));
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { keyId: id, nonce, ciphertext: body };
}

export function openMessage(keyring: MessageKeyring, address: MessageAddress, sealed: SealedMessage): string {
  const key = keyring.byId.get(sealed.keyId);
  if (!key)
    throw new MessageDecryptError(
      `message ${address.messageId} is encrypted with key "${sealed.keyId}", which MESSAGE_KEYS no longer lists ` +
        '(run `npm run messages:rekey` before removing a key)',
    );
  const data = Buffer.from(sealed.ciphertext);
  if (data.length < TAG_BYTES || sealed.nonce.length !== NONCE_BYTES)
    throw new MessageDecryptError(`message ${address.messageId}: malformed ciphertext`);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.nonce), { authTagLength: TAG_BYTES });
    decipher.setAAD(additionalData(address));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    return Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new MessageDecryptError(`message ${address.messageId}: authentication failed under key "${sealed.keyId}"`);
  }
}
