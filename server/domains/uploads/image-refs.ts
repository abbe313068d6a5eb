// Image fields of records (place photos, event covers, media posters, guide covers; post images
// are keys only): each value is either an absolute https URL (an image hosted elsewhere, stored
// as given) or the key of an upload, attached to the record when it is written (attachImage:
// issued to this caller for this purpose, a real image, re-encoded without metadata). When the
// record lets go of a key (replaced or deleted), the key is released: its row goes, so the URL
// answers 404 at once, then its bytes. A URL that kept working after its record was deleted
// would be a capability nobody can revoke.
import { and, inArray, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { imageUploads } from '../../../db/schema/index.js';
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { IMAGE_KEY_PATTERN, imageStorage, imageUrlFor, type ImageStorageConfig } from './image-storage.js';
import { attachImage, discardRawUploads, type ImagePurpose } from './images.js';
import type { MemberServiceContext } from '../../service/context.js';

/** True for an upload key (`<purpose>/<random>`), false for a URL or anything else. */
export const isUploadKey = (ref: string | null | undefined): ref is string =>
  typeof ref === 'string' && IMAGE_KEY_PATTERN.test(ref);

/** An image hosted elsewhere (the input schema only lets https URLs through; the scheme is case-blind). */
const isHttpsUrl = (ref: string) => /^https:\/\//i.test(ref);

/** The URL a client loads: the https URL as stored, the clean image of an upload key, else null. */
export function imageRefUrl(config: Pick<Config, 'PUBLIC_URL'>, ref: string | null | undefined): string | null {
  if (!ref) return null;
  if (isHttpsUrl(ref)) return ref;
  return isUploadKey(ref) ? imageUrlFor(config, ref) : null;
}

/**
 * Attaches the upload keys among `refs` (URLs are left as they are) with `purpose`, in the
 * transaction that writes the record (`executor`), so a refused image leaves no record and a
 * refused record leaves the keys attachable. `field` names the input in error messages (with
 * `list`, each ref is named `field[i]`); refs in `keep` (what the record already holds) are not
 * attached again. Returns the keys attached: pass them to `afterImagesAttached` once the record
 * is committed.
 */
export async function attachImageRefs(
  ctx: MemberServiceContext,
  refs: readonly (string | null | undefined)[],
  purpose: ImagePurpose,
  options: { executor?: DbOrTx; field: string; list?: boolean; keep?: readonly (string | null | undefined)[] },
): Promise<string[]> {
  const attached: string[] = [];
  const kept = new Set(options.keep ?? []);
  for (const [index, ref] of refs.entries()) {
    // A URL stays a URL; a key the record already holds is not attached a second time.
    if (!ref || isHttpsUrl(ref) || kept.has(ref)) continue;
    const field = options.list ? `${options.field}[${index}]` : options.field;
    await attachImage(ctx, ref, purpose, { executor: options.executor, field });
    attached.push(ref);
  }
  return attached;
}

/** After the record is committed: the raw uploads (with their metadata) are no longer needed. */
export const afterImagesAttached = (ctx: MemberServiceContext, keys: readonly string[]) =>
  keys.length === 0 ? Promise.resolve() : discardRawUploads(ctx, keys);

/** What releasing needs: a database (or transaction) and where the bytes live. */
export interface ImageReleaseEnv {
  db: DbOrTx;
  config: ImageStorageConfig;
  log: Logger;
}

/**
 * Releases the attached upload keys among `refs` (URLs are ignored): deletes their rows (the
 * image URL answers 404 from then on) and their bytes in both storage areas. Call it after the
 * record that held them is deleted or no longer names them; if the process stops in between,
 * the sweep of orphaned images (image-sweep.ts) releases them later.
 */
export async function releaseImages(
  env: ImageReleaseEnv,
  refs: readonly (string | null | undefined)[],
): Promise<string[]> {
  const keys = [...new Set(refs.filter(isUploadKey))];
  if (keys.length === 0) return [];
  const released = await env.db
    .delete(imageUploads)
    .where(and(inArray(imageUploads.key, keys), isNotNull(imageUploads.attachedAt)))
    .returning({ key: imageUploads.key });
  const gone = released.map((row) => row.key);
  await imageStorage(env.config).remove(gone, env.log);
  return gone;
}

/** The keys `before` held that `after` no longer holds (what a replacement releases). */
export function droppedImageRefs(
  before: readonly (string | null | undefined)[],
  after: readonly (string | null | undefined)[],
): string[] {
  const still = new Set(after);
  return before.filter((ref): ref is string => isUploadKey(ref) && !still.has(ref));
}
