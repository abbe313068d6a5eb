// The export's two jobs.
//
// Builder (every few seconds, in every process on PostgreSQL): claims the oldest queued export
// with FOR UPDATE SKIP LOCKED and marks it `building` in the runner's transaction, so N processes
// never build the same one; after that commits, it builds the archive (reads only, outside any
// lock) and stores it as `ready` for 24 hours. A claim whose builder died (still `building` after
// BUILD_DEADLINE_MS) is claimed again, up to MAX_ATTEMPTS, then the export is `failed`. A row
// that changed meanwhile (the account was deleted, the member asked again after a failure) is
// left alone: the store checks the claim's start time.
//
// Sweep (hourly, one process at a time): deletes archives past their 24 hours (the row stays,
// `expired`, so the once-a-day rule and the state still read right) and rows a month old.
import { and, eq, lte, sql } from 'drizzle-orm';
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import { dataExports } from '../../../db/schema/index.js';
import { messageKeyring } from '../../crypto/message-keys.js';
import type { Job, JobRunWithFollowUp, JobWithFollowUp } from '../job.js';
import type { JobDeps } from '../manifest.js';
import { buildArchive } from './builder.js';
import { EXPORT_TTL_MS } from './service.js';

export const BUILD_INTERVAL_MS = 5_000;
/** A `building` claim older than this is taken to be dead and claimed again. */
export const BUILD_DEADLINE_MS = 15 * 60_000;
export const MAX_ATTEMPTS = 3;
/** Rows (without archive) are kept this long after the request, then deleted. */
export const EXPORT_ROW_RETENTION_MS = 30 * 24 * 3_600_000;

type BuilderDeps = Pick<JobDeps, 'database' | 'config' | 'log' | 'clock'>;

export function createExportBuilderJob(deps: BuilderDeps): JobWithFollowUp {
  return {
    name: 'build-data-exports',
    lockId: ADVISORY_LOCKS.dataExportBuilder,
    intervalMs: BUILD_INTERVAL_MS,
    concurrent: true,
    async run(tx, now): Promise<JobRunWithFollowUp> {
      const stale = new Date(now.getTime() - BUILD_DEADLINE_MS).toISOString();
      const claimed = await deps.database.rows<{ user_id: string; attempts: number }>(
        sql`update data_exports d set status = 'building', started_at = ${now.toISOString()}::timestamptz,
              attempts = d.attempts + 1
            where d.user_id = (
              select user_id from data_exports
              where status = 'queued' or (status = 'building' and started_at < ${stale}::timestamptz)
              order by requested_at limit 1 for update skip locked)
            returning d.user_id, d.attempts`,
        tx,
      );
      const claim = claimed[0];
      if (!claim) return { summary: { claimed: 0 }, afterCommit: async () => ({}) };
      if (claim.attempts > MAX_ATTEMPTS) {
        await tx
          .update(dataExports)
          .set({ status: 'failed', finishedAt: now })
          .where(eq(dataExports.userId, claim.user_id));
        return { summary: { claimed: 1, failed: 1 }, afterCommit: async () => ({}) };
      }
      return {
        summary: { claimed: 1 },
        afterCommit: () => buildOne(deps, claim.user_id, now),
      };
    },
  };
}

async function buildOne(deps: BuilderDeps, userId: string, claimedAt: Date): Promise<Record<string, number>> {
  const db = deps.database.db;
  const isClaim = and(
    eq(dataExports.userId, userId),
    eq(dataExports.status, 'building'),
    eq(dataExports.startedAt, claimedAt),
  );
  try {
    const { zip, files } = await buildArchive({
      userId,
      db,
      database: deps.database,
      now: claimedAt,
      keyring: messageKeyring(deps.config, deps.log),
      log: deps.log,
    });
    const clockNow = deps.clock.now();
    const finished = clockNow > claimedAt ? clockNow : claimedAt;
    const stored = await db
      .update(dataExports)
      .set({
        status: 'ready',
        archive: zip,
        archiveBytes: zip.byteLength,
        fileCount: files,
        finishedAt: finished,
        expiresAt: new Date(finished.getTime() + EXPORT_TTL_MS),
        tokenHash: null,
      })
      .where(isClaim)
      .returning({ userId: dataExports.userId });
    return { built: stored.length, bytes: stored.length ? zip.byteLength : 0 };
  } catch (error) {
    // Ids only: the member's data never reaches the log.
    deps.log.error({ err: error, userId }, 'data export build failed');
    await db.update(dataExports).set({ status: 'failed', finishedAt: deps.clock.now() }).where(isClaim);
    return { built: 0, failed: 1 };
  }
}

export const exportSweep: Job = {
  name: 'sweep-data-exports',
  lockId: ADVISORY_LOCKS.dataExportSweep,
  intervalMs: 60 * 60_000,
  async run(tx, now) {
    const expired = await tx
      .update(dataExports)
      .set({ status: 'expired', archive: null, tokenHash: null })
      .where(and(eq(dataExports.status, 'ready'), lte(dataExports.expiresAt, now)))
      .returning({ userId: dataExports.userId });
    const old = new Date(now.getTime() - EXPORT_ROW_RETENTION_MS);
    const deleted = await tx
      .delete(dataExports)
      .where(and(lte(dataExports.requestedAt, old), sql`${dataExports.status} not in ('queued', 'building')`))
      .returning({ userId: dataExports.userId });
    return { archivesDeleted: expired.length, rowsDeleted: deleted.length };
  },
};
