// Image uploads: presign a PUT (the bytes never travel through the API), then attach the key from
// the route that uses the image. Attaching is where the bytes are trusted: issued to this caller
// for this purpose, not used before, really an image of the declared type, within the size and
// pixel limits, and re-encoded with sharp so no metadata block survives (EXIF GPS position,
// camera serial, XMP, IPTC: a protest photo must never tell where and with what it was taken).
import { and, eq, inArray, isNotNull, isNull, lt } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { DbOrTx, Tx } from '../../../db/client.js';
import { imageUploads } from '../../../db/schema/index.js';
import { AppError } from '../../errors.js';
import type { AccountDeletionEnv } from '../manifest.js';
import { forgetImagesOf, type ImagePurpose, uploadKeysOf } from './image-holders.js';

// The purposes live with the holders they name (image-holders.ts); re-exported for the domains.
export { imagePurposes, type ImagePurpose } from './image-holders.js';
import { imageStorage, imageUrlFor, IMAGE_KEY_PATTERN } from './image-storage.js';
import type { MemberServiceContext } from '../../service/context.js';
import { makeVariants, VARIANT_CONTENT_TYPE } from './image-variants.js';
import { loadSharp } from './sharp.js';

export const imageContentTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/heic'] as const;
export type ImageContentType = (typeof imageContentTypes)[number];

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** `<purpose>/` then 26 base32 characters (130 random bits): unguessable, safe as a path. */
function newImageKey(purpose: ImagePurpose): string {
  const bytes = randomBytes(26);
  let random = '';
  for (const byte of bytes) random += BASE32[byte & 31];
  return `${purpose}/${random}`;
}

export async function presignImage(
  ctx: MemberServiceContext,
  input: { contentType: ImageContentType; purpose: ImagePurpose; contentLength: number; alt?: string | null },
) {
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + ctx.config.IMAGE_UPLOAD_URL_TTL_SECONDS * 1000);
  const key = newImageKey(input.purpose);
  await ctx.db.insert(imageUploads).values({
    key,
    ownerId: ctx.user.id,
    purpose: input.purpose,
    contentType: input.contentType,
    contentLength: input.contentLength,
    alt: input.alt?.trim() || null,
    createdAt: now,
    expiresAt,
  });
  const url = await imageStorage(ctx.config).presignPut(
    { key, contentType: input.contentType, contentLength: input.contentLength, expiresAt },
    now,
  );
  return { url, key, expiresAt: expiresAt.toISOString() };
}

/** The bytes really start like the declared type (the client's Content-Type is only a claim). */
export function magicBytesMatch(contentType: string, bytes: Buffer): boolean {
  switch (contentType) {
    case 'image/jpeg':
      return bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
    case 'image/png':
      return bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    case 'image/webp':
      return bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP';
    case 'image/heic':
      return (
        bytes.subarray(4, 8).toString('latin1') === 'ftyp' &&
        ['heic', 'heix', 'heim', 'heis', 'mif1', 'msf1'].includes(bytes.subarray(8, 12).toString('latin1'))
      );
    default:
      return false;
  }
}

/**
 * Decodes and re-encodes: orientation applied to the pixels, every metadata block dropped (sharp
 * keeps none unless asked). HEIC becomes JPEG; the others keep their format.
 */
async function reencode(bytes: Buffer, contentType: string, maxPixels: number) {
  const sharp = await loadSharp();
  const image = sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error', sequentialRead: true }).rotate();
  switch (contentType) {
    case 'image/png':
      return { bytes: await image.png().toBuffer(), contentType: 'image/png' };
    case 'image/webp':
      return { bytes: await image.webp({ quality: 85 }).toBuffer(), contentType: 'image/webp' };
    default:
      return { bytes: await image.jpeg({ quality: 85, mozjpeg: true }).toBuffer(), contentType: 'image/jpeg' };
  }
}

/** What the attaching record stores (the key) and shows (the URL of the clean image). */
export interface AttachedImage {
  key: string;
  url: string;
}

const notYours = (field: string) =>
  new AppError(
    'validation_failed',
    `${field}: not an image upload of yours for this use, or already used (presign one with POST /api/uploads/image/presign).`,
  );

/**
 * Attaches an uploaded image to the record being written. Pass the transaction that writes the
 * record as `executor`: if the record is not written, the key stays unattached (usable again).
 * `field` names the input in error messages (e.g. `imageKeys[0]`).
 */
