// The member's own data archive (issue #25, "Their own data"): one row per member, the latest
// export they asked for. The archive itself (a zip of JSON files, docs/data-export.md) is kept
// in the row as bytea until it is downloaded once or 24 hours pass, then nulled by the download
// or the sweep (server/domains/data-export/). Only the SHA-256 of the download token is stored.
// The row goes with the account (cascade), archive and all.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { bytea } from './columns.js';

/** Stored states; `expired` covers both "downloaded" and "24 hours passed" (the archive is gone). */
export const dataExportStatuses = ['queued', 'building', 'ready', 'failed', 'expired'] as const;
export type DataExportStatus = (typeof dataExportStatuses)[number];

export const dataExports = pgTable(
  'data_exports',
  {
    userId: uuid()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text({ enum: dataExportStatuses }).notNull(),
    requestedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    /** When a builder claimed it (a claim older than the build deadline is retried). */
    startedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** When it became ready or failed. */
    finishedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Ready archives: 24 hours after finishedAt. */
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }),
    downloadedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Builds tried (a crashed builder's claim is retried up to a limit, then the export fails). */
    attempts: integer().notNull().default(0),
    /** The zip; null unless ready. */
    archive: bytea(),
    archiveBytes: integer(),
    fileCount: integer(),
    /** SHA-256 of the live download token; null when no link is live. */
    tokenHash: bytea(),
  },
  (t) => [
    index('data_exports_queued_idx').on(t.requestedAt).where(sql`${t.status} in ('queued', 'building')`),
    index('data_exports_expires_at_idx').on(t.expiresAt).where(sql`${t.archive} is not null`),
    check('data_exports_archive_only_when_ready', sql`${t.archive} is null or ${t.status} = 'ready'`),
  ],
);

export type DataExport = typeof dataExports.$inferSelect;
