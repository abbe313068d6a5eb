// The table the realtime link between processes needs (server/realtime/cluster-link.ts, in the
// naming of @socket.io/postgres-adapter): PostgreSQL NOTIFY carries at most 8000 bytes, so a
// larger broadcast is written here and only its id is notified. Rows are read within
// milliseconds by the other processes and deleted after ~10 s (ATTACHMENT_TTL_MS in
// server/realtime/adapter.ts). The payload is sealed with AES-256-GCM
// before it is written (a long message's text must never be stored readable); no column names
// a member.
import { bigserial, index, pgTable, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sessions } from './accounts.js';
import { bytea, createdAt, idColumn } from './columns.js';

export const socketIoAttachments = pgTable(
  // The package's default table name, addressed with raw SQL (ATTACHMENTS_TABLE).
  'socket_io_attachments',
  {
    id: bigserial({ mode: 'bigint' }).primaryKey(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    payload: bytea().notNull(),
  },
  (t) => [index('socket_io_attachments_created_at_idx').on(t.createdAt)],
);

/**
 * Single-use socket tickets (POST /api/realtime/tickets): how a browser that never holds the
 * session token (the web front end keeps it in an HttpOnly cookie) opens the `/messages`
 * socket. Only the SHA-256 of a ticket is stored; redeeming it deletes the row. Bound to the
 * session that issued it: revoking or expiring the session (row deleted) takes its tickets with
 * it, and the socket opened with one lives in that session's room, so a revocation reaches it.
 */
export const realtimeTickets = pgTable(
  'realtime_tickets',
  {
    id: idColumn(),
    tokenHash: bytea().notNull(),
    sessionId: uuid()
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('realtime_tickets_token_hash_key').on(t.tokenHash),
    index('realtime_tickets_session_id_idx').on(t.sessionId),
    index('realtime_tickets_expires_at_idx').on(t.expiresAt),
  ],
);
