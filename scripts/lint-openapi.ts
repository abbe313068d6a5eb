// npm run lint:openapi — builds the document exactly as the server serves it (no server, no
// database) and lints it with redocly.yaml's rules. Exits 1 on any error; warnings are printed.
import { buildSdkDocument } from '../client-sdk/scripts/openapi-source.js';
import { formatProblem, lintOpenApiDocument } from '../tests/contract/lint-openapi.js';

const problems = await lintOpenApiDocument(buildSdkDocument());
for (const problem of problems) console.log(formatProblem(problem));
const errors = problems.filter((p) => p.severity === 'error').length;
const warnings = problems.length - errors;
console.log(`openapi lint: ${errors} error(s), ${warnings} warning(s)`);
process.exit(errors > 0 ? 1 : 0);
