// Periodic background work. Every process schedules every job, but each run takes a
// PostgreSQL advisory lock first, so across N processes one runs it at a time and the rest skip;
// a job marked `concurrent` (the push outbox: it claims rows with SKIP LOCKED) runs without the
// lock on PostgreSQL.
import type { Config } from '../config.js';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import type { AnyJob, JobRunWithFollowUp } from '../domains/job.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../log.js';
import type { JobOutcome, Metrics } from '../lib/metrics.js';

// The job contract is declared with the domains that contribute jobs; re-exported for the callers
// (tests, scripts) that build a job beside a runner.
export type { AnyJob, Job, JobEnv, JobRunWithFollowUp, JobWithFollowUp } from '../domains/job.js';

const hasFollowUp = (result: Record<string, number> | JobRunWithFollowUp): result is JobRunWithFollowUp =>
  typeof (result as JobRunWithFollowUp).afterCommit === 'function';

/**
 * When each job first runs after start: a few seconds, with jitter so N processes started
 * together do not all queue on the same advisory lock. Then every `intervalMs`. A process that is
 * restarted more often than a job's interval still runs it (retention rules keep holding).
 */
export const FIRST_RUN_DELAY_MS = 5_000;
export const FIRST_RUN_JITTER_MS = 5_000;

export interface JobRunnerOptions {
  firstRunDelayMs?: number;
  firstRunJitterMs?: number;
}

export interface JobRunner {
  /** Runs one job now if no other process holds its lock; null when it was skipped. */
  runOnce(job: AnyJob): Promise<Record<string, number> | null>;
  start(): void;
  stop(): Promise<void>;
}

export function createJobRunner(
  deps: { database: Database; clock: Clock; log: Logger; config?: Config; metrics?: Metrics },
  jobs: AnyJob[],
  options: JobRunnerOptions = {},
): JobRunner {
  const firstDelay = options.firstRunDelayMs ?? FIRST_RUN_DELAY_MS;
  const jitter = options.firstRunJitterMs ?? FIRST_RUN_JITTER_MS;
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;
  const running = new Set<Promise<unknown>>();

  async function runOnce(job: AnyJob): Promise<Record<string, number> | null> {
    const result = await deps.database.db.transaction(async (tx) => {
      if (!(job.concurrent && deps.database.kind === 'postgres')) {
        const [lock] = await deps.database.rows<{ locked: boolean }>(
          sql`select pg_try_advisory_xact_lock(${job.lockId}) as locked`,
          tx,
        );
        if (!lock?.locked) return null;
      }
      return job.run(tx, deps.clock.now(), deps.config && { config: deps.config, log: deps.log });
    });
    if (result === null || !hasFollowUp(result)) return result;
    return { ...result.summary, ...(await result.afterCommit()) };
  }

  return {
    runOnce,
    start() {
      for (const job of jobs) {
        let inFlight = false;
        const tick = () => {
          // A run still going in this process (a slow follow-up) is not overlapped by the next.
          if (inFlight) return;
          inFlight = true;
          const started = performance.now();
          const finished = (outcome: JobOutcome) => {
            deps.metrics?.jobFinished(job.name, outcome, (performance.now() - started) / 1000);
            deps.metrics?.jobDue(job.name, Date.now() + job.intervalMs);
          };
          const run = runOnce(job)
            // A run that did nothing is logged at debug: a job polling every few seconds (message
            // pushes) would otherwise fill the log with empty summaries.
            .then((summary) => {
              finished(summary ? 'ran' : 'skipped');
              if (!summary) return;
              const level = Object.values(summary).some((n) => n !== 0) ? 'info' : 'debug';
              deps.log[level]({ job: job.name, ...summary }, 'job ran');
            })
            .catch((error: unknown) => {
              finished('failed');
              deps.log.warn({ job: job.name, err: error }, 'job failed; will retry next interval');
            })
            .finally(() => {
              inFlight = false;
              running.delete(run);
            });
          running.add(run);
        };
        // First run soon after start, then every interval.
        const firstRunMs = firstDelay + Math.floor(Math.random() * jitter);
        deps.metrics?.jobDue(job.name, Date.now() + firstRunMs);
        const first = setTimeout(() => {
          if (stopped) return;
          tick();
          const timer = setInterval(tick, job.intervalMs);
          timer.unref();
          timers.push(timer);
        }, firstRunMs);
        first.unref();
        timers.push(first);
      }
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      await Promise.allSettled([...running]);
    },
  };
}
