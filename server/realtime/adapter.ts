// How socket.io processes find each other: on PostgreSQL, @socket.io/postgres-adapter over
// LISTEN/NOTIFY on the service's own database (no extra server); on embedded PGlite, which
// belongs to one process, socket.io's default in-memory adapter.
import { createAdapter } from '@socket.io/postgres-adapter';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { MessageKeyring } from '../crypto/message-keys.js';
import type { Logger } from '../log.js';

/**
 * How long a broadcast too large for NOTIFY (over 8000 bytes) stays in socket_io_attachments.
 * The other processes read it within milliseconds of the notification; the adapter deletes
 * older rows on this period, so such payloads are on disk for at most about twice this.
 */
export const ATTACHMENT_TTL_MS = 10_000;

const ATTACHMENTS_TABLE = 'socket_io_attachments';
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

/**
 * The pool as the adapter sees it: its attachment INSERT is sealed and its attachment SELECT
 * opened on the way (the adapter issues exactly these two statements on that table).
 */
function sealingPool(pool: pg.Pool, keyring: MessageKeyring): pg.Pool {
  const query = async (text: string, params?: unknown[]) => {
    const writes = text.startsWith(`INSERT INTO ${ATTACHMENTS_TABLE}`);
    const result = await pool.query(
      text,
      writes && params ? [sealAttachment(keyring, params[0] as Uint8Array), ...params.slice(1)] : params,
    );
    if (text.startsWith(`SELECT payload FROM ${ATTACHMENTS_TABLE}`))
      result.rows = result.rows.map((row: { payload: Uint8Array }) => ({
        payload: openAttachment(keyring, row.payload),
      }));
    return result;
  };
  return { connect: () => pool.connect(), query } as unknown as pg.Pool;
}

export interface ClusterAdapter {
  /** The `adapter` option of the socket.io Server. */
  adapter: ReturnType<typeof createAdapter>;
  close(): Promise<void>;
}

export function createPostgresAdapter(databaseUrl: string, keyring: MessageKeyring, log: Logger): ClusterAdapter {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    // One connection LISTENs for the whole process; the other sends every broadcast. A single
    // sender keeps this process's broadcasts in order (a room join, then the message to that
    // room), which NOTIFY then delivers in commit order to every other process.
    max: 2,
    application_name: 'community-activism-realtime',
    connectionTimeoutMillis: 5_000,
  });
  // pg emits 'error' on an idle client, and on the checked-out LISTEN client, when its
  // connection dies (a database restart): unhandled, that would end the process. The adapter
  // reconnects its listener by itself; we only log.
  pool.on('error', (error) => log.warn({ err: error }, 'realtime adapter: database connection lost'));
  pool.on('connect', (client) =>
    client.on('error', (error) => log.warn({ err: error }, 'realtime adapter: database connection lost')),
  );
  return {
    adapter: createAdapter(sealingPool(pool, keyring), {
      tableName: ATTACHMENTS_TABLE,
      cleanupInterval: ATTACHMENT_TTL_MS,
      errorHandler: (error) => log.warn({ err: error }, 'realtime adapter: broadcast failed'),
    }),
    close: () => pool.end(),
  };
}
