import { configDefaults, defineConfig } from 'vitest/config';
import { dockerAnswers } from './tests/setup/docker.js';

// With PostgreSQL (TEST_DATABASE_URL / DATABASE_URL, or a container when Docker answers), test
// files run in parallel workers, each on a clone of the run's migrated database. Without one,
// every file shares a single embedded PGlite (it costs seconds and ~1 GB to start), so they run
// one after another in one worker, each starting on emptied tables (tests/setup/database.ts).
// Files named *.pg.test.ts need PostgreSQL (a second connection, a second process, killed
// connections); they are part of PostgreSQL runs only.
export default defineConfig(async () => {
  const realDatabase = Boolean(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL) || (await dockerAnswers());
  return {
    test: {
      include: ['tests/**/*.test.ts', 'client-sdk/**/*.test.ts', 'web/**/*.test.ts'],
      exclude: [...configDefaults.exclude, ...(realDatabase ? [] : ['**/*.pg.test.ts'])],
      // The first records every /api answer and fails the run if the OpenAPI document does not declare
      // it; listed first so that its check runs last (teardowns run in reverse), after the database is dropped.
      globalSetup: ['tests/contract/observed-answers.setup.ts', 'tests/setup/global-setup.ts'],
      setupFiles: ['tests/setup/file-database.ts'],
      testTimeout: 30_000,
      // PGlite's first start plus migrations can take minutes on a loaded 2-core machine.
      hookTimeout: 300_000,
      pool: 'forks' as const,
      ...(realDatabase ? { maxWorkers: 2 } : { maxWorkers: 1, isolate: false, fileParallelism: false }),
    },
  };
});
