// The input of an image field (place photos, event covers, media posters, guide covers): either
// an absolute https URL (an image hosted elsewhere, stored as given) or the key of an upload from
// POST /api/uploads/image/presign, which the route attaches (server/domains/uploads/image-refs.ts:
// issued to the caller for this purpose, a real image, re-encoded without metadata).
import { z } from 'zod';
import { IMAGE_KEY_PATTERN } from './image-storage.js';
import { HTTPS_URL_PATTERN } from '../../shared/patterns.js';

export const IMAGE_REF_MAX_LENGTH = 2048;
const httpsUrl = z.url({ protocol: /^https$/, hostname: z.regexes.domain });

export const imageRefInput = (what: string, purpose: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(IMAGE_REF_MAX_LENGTH)
    .refine((value) => (value.includes(':') ? httpsUrl.safeParse(value).success : IMAGE_KEY_PATTERN.test(value)), {
      message: 'Must be an absolute https URL or an image upload key.',
    })
    .meta({
      pattern: `^(?:${HTTPS_URL_PATTERN.slice(1, -1)}|${IMAGE_KEY_PATTERN.source.slice(1, -1)})$`,
      description: `The ${what}: an absolute https image URL, or a key from POST /api/uploads/image/presign (purpose \`${purpose}\`), uploaded and not used before; it is attached (checked and re-encoded without metadata). A key that is not yours, of another purpose, already used or not a valid image answers 400 and nothing is written.`,
    });
