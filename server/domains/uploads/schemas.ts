// Upload shapes (spec "Upload shapes"): image presign and resumable video uploads.
import { z } from 'zod';
import { idInput } from '../../shared/schemas.js';
import { imageContentTypes, imagePurposes } from './images.js';
import { IMAGE_ALT_MAX_LENGTH } from './image-output.js';

const imageAltInput = z
  .string()
  .trim()
  .max(IMAGE_ALT_MAX_LENGTH)
  .meta({
    description: `What the picture shows, for people who cannot see it (at most ${IMAGE_ALT_MAX_LENGTH} characters). Returned as \`alt\` of the image wherever it is shown.`,
  });

export const UPLOAD_LIMITS = { imageBytes: 10 * 1024 * 1024, videoBytes: 2 * 1024 * 1024 * 1024, title: 200 } as const;

export const createVideoInput = z
  .object({
    title: z.string().trim().min(1).max(UPLOAD_LIMITS.title),
    contentLength: z.number().int().min(1).max(UPLOAD_LIMITS.videoBytes).optional().meta({
      description:
        'Size in bytes when known up front: the authorization is then bound to it (a larger tus upload is refused with 413). Without it the bound is VIDEO_MAX_BYTES.',
    }),
  })
  .strict()
  .meta({ examples: [{ title: 'Sanctuary day highlights', contentLength: 73400320 }] });

export const createVideoOutput = z
  .object({
    videoId: z.string(),
    tusEndpoint: z.string().meta({
      description:
        'Create the upload here with a tus POST (Upload-Length, Tus-Resumable: 1.0.0, and the authorization below), then send the bytes with PATCH to the returned Location. Resume with HEAD + PATCH.',
    }),
    authorization: z.string().meta({
      description:
        "The whole value of the tus requests' Authorization header (`Bearer …`). Bound to this video and its size limit; valid until expiresAt (VIDEO_UPLOAD_AUTH_TTL_MINUTES).",
    }),
    expiresAt: z.string(),
    maxBytes: z.number().int().meta({ description: 'The largest upload this authorization accepts.' }),
  })
  .meta({ id: 'VideoUpload' });

export const videoIdInput = idInput();

export const videoOutput = z
  .object({
    _id: z.string(),
    title: z.string(),
    state: z.enum(['uploading', 'ready']).meta({
      description: '`uploading` until the last byte has arrived over tus, then `ready`.',
    }),
    sizeBytes: z.number().int().nullable().meta({ description: 'The upload length, once the tus upload exists.' }),
    createdAt: z.string(),
    readyAt: z.string().nullable(),
  })
  .meta({ id: 'Video' });

export const presignImageInput = z
  .object({
    contentType: z.enum(imageContentTypes).meta({
      description:
        'The type of the file; the PUT must send exactly this Content-Type. HEIC is converted to JPEG when attached, if it can be decoded.',
    }),
    purpose: z.enum(imagePurposes).meta({
      description:
        'Where the image will be used; it prefixes the key, and only a field of this purpose accepts the key: `post` (imageKeys of POST /api/posts), `place` (photos of POST /api/places), `event` (coverImage of POST and PATCH /api/events), `media` (poster of the admin media routes), `guide` (coverImage of the admin guide routes).',
    }),
    contentLength: z
      .number()
      .int()
      .min(1)
      .max(UPLOAD_LIMITS.imageBytes)
      .meta({
        description: `Size in bytes, at most ${UPLOAD_LIMITS.imageBytes}; the PUT must send exactly this many.`,
      }),
    alt: imageAltInput.optional(),
  })
  .strict()
  .meta({
    examples: [{ contentType: 'image/jpeg', purpose: 'post', contentLength: 482113, alt: 'Banner drop at the bridge' }],
  });

export const presignImageOutput = z
  .object({
    url: z.string().meta({
      description:
        'Send the file with HTTP PUT here, with the same Content-Type and Content-Length, before expiresAt. Storage answers 2xx when stored and 403 for another type or length or an expired URL.',
    }),
    key: z.string().meta({
      description:
        'Pass this key to the field that attaches the image (see purpose). Only you can attach it, once, for this purpose; a key never attached is deleted with its bytes after a day.',
    }),
    expiresAt: z.string(),
  })
  .meta({ id: 'ImagePresign' });

export const updateImageInput = z
  .object({
    purpose: z.enum(imagePurposes).meta({ description: 'The part of the key before the slash.' }),
    id: z
      .string()
      .regex(/^[a-z2-7]{26}$/, 'Must be the 26 characters after the slash of an image key.')
      .meta({ description: 'The part of the key after the slash (`post/abc…` → purpose `post`, id `abc…`).' }),
    alt: imageAltInput.nullable().meta({
      description: `The new description (at most ${IMAGE_ALT_MAX_LENGTH} characters); null or empty removes it.`,
    }),
  })
  .strict()
  .meta({
    examples: [{ purpose: 'post', id: 'k3v7q2m4x5z6a7b2c3d4e5f6g7', alt: 'Banner drop at the bridge, at dusk' }],
  });
