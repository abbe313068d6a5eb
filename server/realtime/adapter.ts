// How socket.io processes find each other: on PostgreSQL, @socket.io/postgres-adapter over
// LISTEN/NOTIFY on the service's own database (no extra server); on embedded PGlite, which
// belongs to one process, socket.io's default in-memory adapter.
import { createAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import type { Logger } from '../log.js';

/**
 * How long a broadcast too large for NOTIFY (over 8000 bytes) stays in socket_io_attachments.
 * The other processes read it within milliseconds of the notification; the adapter deletes
 * older rows on this period, so such payloads are on disk for at most about twice this.
 */
export const ATTACHMENT_TTL_MS = 10_000;

export interface ClusterAdapter {
  /** The `adapter` option of the socket.io Server. */
  adapter: ReturnType<typeof createAdapter>;
  close(): Promise<void>;
}

export function createPostgresAdapter(databaseUrl: string, log: Logger): ClusterAdapter {
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
    adapter: createAdapter(pool, {
      cleanupInterval: ATTACHMENT_TTL_MS,
      errorHandler: (error) => log.warn({ err: error }, 'realtime adapter: broadcast failed'),
    }),
    close: () => pool.end(),
  };
}
