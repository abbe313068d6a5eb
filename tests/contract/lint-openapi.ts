// Lints the OpenAPI document the app serves with Redocly's engine (@redocly/openapi-core, what
// `redocly lint` runs) and the rules in redocly.yaml. Shared by `npm run lint:openapi` (CI) and
// tests/contract/openapi-lint.test.ts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type NormalizedProblem, lint, loadConfig } from '@redocly/openapi-core';

export const REDOCLY_CONFIG = fileURLToPath(new URL('../../redocly.yaml', import.meta.url));

/** Lints `document` (written to a temporary file, as the CLI would read it); returns every problem. */
export async function lintOpenApiDocument(document: unknown): Promise<NormalizedProblem[]> {
  const dir = await mkdtemp(join(tmpdir(), 'cas-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document, null, 2));
    const config = await loadConfig({ configPath: REDOCLY_CONFIG });
    return await lint({ ref: file, config });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One line per problem: severity, rule, where, what. */
export function formatProblem(problem: NormalizedProblem): string {
  const where = problem.location[0]?.pointer ?? '';
  return `${problem.severity} ${problem.ruleId} ${where}: ${problem.message}`;
}
