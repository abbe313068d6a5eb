// <Picture>: an image of a post, place, event, media poster or guide, shown inline from the web's
// own origin (the relay in web/server/image-relay.ts), with every resized variant the API made in
// `srcset`, its size in `width`/`height` (the page does not jump when it arrives), loaded lazily.
// Takes either the API's image object (`{ url, width, height, alt, variants }`) or, for fields
// that still carry only a URL, the URL. An image hosted elsewhere (an https URL given instead of
// an upload) is not loaded at all (the policy allows images only from 'self' and the tiles): it
// becomes a link the reader may follow.
import { apiImagePath, IMAGE_RELAY_PATH } from '../server/image-relay.js';

export interface PictureVariant {
  url: string;
  width: number;
  height: number;
}

/** The API's image object (the `Image` schema); width and height are null for images attached before variants existed. */
export interface PictureImage {
  url: string;
  width: number | null;
  height: number | null;
  alt: string | null;
  variants: PictureVariant[];
}

const UPLOAD_PATH = /\/uploads\/images\/([a-z]+\/[a-z2-7]{26})(?:\?w=(\d+))?$/;

/** The relay's address for an API image URL, or null when the URL is not one of the API's uploads. */
export function relayedImageUrl(apiUrl: string): string | null {
  const match = UPLOAD_PATH.exec(apiUrl);
  if (!match) return null;
  const path = apiImagePath(match[1]!, match[2] ? Number(match[2]) : undefined);
  return `${IMAGE_RELAY_PATH}${path.slice('/uploads/images'.length)}`;
}

/** `srcset`: every variant and the original, each with its width (variants narrower than the original only). */
export function pictureSrcset(image: PictureImage): string | undefined {
  if (!image.width) return undefined;
  const candidates = [...image.variants.filter((v) => v.width < image.width!), image];
  const parts = candidates.flatMap((candidate) => {
    const url = relayedImageUrl(candidate.url);
    return url ? [`${url} ${candidate.width}w`] : [];
  });
  return parts.length > 1 ? parts.join(', ') : undefined;
}

/** A common `sizes`: the full width on a phone, the content column (about 40rem) elsewhere. */
export const CONTENT_SIZES = '(max-width: 44rem) 100vw, 40rem';

export interface PictureProps {
  image: PictureImage | string;
  /** How wide the image is shown (the `sizes` attribute); defaults to the content column. */
  sizes?: string;
  /** Text when the uploader gave none (say what the picture belongs to: "Photo 2 of Café Kranich"). */
  alt: string;
  class?: string;
  /** The first picture above the fold may load eagerly; all others load when scrolled near. */
  eager?: boolean;
  /** The label of the link shown instead of an image hosted elsewhere. */
  externalLabel?: string;
}

export function Picture(props: PictureProps) {
  const image: PictureImage =
    typeof props.image === 'string'
      ? { url: props.image, width: null, height: null, alt: null, variants: [] }
      : props.image;
  const alt = image.alt?.trim() || props.alt;
  const src = relayedImageUrl(image.url);
  if (!src) {
    if (!/^https:\/\//i.test(image.url)) return null;
    return (
      <a href={image.url} rel="nofollow noopener noreferrer" class="picture-external">
        {props.externalLabel ?? `${alt} (image hosted elsewhere)`}
      </a>
    );
  }
  // Of the variants, the one closest to 640 px is the fallback `src` (a browser without srcset).
  const fallback = image.variants.find((v) => v.width === 640) ?? image.variants[image.variants.length - 1];
  return (
    <img
      src={(fallback && relayedImageUrl(fallback.url)) || src}
      srcset={pictureSrcset(image)}
      sizes={image.width ? (props.sizes ?? CONTENT_SIZES) : undefined}
      width={image.width ?? undefined}
      height={image.height ?? undefined}
      alt={alt}
      loading={props.eager ? 'eager' : 'lazy'}
      decoding="async"
      class={props.class ? `picture ${props.class}` : 'picture'}
    />
  );
}
