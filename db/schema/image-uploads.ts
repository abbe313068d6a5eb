// Images members upload with a presigned PUT (POST /api/uploads/image/presign). The row is the
// proof that a key was issued to this member for this purpose; attaching it (a post's image, a
// media poster…) checks and re-encodes the bytes and sets attachedAt. Rows never attached are
// swept with their bytes after a day. Attaching discards the raw upload at once, but the upload
// URL stays valid until expiresAt and a retried PUT (an app's upload queue, say) can write the
// raw bytes, metadata and all, again: once the URL has expired the sweep deletes the raw object
// one last time and sets rawSweptAt.
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt } from './columns.js';

export const imageUploads = pgTable(
  'image_uploads',
  {
    /** `<purpose>/<random>`: the key the client received and passes to the attaching route. */
    key: text().primaryKey(),
    ownerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text().notNull(),
    /** The content type the signature binds (what the client declared). */
    contentType: text().notNull(),
    /** The exact length the signature binds. */
    contentLength: bigint({ mode: 'number' }).notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    /** Set once the clean, re-encoded image is stored and used by a record. */
    attachedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Content type of the clean image (re-encoding may change it, e.g. HEIC → JPEG). */
    cleanContentType: text(),
    /** When the sweep deleted the raw object after the upload URL expired (attached uploads only). */
    rawSweptAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** What the picture shows, in the uploader's words (the `alt` of the presign); null when not given. */
    alt: text(),
    /** Size of the clean image in pixels (after orientation); null for images attached before sizes were kept. */
    width: integer(),
    height: integer(),
    /**
     * The resized WebP variants made when the image was attached (image-variants.ts), narrowest
     * first, each stored at `w<width>/<key>`; null before variants existed, [] for a small image.
     */
    variants: jsonb().$type<{ width: number; height: number }[]>(),
  },
  (t) => [
    index('image_uploads_owner_id_idx').on(t.ownerId),
    index('image_uploads_unattached_idx').on(t.createdAt).where(sql`attached_at is null`),
    index('image_uploads_raw_unswept_idx').on(t.expiresAt).where(sql`attached_at is not null and raw_swept_at is null`),
  ],
);

export type ImageUpload = typeof imageUploads.$inferSelect;
