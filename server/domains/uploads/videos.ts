// Video uploads: the API creates the video and a short-lived tus authorization bound to it; the
// bytes arrive over tus (./tus.ts). Only the hash of the authorization is stored, so a database
// dump cannot be used to write into someone's upload.
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { videos, type Video } from '../../../db/schema/index.js';
import { generateSecretToken, hashSecretToken, looksLikeSecretToken } from '../../auth/tokens.js';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import type { MemberServiceContext, ServiceContext } from '../../service/context.js';
import { videoStorage } from './video-storage.js';

/** The path under the API's public address where the tus server listens (outside /api: tus is not JSON). */
export const TUS_PATH = '/uploads/videos';

export function tusEndpoint(config: Pick<Config, 'PUBLIC_URL'>): string {
  return `${config.PUBLIC_URL.replace(/\/$/, '')}${TUS_PATH}`;
}

export async function createVideo(ctx: MemberServiceContext, input: { title: string; contentLength?: number }) {
  const maxAllowed = ctx.config.VIDEO_MAX_BYTES;
  if (input.contentLength !== undefined && input.contentLength > maxAllowed)
    throw new AppError('validation_failed', `contentLength: at most ${maxAllowed} bytes.`);
  const now = ctx.clock.now();
  const secret = generateSecretToken();
  const expiresAt = new Date(now.getTime() + ctx.config.VIDEO_UPLOAD_AUTH_TTL_MINUTES * 60_000);
  const maxBytes = input.contentLength ?? maxAllowed;
  const [video] = await ctx.db
    .insert(videos)
    .values({
      ownerId: ctx.user.id,
      title: input.title,
      maxBytes,
      uploadTokenHash: hashSecretToken(secret),
      uploadTokenExpiresAt: expiresAt,
      createdAt: now,
    })
    .returning({ id: videos.id });
  ctx.log.info({ userId: ctx.user.id, videoId: video!.id }, 'video upload created');
  return {
    videoId: video!.id,
    tusEndpoint: tusEndpoint(ctx.config),
    authorization: `Bearer ${secret}`,
    expiresAt: expiresAt.toISOString(),
    maxBytes,
  };
}

function toVideo(row: Video) {
  return {
    _id: row.id,
    title: row.title,
    state: row.state,
    sizeBytes: row.sizeBytes,
    createdAt: row.createdAt.toISOString(),
    readyAt: row.readyAt?.toISOString() ?? null,
  };
}

/** The caller's own video; anyone else's answers 404 like a missing one. */
export async function getVideo(ctx: MemberServiceContext, id: string) {
  const [row] = await ctx.db
    .select()
    .from(videos)
    .where(and(eq(videos.id, id), eq(videos.ownerId, ctx.user.id)))
    .limit(1);
  if (!row) throw new AppError('not_found', 'No such video.');
  return toVideo(row);
}

/** Deletes the caller's video and its bytes (a finished one, or an upload in progress). */
export async function deleteVideo(ctx: MemberServiceContext, id: string) {
  const [row] = await ctx.db
    .delete(videos)
    .where(and(eq(videos.id, id), eq(videos.ownerId, ctx.user.id)))
    .returning({ id: videos.id });
  if (!row) throw new AppError('not_found', 'No such video.');
  await videoStorage(ctx.config).remove([row.id], ctx.log);
  return { ok: true as const };
}

/** What a tus request's authorization grants: one video, up to a size, until a time. */
export interface UploadGrant {
  videoId: string;
  ownerId: string;
  maxBytes: number;
  uploadStarted: boolean;
}

/** The grant of a tus Authorization header, or null when it is missing, unknown or expired. */
export async function uploadGrant(ctx: ServiceContext, header: string | null): Promise<UploadGrant | null> {
  const secret = /^Bearer ([a-z2-7]+)$/.exec(header ?? '')?.[1];
  if (!secret || !looksLikeSecretToken(secret)) return null;
  const [row] = await ctx.db
    .select({
      id: videos.id,
      ownerId: videos.ownerId,
      maxBytes: videos.maxBytes,
      uploadStartedAt: videos.uploadStartedAt,
      expiresAt: videos.uploadTokenExpiresAt,
    })
    .from(videos)
    .where(eq(videos.uploadTokenHash, hashSecretToken(secret)))
    .limit(1);
  if (!row || row.expiresAt <= ctx.clock.now()) return null;
  return { videoId: row.id, ownerId: row.ownerId, maxBytes: row.maxBytes, uploadStarted: row.uploadStartedAt !== null };
}

/**
 * The tus upload is being created. False when it already was (a second creation would truncate
 * the bytes already sent): only the first of two concurrent creations gets true.
 */
export async function markUploadStarted(ctx: ServiceContext, videoId: string, sizeBytes: number | undefined) {
  const rows = await ctx.db
    .update(videos)
    .set({ uploadStartedAt: ctx.clock.now(), sizeBytes: sizeBytes ?? null })
    .where(and(eq(videos.id, videoId), isNull(videos.uploadStartedAt)))
    .returning({ id: videos.id });
  return rows.length === 1;
}

/** The member terminated the upload over tus: the bytes are gone, so is the video. */
export async function deleteVideoRow(ctx: ServiceContext, videoId: string) {
  await ctx.db.delete(videos).where(and(eq(videos.id, videoId), eq(videos.state, 'uploading')));
}

/** The last byte arrived: the video is the member's, ready. */
export async function markVideoReady(ctx: ServiceContext, videoId: string, sizeBytes: number) {
  await ctx.db
    .update(videos)
    .set({ state: 'ready', sizeBytes, readyAt: ctx.clock.now() })
    .where(eq(videos.id, videoId));
  ctx.log.info({ videoId }, 'video upload finished');
}

/** Abandoned uploads: authorization expired a day ago and never finished. Returns their ids. */
export async function deleteAbandonedUploads(tx: Tx, now: Date): Promise<string[]> {
  const cutoff = new Date(now.getTime() - 24 * 3600_000);
  const rows = await tx
    .delete(videos)
    .where(and(eq(videos.state, 'uploading'), lt(videos.uploadTokenExpiresAt, cutoff)))
    .returning({ id: videos.id });
  return rows.map((r) => r.id);
}
