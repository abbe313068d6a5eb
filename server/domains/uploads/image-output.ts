// The `Image` object the API answers beside each image URL: the clean image's URL and size, the
// uploader's alt text, and the resized variants (`{PUBLIC_URL}/uploads/images/{key}?w=<width>`),
// so a client can fill `srcset`, `width`/`height` and `alt` without loading the picture first.
// An image hosted elsewhere (an https URL given instead of an upload) has no size, alt or
// variants; neither has an upload attached before sizes were kept (width/height null).
import { type AnyColumn, inArray, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../../../db/client.js';
import { imageUploads } from '../../../db/schema/index.js';
import type { Config } from '../../config.js';
import { imageRefUrl, isUploadKey } from './image-refs.js';
import { imageUrlFor } from './image-storage.js';

export const IMAGE_ALT_MAX_LENGTH = 1000;

export const imageOutput = z
  .object({
    url: z.string().meta({ description: 'The clean image (metadata stripped), at its full size.' }),
    width: z.number().int().nullable().meta({
      description: 'In pixels; null when unknown (an image hosted elsewhere, or an upload older than sizes).',
    }),
    height: z.number().int().nullable(),
    alt: z.string().nullable().meta({
      description: "What the picture shows, in the uploader's words (the presign's `alt`); null when not given.",
    }),
    variants: z.array(z.object({ url: z.string(), width: z.number().int(), height: z.number().int() })).meta({
      description:
        'Resized WebP copies, narrowest first, at the widths 320, 640 and 1280 that are narrower than the image (never enlarged; made from the clean image, so without metadata too). Empty for a small image, an image hosted elsewhere or an upload older than variants.',
    }),
  })
  .meta({ id: 'Image' });

export type ImageOutput = z.infer<typeof imageOutput>;

/** What image_uploads knows of an attached key. */
export interface ImageDetails {
  alt: string | null;
  width: number | null;
  height: number | null;
  variants: { width: number; height: number }[] | null;
}

export type ImageDetailsByKey = ReadonlyMap<string, ImageDetails>;

/** The details of the upload keys among `refs`, in one query (URLs and nulls are skipped). */
export async function lookupImageDetails(
  db: DbOrTx,
  refs: readonly (string | null | undefined)[],
): Promise<ImageDetailsByKey> {
  const keys = [...new Set(refs.filter(isUploadKey))];
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({
      key: imageUploads.key,
      alt: imageUploads.alt,
      width: imageUploads.width,
      height: imageUploads.height,
      variants: imageUploads.variants,
    })
    .from(imageUploads)
    .where(inArray(imageUploads.key, keys));
  return new Map(rows.map(({ key, ...details }) => [key, details]));
}

/**
 * A select column with the details of the upload key held in `column` (a single ref), for a
 * query that lists records: one index probe per row in the same statement, null for a URL.
 */
export function imageDetailsColumn(column: AnyColumn | SQL): SQL<ImageDetails | null> {
  return sql<ImageDetails | null>`(select json_build_object('alt', i.alt, 'width', i.width, 'height', i.height,
    'variants', i.variants) from image_uploads i where i.key = ${column})`;
}

/** The `Image` of a stored ref (an https URL or an upload key), or null when there is none. */
export function imageOutputFor(
  config: Pick<Config, 'PUBLIC_URL'>,
  ref: string | null | undefined,
  details: ImageDetails | undefined,
): ImageOutput | null {
  const url = imageRefUrl(config, ref);
  if (!url || !ref) return null;
  return {
    url,
    width: details?.width ?? null,
    height: details?.height ?? null,
    alt: details?.alt ?? null,
    variants: (details?.variants ?? []).map((variant) => ({
      url: `${imageUrlFor(config, ref)}?w=${variant.width}`,
      width: variant.width,
      height: variant.height,
    })),
  };
}

/** The `Image`s of a list of refs, in order (refs without one are left out). */
export function imageOutputsFor(
  config: Pick<Config, 'PUBLIC_URL'>,
  refs: readonly string[],
  details: ImageDetailsByKey,
): ImageOutput[] {
  return refs.flatMap((ref) => imageOutputFor(config, ref, details.get(ref)) ?? []);
}
