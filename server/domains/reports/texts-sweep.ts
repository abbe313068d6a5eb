// Deletes the private part of report snapshots (a reported message's text) when the retention
// rule says (retention.ts): at the message's own expiry, 30 days after a
// decision, or 365 days after one that kept it as evidence. Reads already hide it before this
// runs; the sweep is what removes it. Hourly, under the job runner's advisory lock.
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import type { Job } from '../job.js';
import { deleteDuePrivateParts } from './retention.js';

export const reportTextsSweep: Job = {
  name: 'sweep-report-texts',
  lockId: ADVISORY_LOCKS.reportTextsSweep,
  intervalMs: 60 * 60_000,
  async run(tx, now) {
    return { reportTexts: await deleteDuePrivateParts(tx, now) };
  },
};
