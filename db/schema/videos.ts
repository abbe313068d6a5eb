// Videos members upload with the resumable tus protocol. The row exists from
// POST /api/uploads/video/create; the bytes arrive over tus and the row turns `ready` when the
// last byte is in. The upload authorization is a random secret of which only the hash is kept.
import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { bytea, createdAt, idColumn } from './columns.js';

export const videoStates = ['uploading', 'ready'] as const;
export type VideoState = (typeof videoStates)[number];

export const videos = pgTable(
  'videos',
  {
    id: idColumn(),
    ownerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    state: text({ enum: videoStates }).notNull().default('uploading'),
    /** Largest upload the authorization allows: the declared length, or VIDEO_MAX_BYTES. */
    maxBytes: bigint({ mode: 'number' }).notNull(),
    /** Set when the tus upload is created (its Upload-Length, when known). */
    sizeBytes: bigint({ mode: 'number' }),
    uploadStartedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** SHA-256 of the tus authorization secret. */
    uploadTokenHash: bytea().notNull(),
    uploadTokenExpiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
    readyAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('videos_owner_id_idx').on(t.ownerId),
    uniqueIndex('videos_upload_token_hash_key').on(t.uploadTokenHash),
    index('videos_abandoned_idx').on(t.uploadTokenExpiresAt).where(sql`state = 'uploading'`),
  ],
);

export type Video = typeof videos.$inferSelect;
