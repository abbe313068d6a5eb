// Vitest global setup: gives every worker a directory to record the /api answers it sees in
// (observed-answers.ts) and, when the run ends, fails it if any of them is not declared by the
// OpenAPI document the app serves (check-answers.ts). Runs in parallel (PostgreSQL) and serial
// (PGlite) mode alike: the files are per process and read only after every worker is done.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildSdkDocument } from '../../client-sdk/scripts/openapi-source.js';
import { undeclaredAnswers } from './check-answers.js';
import type { ObservedAnswer } from './observed-answers.js';

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'cas-observed-answers-'));
  project.provide('observedAnswersDir', dir);
  return () => {
    const answers: ObservedAnswer[] = [];
    for (const file of readdirSync(dir)) {
      for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) if (line) answers.push(JSON.parse(line));
    }
    rmSync(dir, { recursive: true, force: true });
    const problems = undeclaredAnswers(buildSdkDocument(), answers);
    if (problems.length > 0) {
      // Vitest logs a teardown error but keeps the exit code of the tests: set it ourselves.
      process.exitCode = 1;
      throw new Error(
        `The OpenAPI document does not declare ${problems.length} answer(s) the tests observed. Declare them (route meta \`errors\`, server/http/openapi.ts):\n  ${problems.join('\n  ')}`,
      );
    }
    console.log(`observed answers: ${answers.length} distinct, all declared by the OpenAPI document`);
  };
}
