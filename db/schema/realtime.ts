// The table @socket.io/postgres-adapter needs: PostgreSQL NOTIFY carries at most 8000 bytes, so
// a larger (or binary) broadcast is written here and only its id is notified. Rows are read
// within milliseconds by the other processes and deleted by the adapter after ~10 s
// (ATTACHMENT_TTL_MS in server/realtime/adapter.ts). The payload is sealed with AES-256-GCM
// before it is written (a long message's text must never be stored readable); no column names
// a member.
import { bigserial, index, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { bytea } from './columns.js';

export const socketIoAttachments = pgTable(
  // The adapter's default table name, which it addresses with raw SQL.
  'socket_io_attachments',
  {
    id: bigserial({ mode: 'bigint' }).primaryKey(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    payload: bytea().notNull(),
  },
  (t) => [index('socket_io_attachments_created_at_idx').on(t.createdAt)],
);
