// The tus server for video uploads (@tus/server), on the same HTTP server as the API at
// /uploads/videos. Every request but the CORS preflight carries the authorization that
// POST /api/uploads/video/create returned; it is looked up (by hash) on every request and binds
// the request to one video and its size limit:
//   - missing, unknown or expired authorization → 401;
//   - a valid authorization for another video's URL → 404, as if that upload did not exist;
//   - a second creation for the same video → 409 (it would truncate the bytes already sent);
//   - more bytes than the bound → 413, enforced by the tus server itself;
//   - GET (download) → 405: the service stores uploads, it does not serve them back here.
// Two requests never write one upload at once, even on two processes: with PostgreSQL the lock
// is an advisory lock (./tus-locker.ts); embedded PGlite belongs to one process, so the tus
// server's in-memory locker is enough there.
import { EVENTS, MemoryLocker, Server } from '@tus/server';
import type { Env, Hono, Context as HonoContext } from 'hono';
import type { AppDeps, Context } from '../../trpc/context.js';
import { PostgresLocker } from './tus-locker.js';
import { videoStorage } from './video-storage.js';
import {
  deleteVideoRow,
  markUploadStarted,
  markVideoReady,
  TUS_PATH,
  tusEndpoint,
  uploadGrant,
  type UploadGrant,
} from './videos.js';

const TUS_HEADERS = { 'Tus-Resumable': '1.0.0', 'Cache-Control': 'no-store' };

/** A tus error: @tus/server answers `status_code` with `body` when a hook throws this shape. */
const tusError = (status_code: number, body: string) => ({ status_code, body: `${body}\n` });

export function mountVideoUploads<E extends Env>(
  app: Hono<E>,
  deps: AppDeps,
  contextFor: (c: HonoContext<E>) => Context,
) {
  const storage = videoStorage(deps.config);
  // What each request's authorization granted, for the tus hooks (they get the same Request).
  const grants = new WeakMap<Request, { grant: UploadGrant; ctx: Context }>();
  const granted = (req: Request) => {
    const entry = grants.get(req);
    if (!entry) throw tusError(401, 'Send the authorization from POST /api/uploads/video/create.');
    return entry;
  };

  let server: Server | null = null;
  const tus = () => {
    if (server) return server;
    server = new Server({
      path: TUS_PATH,
      datastore: storage.store,
      locker: deps.config.DATABASE_URL
        ? new PostgresLocker({ databaseUrl: deps.config.DATABASE_URL, log: deps.log })
        : new MemoryLocker(),
      maxSize: (req) => grants.get(req as unknown as Request)?.grant.maxBytes ?? deps.config.VIDEO_MAX_BYTES,
      // The upload's id is the video's: the authorization decides it, not the client.
      namingFunction: (req) => granted(req as unknown as Request).grant.videoId,
      generateUrl: (_req, { id }) => `${tusEndpoint(deps.config)}/${id}`,
      onIncomingRequest: async (req, id) => {
        if (granted(req as unknown as Request).grant.videoId !== id) throw tusError(404, 'No such upload.');
      },
      onUploadCreate: async (req, upload) => {
        const { grant, ctx } = granted(req as unknown as Request);
        if (!(await markUploadStarted(ctx, grant.videoId, upload.size)))
          throw tusError(409, 'This video already has an upload; resume it with HEAD and PATCH.');
        return {};
      },
      onUploadFinish: async (req, upload) => {
        const { grant, ctx } = granted(req as unknown as Request);
        await markVideoReady(ctx, grant.videoId, upload.offset);
        return {};
      },
      disableTerminationForFinishedUploads: true,
      allowedOrigins: deps.config.CORS_ALLOWED_ORIGINS,
    });
    // The member abandoned the upload (tus DELETE): the video goes with its bytes.
    server.on(EVENTS.POST_TERMINATE, (req, _res, id) => {
      const entry = grants.get(req as unknown as Request);
      if (entry) void deleteVideoRow(entry.ctx, id);
    });
    return server;
  };

  const handle = async (c: HonoContext<E>) => {
    const req = c.req.raw;
    if (req.method === 'OPTIONS') return tus().handleWeb(req);
    if (req.method === 'GET')
      return c.text('Uploads are not served back.\n', 405, {
        ...TUS_HEADERS,
        Allow: 'HEAD, PATCH, POST, DELETE, OPTIONS',
      });
    const ctx = contextFor(c);
    const grant = await uploadGrant(ctx, req.headers.get('authorization'));
    if (!grant) return c.text('The upload authorization is missing, unknown or expired.\n', 401, TUS_HEADERS);
    grants.set(req, { grant, ctx });
    return tus().handleWeb(req);
  };
  app.all(TUS_PATH, handle);
  app.all(`${TUS_PATH}/*`, handle);
}
