// Where attached upload keys are kept, per purpose: the one list the sweep of orphaned images and
// account deletion read. A route that starts attaching a new purpose adds its column here.
import { and, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../../../db/client.js';
import { events, guides, imageUploads, mediaItems, places, posts } from '../../../db/schema/index.js';

/**
 * One per image field that attaches uploads (listed below with where each is kept): post
 * images, place photos, event covers, media posters, guide covers. The spec has no avatar or
 * other image field, so there is no purpose for one: a key nothing could attach is not issued.
 */
export const imagePurposes = ['post', 'place', 'event', 'media', 'guide'] as const;
export type ImagePurpose = (typeof imagePurposes)[number];

interface ImageHolder {
  table: PgTable;
  /** The column's name in the database: a text[] of refs (`list`) or a single text. */
  column: string;
  list: boolean;
}

// Column names as in the database (the schema maps camelCase to snake_case).
const HOLDERS: Record<ImagePurpose, ImageHolder> = {
  post: { table: posts, column: 'image_keys', list: true },
  place: { table: places, column: 'photos', list: true },
  event: { table: events, column: 'cover_image', list: false },
  media: { table: mediaItems, column: 'poster', list: false },
  guide: { table: guides, column: 'cover_image', list: false },
};

const held = Object.entries(HOLDERS) as [ImagePurpose, ImageHolder][];

/**
 * Attached uploads that no record holds any more, attached before `attachedBefore`: a record
 * deleted by a cascade (a grove, an account) or a release interrupted after its commit. Deletes
 * their rows and returns their keys (the caller removes the bytes).
 */
export async function deleteOrphanedImages(tx: Tx, attachedBefore: Date): Promise<string[]> {
  const keys: string[] = [];
  for (const [purpose, holder] of held) {
    const column = sql`h.${sql.identifier(holder.column)}`;
    // Both forms are pulled up into one anti-join (one pass over the holding table), where
    // `key = any(column)` would scan the table once per image.
    const holds = holder.list
      ? sql`select 1 from ${holder.table} h cross join unnest(${column}) as held(ref) where held.ref = ${imageUploads.key}`
      : sql`select 1 from ${holder.table} h where ${column} = ${imageUploads.key}`;
    const rows = await tx
      .delete(imageUploads)
      .where(
        and(
          eq(imageUploads.purpose, purpose),
          isNotNull(imageUploads.attachedAt),
          lt(imageUploads.attachedAt, attachedBefore),
          sql`not exists (${holds})`,
        ),
      )
      .returning({ key: imageUploads.key });
    keys.push(...rows.map((row) => row.key));
  }
  return keys;
}

/**
 * Account deletion: records that outlive the member (an approved place, an event of a grove, a
 * media item) stop naming the member's uploads, whose rows and bytes go with the account. A key
 * starts with its purpose, so only the holders of those purposes are touched; posts are not: a
 * post holds only its author's keys and goes with the account.
 */
export async function forgetImagesOf(tx: Tx, keys: readonly string[]): Promise<void> {
  for (const [purpose, holder] of held) {
    if (purpose === 'post') continue;
    const ofPurpose = keys.filter((key) => key.startsWith(`${purpose}/`));
    if (ofPurpose.length === 0) continue;
    const list = sql`array[${sql.join(
      ofPurpose.map((key) => sql`${key}`),
      sql`, `,
    )}]::text[]`;
    const column = sql.identifier(holder.column);
    if (holder.list)
      await tx.execute(
        sql`update ${holder.table} set ${column} = array(select ref from unnest(${column}) with ordinality as u(ref, n)
              where ref <> all(${list}) order by n)
            where ${column} && ${list}`,
      );
    else await tx.execute(sql`update ${holder.table} set ${column} = null where ${column} = any(${list})`);
  }
}

/** The keys an owner's uploads have, for account deletion. */
export async function uploadKeysOf(tx: Tx, ownerId: string): Promise<string[]> {
  const rows = await tx
    .select({ key: imageUploads.key })
    .from(imageUploads)
    .where(and(eq(imageUploads.ownerId, ownerId), isNotNull(imageUploads.attachedAt)));
  return rows.map((row) => row.key);
}
