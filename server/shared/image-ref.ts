// An image a record points at (media posters, guide covers): either an absolute https URL or
// the key of an upload (POST /api/uploads/image/presign). Keys are stored as sent for now; the
// uploads milestone checks, when it attaches them, that the key was issued for this purpose and
// resolves it to a URL. Until then a key-based image has no public URL (`null`).
import { z } from 'zod';

export const IMAGE_REF_MAX_LENGTH = 2048;
/** Path-like: segments of letters, digits, `.`, `_`, `-`, each starting with a letter or digit (no `..`). */
const UPLOAD_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;
const httpsUrl = z.url({ protocol: /^https$/, hostname: z.regexes.domain });

export const imageRefInput = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(IMAGE_REF_MAX_LENGTH)
    .refine((value) => (value.includes(':') ? httpsUrl.safeParse(value).success : UPLOAD_KEY.test(value)), {
      message: 'Must be an absolute https URL or an upload key.',
    })
    .meta({
      description: `The ${what}: an absolute https image URL, or an upload key from POST /api/uploads/image/presign (purpose \`media\` or \`guide\`).`,
    });

/** The URL a client shows: the https URL itself; null for an upload key not yet resolvable. */
export function imageUrl(ref: string | null): string | null {
  return ref?.startsWith('https://') ? ref : null;
}
