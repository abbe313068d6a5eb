// The member's data export: asking for one, reading its state, and the single-use download.
// One row per member (data_exports): the latest export. The archive is built by a job
// (jobs.ts), kept as bytea in that row, downloadable once within 24 hours through a link whose
// token is stored only as a SHA-256, then deleted. Decisions: docs/data-export.md.
import { and, eq, sql } from 'drizzle-orm';
import { dataExports, type DataExport } from '../../../db/schema/index.js';
import { generateSecretToken, hashSecretToken, looksLikeSecretToken } from '../../auth/tokens.js';
import { AppError } from '../../errors.js';
import type { MemberServiceContext } from '../../service/context.js';
import type { ExportState, ExportStateOutput } from './schemas.js';

/** A member may ask once per this long (counted from the last request that did not fail). */
export const EXPORT_REQUEST_INTERVAL_MS = 24 * 3_600_000;
/** A ready archive (and its link) lives this long after it is built. */
export const EXPORT_TTL_MS = 24 * 3_600_000;
export const DOWNLOAD_PATH = '/api/me/export/download';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The state a row is in at `now`: a ready archive past its expiry reads as expired before the sweep runs. */
export function stateOf(row: Pick<DataExport, 'status' | 'expiresAt'> | undefined, now: Date): ExportState {
  if (!row) return 'none';
  if (row.status === 'ready' && (!row.expiresAt || row.expiresAt <= now)) return 'expired';
  return row.status;
}

/** When the member may ask again; null: now. */
function nextRequestAt(row: DataExport | undefined, now: Date): Date | null {
  if (!row || row.status === 'failed') return null;
  const next = new Date(row.requestedAt.getTime() + EXPORT_REQUEST_INTERVAL_MS);
  return next > now ? next : null;
}

function toOutput(row: DataExport | undefined, now: Date, link: { token: string } | null): ExportStateOutput {
  const state = stateOf(row, now);
  const ready = state === 'ready';
  return {
    state,
    requestedAt: iso(row?.requestedAt),
    readyAt: iso(row?.finishedAt),
    expiresAt: ready ? iso(row?.expiresAt) : null,
    downloadedAt: iso(row?.downloadedAt),
    sizeBytes: ready ? (row?.archiveBytes ?? null) : null,
    files: ready ? (row?.fileCount ?? null) : null,
    download:
      ready && link ? { url: `${DOWNLOAD_PATH}?token=${link.token}`, expiresAt: row!.expiresAt!.toISOString() } : null,
    nextRequestAt: iso(nextRequestAt(row, now)),
  };
}

/** The columns every read takes: never the archive itself. */
const stateColumns = {
  userId: dataExports.userId,
  status: dataExports.status,
  requestedAt: dataExports.requestedAt,
  startedAt: dataExports.startedAt,
  finishedAt: dataExports.finishedAt,
  expiresAt: dataExports.expiresAt,
  downloadedAt: dataExports.downloadedAt,
  attempts: dataExports.attempts,
  archiveBytes: dataExports.archiveBytes,
  fileCount: dataExports.fileCount,
};

async function readRow(ctx: MemberServiceContext): Promise<DataExport | undefined> {
  const [row] = await ctx.db.select(stateColumns).from(dataExports).where(eq(dataExports.userId, ctx.user.id));
  return row && { ...row, archive: null, tokenHash: null };
}

/**
 * POST /api/me/export. One statement decides, so two requests at once cannot both start one:
 * the row is (re)set to queued only when the member has none, the last one failed, or the last
 * request is a day old and not still being built. Otherwise 409 while one is queued or building,
 * 429 with Retry-After within the day.
 */
