import { defineConfig } from 'vitest/config';

// With a PostgreSQL URL, test files run in parallel workers against one fresh database per run.
// Without one, every file shares a single embedded PGlite (it costs seconds and ~1 GB to start),
// so they run one after another in one worker.
const realDatabase = Boolean(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL);

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'client-sdk/**/*.test.ts'],
    // The first records every /api answer and fails the run if the OpenAPI document does not declare
    // it; listed first so that its check runs last (teardowns run in reverse), after the database is dropped.
    globalSetup: ['tests/contract/observed-answers.setup.ts', 'tests/setup/global-setup.ts'],
    testTimeout: 30_000,
    // PGlite's first start plus migrations can take minutes on a loaded 2-core machine.
    hookTimeout: 300_000,
    pool: 'forks',
    ...(realDatabase ? { maxWorkers: 2 } : { maxWorkers: 1, isolate: false, fileParallelism: false }),
  },
});
