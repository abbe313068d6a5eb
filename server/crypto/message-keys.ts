// The message encryption keys (MESSAGE_KEYS) and where they come from. Format, also used for the
// generated file: comma-separated `<key id>:<base64 of 32 random bytes>` entries, oldest first;
// the LAST entry encrypts new messages, every entry decrypts. Key ids are 1–32 characters of
// letters, digits, `_` and `-`, unique. Rotating: append a new entry, restart, run
// `npm run messages:rekey`, then drop the old entry.
//
// Without MESSAGE_KEYS (development, tests) a key is generated once into DATA_DIR/message-keys
// and the server logs that it did; in production the server refuses to start without it.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Logger } from '../log.js';
import { readOrCreateFile } from '../lib/write-once-file.js';

export const MESSAGE_KEY_BYTES = 32;
const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
/** Name of the generated key file in DATA_DIR when MESSAGE_KEYS is unset (never in production). */
export const GENERATED_MESSAGE_KEYS_FILE = 'message-keys';

export interface MessageKey {
  id: string;
  key: Buffer;
}

export interface MessageKeyring {
  /** The newest key: encrypts every new message. */
  current: MessageKey;
  /** Every configured key by id: decrypts. */
  byId: ReadonlyMap<string, Buffer>;
}

/** A problem with the MESSAGE_KEYS text; the message never repeats key material. */
export class MessageKeysError extends Error {
  override name = 'MessageKeysError';
}

export function parseMessageKeys(text: string): MessageKeyring {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new MessageKeysError('must list at least one `<key id>:<base64 key>` entry');
  const byId = new Map<string, Buffer>();
  let current: MessageKey | undefined;
  entries.forEach((entry, index) => {
    const colon = entry.indexOf(':');
    const id = colon < 0 ? '' : entry.slice(0, colon);
    const encoded = colon < 0 ? '' : entry.slice(colon + 1);
    const where = `entry ${index + 1}`;
    if (!KEY_ID_PATTERN.test(id))
      throw new MessageKeysError(`${where}: expected <key id>:<base64 key>, key id 1–32 letters, digits, _ or -`);
    if (byId.has(id)) throw new MessageKeysError(`${where}: key id "${id}" is listed twice`);
    const key = Buffer.from(encoded, 'base64');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || key.length !== MESSAGE_KEY_BYTES)
      throw new MessageKeysError(
        `${where} ("${id}"): the key must be ${MESSAGE_KEY_BYTES} bytes in base64 (openssl rand -base64 32)`,
      );
    byId.set(id, key);
    current = { id, key };
  });
  return { current: current!, byId };
}

/** A fresh entry for MESSAGE_KEYS: `<id>:<base64 key>`, the id naming the day it was made. */
export function newMessageKeyEntry(now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  return `k${day}-${randomBytes(3).toString('hex')}:${randomBytes(MESSAGE_KEY_BYTES).toString('base64')}`;
}

/** Why the server does not start: production without MESSAGE_KEYS. */
export const MISSING_IN_PRODUCTION =
  'MESSAGE_KEYS is required when NODE_ENV=production (messages are encrypted at rest). ' +
  'Set it to `<key id>:<base64 of 32 random bytes>`, e.g. `k1:$(openssl rand -base64 32)`, and keep a copy: ' +
  'messages cannot be read without it.';

/** What the keyring reads of the configuration (spelled out: config.ts imports this module to validate MESSAGE_KEYS). */
type KeyConfig = { MESSAGE_KEYS?: string | undefined; NODE_ENV: string; DATA_DIR: string };
const keyrings = new WeakMap<object, MessageKeyring>();

/**
 * The keyring of this configuration (read once per config object). MESSAGE_KEYS wins; without
 * it, production throws (the server turns that into its startup error) and anything else reads
 * or creates DATA_DIR/message-keys, logging a warning when it creates one.
 */
export function messageKeyring(config: KeyConfig, log?: Pick<Logger, 'warn'>): MessageKeyring {
  const known = keyrings.get(config);
  if (known) return known;
  let keyring: MessageKeyring;
  if (config.MESSAGE_KEYS) keyring = parseMessageKeys(config.MESSAGE_KEYS);
  else if (config.NODE_ENV === 'production') throw new MessageKeysError(MISSING_IN_PRODUCTION);
  else {
    const file = path.resolve(config.DATA_DIR, GENERATED_MESSAGE_KEYS_FILE);
    const { text, created } = readOrCreateFile(file, newMessageKeyEntry);
    keyring = parseMessageKeys(text);
    if (created)
      log?.warn(
        { file, keyId: keyring.current.id },
        `MESSAGE_KEYS is not set: generated a message encryption key into ${file}. ` +
          'Messages cannot be read without it; in production set MESSAGE_KEYS (this file holds the same format).',
      );
  }
  keyrings.set(config, keyring);
  return keyring;
}
