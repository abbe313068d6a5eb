// Checks observed answers (observed-answers.ts) against an OpenAPI document: each must be a
// status, with its content type, that the document declares for the operation it reached.
import type { ObservedAnswer } from './observed-answers.js';

interface Response {
  content?: Record<string, unknown>;
}
type Paths = Record<string, Record<string, { responses?: Record<string, Response> }>>;

/** Served next to the API but not API operations: the document itself, its HTML page and the page's assets. */
const UNDOCUMENTED_PATHS = new Set(['/api/openapi.json', '/api/docs']);
const isUndocumented = (path: string) => UNDOCUMENTED_PATHS.has(path) || path.startsWith('/api/docs/');
/** A CORS preflight from an allowed origin (CORS_ALLOWED_ORIGINS): HTTP's, not an operation of the API. */
const isCorsPreflight = (answer: ObservedAnswer) => answer.method === 'OPTIONS' && answer.status === 204;

interface Template {
  path: string;
  pattern: RegExp;
  literalLength: number;
}

function templatesOf(paths: Paths): Template[] {
  return Object.keys(paths).map((path) => {
    const source = path
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('');
    return { path, pattern: new RegExp(`^${source}/?$`, 'i'), literalLength: path.replace(/\{[^}]+\}/g, '').length };
  });
}

/** Every answer the document does not declare, as one line each (empty when all are declared). */
export function undeclaredAnswers(document: { paths?: unknown }, answers: ObservedAnswer[]): string[] {
  const paths = (document.paths ?? {}) as Paths;
  const templates = templatesOf(paths);
  const problems = new Set<string>();
  for (const answer of answers) {
    const method = (answer.method === 'HEAD' ? 'GET' : answer.method).toLowerCase();
    const where = `${answer.method} ${answer.path} → ${answer.status} ${answer.contentType || '(no body)'}`;
    if (isUndocumented(answer.path) || isCorsPreflight(answer)) continue;
    // The most literal template wins (/api/admin/places/pending before a {param} one).
    const matching = templates
      .filter((t) => t.pattern.test(answer.path))
      .sort((a, b) => b.literalLength - a.literalLength);
    if (matching.length === 0) {
      if (answer.status !== 404) problems.add(`${where}: no such path in the document (only 404 may answer it)`);
      continue;
    }
    // As the server (and OpenAPI) matches: the path belongs to its most concrete templates
    // only (fewest parameters); a method only a more templated one has answers 405.
    const parameters = (t: Template) => (t.path.match(/\{/g) ?? []).length;
    const fewest = Math.min(...matching.map(parameters));
    const template = matching.find((t) => parameters(t) === fewest && paths[t.path]?.[method]);
    if (!template) {
      if (answer.status !== 405) problems.add(`${where}: ${matching[0]!.path} has no ${method} (only 405 may answer)`);
      continue;
    }
    const operation = `${method.toUpperCase()} ${template.path}`;
    const response = paths[template.path]![method]!.responses?.[String(answer.status)];
    if (!response) {
      problems.add(
        `${operation} does not declare ${answer.status} (seen: ${where}${answer.file ? ` in ${answer.file}` : ''})`,
      );
      continue;
    }
    if (answer.contentType && !response.content?.[answer.contentType]) {
      const declared = Object.keys(response.content ?? {}).join(', ') || 'no content';
      problems.add(`${operation} ${answer.status} declares ${declared}, not ${answer.contentType} (seen: ${where})`);
    }
  }
  return [...problems].sort();
}
