// Presigned image uploads and resumable (tus) video uploads: mounted, validated, answering 501.
// The service never receives file bytes: it signs a PUT to object storage, or creates a video
// at the video host and hands back its tus endpoint.
import { z } from 'zod';
import { memberProcedure, notImplemented } from '../../trpc/procedures.js';
import { jsonNumber } from './common.js';

const unbuilt = true as const;
const tags = ['uploads'];

export const UPLOAD_LIMITS = { imageBytes: 10 * 1024 * 1024, videoBytes: 2 * 1024 * 1024 * 1024, title: 200 } as const;
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

export const createVideoInput = z
  .object({
    title: z.string().trim().min(1).max(UPLOAD_LIMITS.title),
    contentLength: jsonNumber(z.number().int().min(1).max(UPLOAD_LIMITS.videoBytes))
      .optional()
      .meta({ description: 'Size in bytes when known up front.' }),
  })
  .strict()
  .meta({ examples: [{ title: 'Sanctuary day highlights', contentLength: 73400320 }] });

export const createVideoOutput = z
  .object({
    videoId: z.string(),
    tusEndpoint: z.string().meta({ description: 'Upload URL for the resumable tus protocol.' }),
    authorization: z.string().meta({ description: "Short-lived value for the tus requests' Authorization header." }),
    expiresAt: z.string(),
  })
  .meta({ id: 'VideoUpload' });

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

  createVideo: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'uploads.create',
      unbuilt,
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/api/uploads/video/create',
        tags,
        summary: 'Create a video for resumable upload',
      },
    })
    .input(createVideoInput)
    .output(createVideoOutput)
    .mutation(() => notImplemented()),
};
