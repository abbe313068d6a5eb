// Every periodic job the server runs (server/composition.ts createJobs), for tests that check a
// job is registered or that locks are distinct. Built with placeholder dependencies: the jobs
// only read them when they run, which these are never meant to.
import { createJobs } from '../../server/composition.js';
import type { JobDeps } from '../../server/domains/manifest.js';

export const registeredJobs = createJobs({} as JobDeps);