export async function requestExport(ctx: MemberServiceContext): Promise<ExportStateOutput> {
  const now = ctx.clock.now();
  const dayAgo = new Date(now.getTime() - EXPORT_REQUEST_INTERVAL_MS);
  const fresh = {
    status: 'queued' as const,
    requestedAt: now,
    startedAt: null,
    finishedAt: null,
    expiresAt: null,
    downloadedAt: null,
    attempts: 0,
    archive: null,
    archiveBytes: null,
    fileCount: null,
    tokenHash: null,
  };
  const [started] = await ctx.db
    .insert(dataExports)
    .values({ userId: ctx.user.id, ...fresh })
    .onConflictDoUpdate({
      target: dataExports.userId,
      set: fresh,
      setWhere: sql`${dataExports.status} = 'failed' or (${dataExports.status} not in ('queued', 'building') and ${dataExports.requestedAt} <= ${dayAgo.toISOString()}::timestamptz)`,
    })
    .returning(stateColumns);
  if (started) return toOutput({ ...started, archive: null, tokenHash: null }, now, null);

  const row = await readRow(ctx);
  if (row && (row.status === 'queued' || row.status === 'building'))
    throw new AppError('conflict', 'An export is already being prepared; GET /api/me/export says when it is ready.');
  const next = nextRequestAt(row, now) ?? new Date(now.getTime() + 1000);
  const seconds = Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000));
  throw new AppError('rate_limited', `One export a day: ask again after ${next.toISOString()}.`, {
    'Retry-After': String(seconds),
  });
}

/**
 * GET /api/me/export. While the archive is ready, each read issues a fresh single-use link and
 * retires the previous one: the token is stored only as a hash, so it can be shown once, and a
 * link that leaked (history, a screenshot) dies the moment the member looks again.
 */
export async function getExport(ctx: MemberServiceContext): Promise<ExportStateOutput> {
  const now = ctx.clock.now();
  const row = await readRow(ctx);
  if (stateOf(row, now) !== 'ready') return toOutput(row, now, null);
  const token = generateSecretToken();
  const [updated] = await ctx.db
    .update(dataExports)
    .set({ tokenHash: hashSecretToken(token) })
    .where(
      and(
        eq(dataExports.userId, ctx.user.id),
        eq(dataExports.status, 'ready'),
        sql`${dataExports.expiresAt} > ${now.toISOString()}::timestamptz`,
      ),
    )
    .returning(stateColumns);
  if (!updated) return toOutput(await readRow(ctx), now, null);
  return toOutput({ ...updated, archive: null, tokenHash: null }, now, { token });
}

const noSuchDownload = () =>
  new AppError('not_found', 'No such download: the link was used, replaced by a newer one, or expired.');

/**
 * GET /api/me/export/download: the archive, once. The token must be the member's live one (the
 * session's own member: a link alone, or another member's session with it, is a 404); the same
 * transaction that reads the archive deletes it, so two downloads at once get it once.
 */
export async function claimDownload(
  ctx: MemberServiceContext,
  token: string,
): Promise<{ archive: Uint8Array; requestedAt: Date }> {
  if (!looksLikeSecretToken(token)) throw noSuchDownload();
  const now = ctx.clock.now();
  return ctx.withTransaction(async ({ tx }) => {
    const [row] = await tx
      .select({ archive: dataExports.archive, requestedAt: dataExports.requestedAt })
      .from(dataExports)
      .where(
        and(
          eq(dataExports.userId, ctx.user.id),
          eq(dataExports.status, 'ready'),
          eq(dataExports.tokenHash, hashSecretToken(token)),
          sql`${dataExports.expiresAt} > ${now.toISOString()}::timestamptz`,
        ),
      )
      .for('update');
    if (!row?.archive) throw noSuchDownload();
    await tx
      .update(dataExports)
      .set({ status: 'expired', archive: null, tokenHash: null, downloadedAt: now })
      .where(eq(dataExports.userId, ctx.user.id));
    return { archive: new Uint8Array(row.archive), requestedAt: row.requestedAt };
  });
}

export function archiveFileName(requestedAt: Date): string {
  return `data-export-${requestedAt.toISOString().slice(0, 10)}.zip`;
}
