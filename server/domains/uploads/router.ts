// Uploads: presigned image uploads (attached by the routes that use them) and resumable video uploads over tus.
import { router } from '../../trpc/init.js';
import { memberProcedure } from '../../trpc/procedures.js';
import { okOutput } from '../../shared/schemas.js';
import * as schemas from './schemas.js';
import * as images from './images.js';
import { imageOutput } from './image-output.js';
import { updateImageAlt } from './image-alt.js';
import * as videos from './videos.js';

const tags = ['uploads'];

export const uploadsRouter = router({
  presignImage: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'uploads.create',
      openapi: {
        method: 'POST',
        path: '/api/uploads/image/presign',
        tags,
        summary: 'Presign an image upload',
        description:
          "Returns a URL to PUT the image to (valid IMAGE_UPLOAD_URL_TTL_SECONDS, 10 minutes by default) and its key. The URL's signature binds the content type and the exact length: the storage refuses (403) another Content-Type, another length or a late PUT. The image bytes never pass through the API. Then pass the key to the route that uses the image: attaching checks the key was issued to you for that purpose and not used yet, that the bytes are an image of the declared type within IMAGE_MAX_PIXELS, and re-encodes it without any metadata (EXIF GPS position, camera serial, XMP). The clean image is then served at `{PUBLIC_URL}/uploads/images/{key}` (anyone holding the URL can load it: the key is random and unguessable) until the record holding it is deleted or replaces it: then the image is deleted and the URL answers 404. Keys never attached are deleted with their bytes after a day.",
      },
    })
    .input(schemas.presignImageInput)
    .output(schemas.presignImageOutput)
    .mutation(({ ctx, input }) => images.presignImage(ctx, input)),

  updateImage: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'PATCH',
        path: '/api/uploads/images/{purpose}/{id}',
        tags,
        summary: "Change an image's description (alt)",
        description:
          "The key `<purpose>/<id>` from the presign, attached or not. Only its uploader may change it; another member's key answers 404 like an unknown or released one. The new alt shows wherever the image is shown (the `Image` object's `alt`). Answers the image.",
      },
    })
    .input(schemas.updateImageInput)
    .output(imageOutput)
    .mutation(({ ctx, input }) => updateImageAlt(ctx, input)),

  createVideo: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'uploads.create',
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/api/uploads/video/create',
        tags,
        summary: 'Create a video for resumable upload',
        description:
          "Creates the video (state `uploading`) and a tus authorization bound to it and to its size limit. Upload with any tus 1.0 client: POST to `tusEndpoint` with `Authorization` set to `authorization` and `Upload-Length`, then PATCH the bytes to the returned Location; after an interruption, HEAD gives the offset to resume from. The tus server answers 401 for a missing, unknown or expired authorization, 404 for another video's upload, 409 for a second creation, 413 beyond the size limit. The video turns `ready` when the last byte arrives. Not finished a day after the authorization expired, it is deleted with its bytes.",
      },
    })
    .input(schemas.createVideoInput)
    .output(schemas.createVideoOutput)
    .mutation(({ ctx, input }) => videos.createVideo(ctx, input)),

  getVideo: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/uploads/videos/{id}',
        tags,
        summary: 'One of your videos and its upload state',
        description: "Owner only: another member's video answers 404 like a missing one.",
      },
    })
    .input(schemas.videoIdInput)
    .output(schemas.videoOutput)
    .query(({ ctx, input }) => videos.getVideo(ctx, input.id)),

  deleteVideo: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/uploads/videos/{id}',
        tags,
        summary: 'Delete one of your videos and its bytes',
        description:
          "Also stops an upload in progress (its authorization no longer works). Another member's video answers 404.",
      },
    })
    .input(schemas.videoIdInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => videos.deleteVideo(ctx, input.id)),
});
