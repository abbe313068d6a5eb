// Uploads: resumable video uploads over tus (image presign is still unbuilt, in unbuilt/uploads.ts).
import { router } from '../../trpc/init.js';
import { memberProcedure } from '../../trpc/procedures.js';
import { okOutput } from '../../shared/schemas.js';
import * as schemas from './schemas.js';
import * as videos from './videos.js';

const tags = ['uploads'];

export const uploadsRouter = router({
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
