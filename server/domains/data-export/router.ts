// The member's data export under `me`: wiring only. The download (a zip, not JSON) is a raw
// route (download-route.ts) over `downloadRouter`, which is not part of the app router.
import { router } from '../../trpc/init.js';
import { memberProcedure } from '../../trpc/procedures.js';
import { emptyInput } from '../../shared/schemas.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['me'];

export const dataExportMeRouter = router({
  createExport: memberProcedure
    .meta({
      auth: 'member',
      successStatus: 202,
      errors: ['conflict', 'rate_limited'],
      openapi: {
        method: 'POST',
        path: '/api/me/export',
        tags,
        summary: 'Ask for an archive of your own data',
        description:
          'Queues an export of everything the caller owns or sent (a zip of JSON files; schema in docs/data-export.md), built by a background job within seconds to minutes; poll GET /api/me/export. One a day: 409 `conflict` while one is queued or building, 429 `rate_limited` with Retry-After within 24 hours of the last request (a failed build may be asked again at once). Answers 202 with the state (`queued`).',
      },
    })
    .input(emptyInput)
    .output(schemas.exportStateOutput)
    .mutation(({ ctx }) => service.requestExport(ctx)),

  getExport: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/me/export',
        tags,
        summary: 'The state of your data export',
        description:
          "`none`, `queued`, `building`, `ready`, `expired` (downloaded, or 24 hours passed: the archive is deleted) or `failed`. While `ready`, `download.url` is a fresh single-use link (GET /api/me/export/download?token=…, with the same member's session): each read of this state issues a new link and retires the previous one.",
      },
    })
    .input(emptyInput)
    .output(schemas.exportStateOutput)
    .query(({ ctx }) => service.getExport(ctx)),
});

/** Called by the raw download route through createCaller: the member gate, then the claim. */
export const downloadRouter = router({
  claim: memberProcedure
    .input(schemas.downloadInput)
    .mutation(({ ctx, input }) => service.claimDownload(ctx, input.token)),
});
