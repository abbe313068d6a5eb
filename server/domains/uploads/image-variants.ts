// Resized variants of a clean image, made when it is attached, so pages can offer a phone a 320 px
// picture instead of a 4000 px photo (`srcset`). Made from the clean image (already re-encoded
// without metadata); sharp writes no metadata unless asked, so a variant carries no EXIF or GPS
// either. Never upscaled: an image narrower than a width gets no variant of it. WebP (every
// browser the web supports decodes it; about a third smaller than JPEG at the same quality).
import { loadSharp } from './sharp.js';
import { VARIANT_WIDTHS, type VariantWidth } from './image-storage.js';

export const VARIANT_CONTENT_TYPE = 'image/webp';

export interface MadeVariant {
  width: VariantWidth;
  height: number;
  bytes: Buffer;
}

export interface SizedImage {
  width: number;
  height: number;
  variants: MadeVariant[];
}

/** The size of `clean` and its variants (narrowest first). */
export async function makeVariants(clean: Buffer, maxPixels: number): Promise<SizedImage> {
  const sharp = await loadSharp();
  const { width, height } = await sharp(clean, { limitInputPixels: maxPixels }).metadata();
  if (!width || !height) throw new Error('image without a size');
  const variants: MadeVariant[] = [];
  for (const target of VARIANT_WIDTHS) {
    if (target >= width) break;
    const { data, info } = await sharp(clean, { limitInputPixels: maxPixels })
      .resize({ width: target, withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
    variants.push({ width: target, height: info.height, bytes: data });
  }
  return { width, height, variants };
}

/** The variant to serve for a requested width: that exact one if it was made, else none (serve the clean image). */
export function variantFor(
  variants: readonly { width: number }[] | null,
  requested: number | undefined,
): VariantWidth | null {
  if (!requested || !variants) return null;
  const made = variants.find((v) => v.width === requested);
  return made ? (made.width as VariantWidth) : null;
}
