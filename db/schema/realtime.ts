// The table @socket.io/postgres-adapter needs: PostgreSQL NOTIFY carries at most 8000 bytes, so
// a larger (or binary) broadcast is written here and only its id is notified. Rows are read
// within milliseconds by the other processes and deleted by the adapter after
// REALTIME_ATTACHMENT_TTL_MS (server/realtime/adapter.ts). No row names a member by key: the
// payload is an opaque msgpack blob, gone within seconds.
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
