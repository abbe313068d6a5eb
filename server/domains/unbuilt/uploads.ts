// Presigned image uploads: mounted, validated, answering 501 until built. The service signs a
// PUT to object storage; it never receives the image bytes through the API.
import { z } from 'zod';
import { memberProcedure, notImplemented } from '../../trpc/procedures.js';
import { jsonNumber } from './common.js';

const unbuilt = true as const;
const tags = ['uploads'];

import { UPLOAD_LIMITS } from '../uploads/schemas.js';

export { UPLOAD_LIMITS };
export const imageContentTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/heic'] as const;
export const imagePurposes = [
  'avatar',
  'place',
  'post',
  'event',
  'grove',
  'organization',
  'review',
  'media',
  'guide',
] as const;

export const presignImageInput = z
  .object({
    contentType: z.enum(imageContentTypes),
    purpose: z
      .enum(imagePurposes)
      .meta({ description: 'Where the image will be used; decides the key prefix and who may attach it.' }),
    contentLength: jsonNumber(z.number().int().min(1).max(UPLOAD_LIMITS.imageBytes)).meta({
      description: `Size in bytes, at most ${UPLOAD_LIMITS.imageBytes}; the signature binds it.`,
    }),
  })
  .strict()
  .meta({ examples: [{ contentType: 'image/jpeg', purpose: 'post', contentLength: 482113 }] });

export const presignImageOutput = z
  .object({
    url: z
      .string()
      .meta({ description: 'Send the file with HTTP PUT here, with the same Content-Type and Content-Length.' }),
    key: z.string().meta({ description: 'Pass this key to the route that attaches the image.' }),
    expiresAt: z.string(),
  })
  .meta({ id: 'ImagePresign' });

export const uploadsProcedures = {
  presignImage: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'uploads.create',
      unbuilt,
      openapi: { method: 'POST', path: '/api/uploads/image/presign', tags, summary: 'Presign an image upload' },
    })
    .input(presignImageInput)
    .output(presignImageOutput)
    .mutation(() => notImplemented()),
};