export async function attachImage(
  ctx: MemberServiceContext,
  key: string,
  purpose: ImagePurpose,
  options: { executor?: DbOrTx; field?: string } = {},
): Promise<AttachedImage> {
  const db = options.executor ?? ctx.db;
  const field = options.field ?? 'key';
  if (!IMAGE_KEY_PATTERN.test(key)) throw notYours(field);
  const [row] = await db
    .select()
    .from(imageUploads)
    .where(
      and(
        eq(imageUploads.key, key),
        eq(imageUploads.ownerId, ctx.user.id),
        eq(imageUploads.purpose, purpose),
        isNull(imageUploads.attachedAt),
      ),
    )
    .limit(1);
  if (!row) throw notYours(field);
  const storage = imageStorage(ctx.config);
  const raw = await storage.read('incoming', key);
  if (!raw) throw new AppError('validation_failed', `${field}: nothing was uploaded to this key yet.`);
  if (raw.length !== row.contentLength || !magicBytesMatch(row.contentType, raw))
    throw new AppError('validation_failed', `${field}: the upload is not a ${row.contentType} image.`);
  let clean: { bytes: Buffer; contentType: string };
  let sized: Awaited<ReturnType<typeof makeVariants>>;
  try {
    clean = await reencode(raw, row.contentType, ctx.config.IMAGE_MAX_PIXELS);
    sized = await makeVariants(clean.bytes, ctx.config.IMAGE_MAX_PIXELS);
  } catch {
    throw new AppError(
      'validation_failed',
      `${field}: the image could not be decoded, or is larger than ${ctx.config.IMAGE_MAX_PIXELS} pixels.`,
    );
  }
  await storage.write('clean', key, clean.bytes, clean.contentType);
  for (const variant of sized.variants)
    await storage.write(`w${variant.width}`, key, variant.bytes, VARIANT_CONTENT_TYPE);
  // Only one record gets the key, even when two attach it at once.
  const claimed = await db
    .update(imageUploads)
    .set({
      attachedAt: ctx.clock.now(),
      cleanContentType: clean.contentType,
      width: sized.width,
      height: sized.height,
      variants: sized.variants.map(({ width, height }) => ({ width, height })),
    })
    .where(and(eq(imageUploads.key, key), isNull(imageUploads.attachedAt)))
    .returning({ key: imageUploads.key });
  if (claimed.length === 0) throw notYours(field);
  return { key, url: imageUrlFor(ctx.config, key) };
}

/**
 * After the record is committed: the raw upload (with its metadata) is no longer needed. Kept
 * apart from attachImage so a rolled-back record leaves the key attachable again.
 */
export async function discardRawUploads(ctx: MemberServiceContext, keys: readonly string[]): Promise<void> {
  await imageStorage(ctx.config).remove(keys, ctx.log, ['incoming']);
}

/** A clean image to serve (only attached uploads have one), with the widths of its variants. */
export async function attachedImage(
  db: DbOrTx,
  key: string,
): Promise<{ contentType: string; variants: { width: number }[] | null } | null> {
  if (!IMAGE_KEY_PATTERN.test(key)) return null;
  const [row] = await db
    .select({ contentType: imageUploads.cleanContentType, variants: imageUploads.variants })
    .from(imageUploads)
    .where(and(eq(imageUploads.key, key), isNotNull(imageUploads.attachedAt)))
    .limit(1);
  return row?.contentType ? { contentType: row.contentType, variants: row.variants } : null;
}

/** How far the object store's clock may run behind ours when it checks a URL's expiry. */
const UPLOAD_URL_CLOCK_MARGIN_MS = 5 * 60_000;

/**
 * Attached uploads whose upload URL expired (with a margin for the store's clock) and whose raw
 * object the sweep has not deleted since: marks up to `limit` of them swept and returns their
 * keys, for the caller to delete `incoming/<key>`. Until then a retried PUT could have written it
 * again after the attach discarded it.
 */
export async function markRawObjectsSwept(tx: Tx, now: Date, limit: number): Promise<string[]> {
  const expiredBefore = new Date(now.getTime() - UPLOAD_URL_CLOCK_MARGIN_MS);
  const due = tx
    .select({ key: imageUploads.key })
    .from(imageUploads)
    .where(
      and(
        isNotNull(imageUploads.attachedAt),
        isNull(imageUploads.rawSweptAt),
        lt(imageUploads.expiresAt, expiredBefore),
      ),
    )
    .orderBy(imageUploads.expiresAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await tx
    .update(imageUploads)
    .set({ rawSweptAt: now })
    .where(inArray(imageUploads.key, due))
    .returning({ key: imageUploads.key });
  return rows.map((r) => r.key);
}

/** Uploads never attached a day after they were presigned. Returns their keys. */
export async function deleteUnattachedUploads(tx: Tx, now: Date): Promise<string[]> {
  const cutoff = new Date(now.getTime() - 24 * 3600_000);
  const rows = await tx
    .delete(imageUploads)
    .where(and(isNull(imageUploads.attachedAt), lt(imageUploads.createdAt, cutoff)))
    .returning({ key: imageUploads.key });
  return rows.map((r) => r.key);
}

/**
 * Deleting an account deletes its image uploads: records that outlive the member (an approved
 * place, a grove's event, a media item) stop naming them, then the rows go (before the cascade),
 * then the bytes.
 */
export async function removeImagesOfDeletedMember(tx: Tx, userId: string, env: AccountDeletionEnv): Promise<void> {
  await forgetImagesOf(tx, await uploadKeysOf(tx, userId));
  const rows = await tx
    .delete(imageUploads)
    .where(eq(imageUploads.ownerId, userId))
    .returning({ key: imageUploads.key });
  await imageStorage(env.config).remove(
    rows.map((r) => r.key),
    env.log,
  );
}
