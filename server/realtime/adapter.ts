// How socket.io processes find each other: on PostgreSQL, LISTEN/NOTIFY on the service's own
// database (no extra server); on embedded PGlite, which belongs to one process, socket.io's
// default in-memory adapter. The adapter class is @socket.io/postgres-adapter's (its wire format,
// so processes of two versions still understand each other's notifications); the connections
// under it are ours (server/realtime/cluster-link.ts), because the package's own leaked its
// LISTEN client whenever the database went away and never delivered again.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { MessageKeyring } from '../crypto/message-keys.js';

/**
 * How long a broadcast too large for NOTIFY (over 8000 bytes) stays in socket_io_attachments.
 * The other processes read it within milliseconds of the notification; the adapter deletes
 * older rows on this period, so such payloads are on disk for at most about twice this.
 */
export const ATTACHMENT_TTL_MS = 10_000;

export const ATTACHMENTS_TABLE = 'socket_io_attachments';
const CONTEXT = Buffer.from('cas-realtime-attachment:v1', 'utf8');
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A key for attachments only, derived from a message key (never the message key itself). */
const attachmentKey = (messageKey: Buffer) => Buffer.from(hkdfSync('sha256', messageKey, Buffer.alloc(0), CONTEXT, 32));

/**
 * Broadcasts that do not fit NOTIFY are written to the attachments table, and a new message
 * carries its plaintext: sealed with AES-256-GCM under a key derived from the newest
 * MESSAGE_KEYS entry, so the table never holds readable message text (messages are encrypted
 * at rest). Layout: key-id length, key id, nonce, ciphertext and tag.
 */
export function sealAttachment(keyring: MessageKeyring, payload: Uint8Array): Buffer {
  const { id, key } = keyring.current;
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', attachmentKey(key), nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(CONTEXT);
  const idBytes = Buffer.from(id, 'utf8');
  return Buffer.concat([
    Buffer.from([idBytes.length]),
    idBytes,
    nonce,
    cipher.update(payload),
    cipher.final(),
    cipher.getAuthTag(),
  ]);
}

export function openAttachment(keyring: MessageKeyring, sealed: Uint8Array): Buffer {
  const data = Buffer.from(sealed);
  const idLength = data[0] ?? 0;
  const id = data.subarray(1, 1 + idLength).toString('utf8');
  const key = keyring.byId.get(id);
  if (!key) throw new Error(`realtime attachment sealed with unknown key "${id}"`);
  const nonce = data.subarray(1 + idLength, 1 + idLength + NONCE_BYTES);
  const body = data.subarray(1 + idLength + NONCE_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', attachmentKey(key), nonce, { authTagLength: TAG_BYTES });
  decipher.setAAD(CONTEXT);
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
}
