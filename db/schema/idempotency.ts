// Idempotency keys: the first successful answer to a create, per member and key, so a client
// retrying after a timeout (or a 503) gets that answer back instead of creating a duplicate.
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { bytea } from './columns.js';

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** Keys are per member; the row goes with the account (cascade). */
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The client's Idempotency-Key header (1–255 printable ASCII characters). */
    key: text().notNull(),
    /** SHA-256 of the procedure path and the canonical JSON of the input: same key, other body → 409. */
    fingerprint: bytea().notNull(),
    /**
     * HTTP status and JSON text of the stored answer (verbatim, key order included). Null only
     * inside the first attempt's own transaction: the row commits together with its answer.
     */
    status: integer(),
    responseBody: text(),
    /** Keys are kept 24 hours from here; the sweep deletes older rows. */
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'idempotency_keys_pkey', columns: [t.userId, t.key] }),
    index('idempotency_keys_created_at_idx').on(t.createdAt),
  ],
);
