// A job that blocks inside its run until released: for the job runner's lock and stop tests.
import type { Job } from '../../server/jobs/runner.js';

export function gatedJob(name: string, lockId: number) {
  let release!: () => void;
  let started!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const running = new Promise<void>((r) => (started = r));
  let runs = 0;
  const job: Job = {
    name,
    lockId,
    intervalMs: 50,
    async run() {
      runs++;
      started();
      await gate;
      return { runs };
    },
  };
  return { job, release, running, runs: () => runs };
}
