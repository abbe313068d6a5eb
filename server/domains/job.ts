// The contract of a periodic job, the shape a domain's manifest contributes (manifest.ts, `jobs`)
// and the runner (server/jobs/runner.ts) schedules. It lives here, below the runner, so a domain
// can declare its jobs without importing the layer that runs them.
import type { Tx } from '../../db/client.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';

export interface JobSchedule {
  name: string;
  /** Its id in db/advisory-locks.ts, for pg_try_advisory_xact_lock. */
  lockId: number;
  intervalMs: number;
  /**
   * The job is safe to run in several processes at once (it claims its rows with SKIP LOCKED): on
   * PostgreSQL the runner then takes no lock. PGlite (one process, one connection) always locks.
   */
  concurrent?: boolean;
}

export interface Job extends JobSchedule {
  /**
   * Runs inside a transaction that holds the lock; returns a summary for the log. `env` is the
   * server's configuration and logger, for jobs that touch more than the database (files); the
   * server's runner always passes it.
   */
  run(tx: Tx, now: Date, env?: JobEnv): Promise<Record<string, number>>;
}

/**
 * A job with work to do once its transaction has committed: network calls (push services) that
 * must not hold the transaction, its connection and the lock open (on PGlite that connection is
 * the only one). The runner awaits the follow-up and logs both summaries together.
 */
export interface JobWithFollowUp extends JobSchedule {
  run(tx: Tx, now: Date, env?: JobEnv): Promise<JobRunWithFollowUp>;
}

export interface JobRunWithFollowUp {
  summary: Record<string, number>;
  afterCommit: () => Promise<Record<string, number>>;
}

export type AnyJob = Job | JobWithFollowUp;

export interface JobEnv {
  config: Config;
  log: Logger;
}
