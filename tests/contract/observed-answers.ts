// Every answer the test suite gets from /api is recorded (method, path, status, content type)
// and checked against the OpenAPI document when the run ends (observed-answers.setup.ts): an
// answer the document does not declare for its operation fails `npm test`. So the document
// cannot fall behind what the routes really answer, for any route a test touches.
//
// Recording: createTestApp (tests/setup/harness.ts) passes its app to recordAnswers, which
// wraps app.fetch (what app.request calls). Each worker appends each distinct answer once to
// its own file in the directory the global setup provides.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    observedAnswersDir: string | null;
  }
}

export interface ObservedAnswer {
  method: string;
  /** The path as requested (no query). */
  path: string;
  status: number;
  /** Media type without parameters; '' when the answer has none. */
  contentType: string;
  /** The test file that saw it, to say where to look when it is undeclared. */
  file?: string;
}

const seen = new Set<string>();

function observedAnswersDir(): string | null {
  try {
    return inject('observedAnswersDir') ?? null;
  } catch {
    return null; // not inside a vitest run with the contract setup (e.g. a script)
  }
}

/** Route-shaped key, so one answer per (method, path shape, status, type) is written, not one per id. */
function dedupeKey(answer: ObservedAnswer): string {
  const shape = answer.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, ':id');
  return `${answer.method} ${shape} ${answer.status} ${answer.contentType}`;
}

export function recordAnswer(answer: ObservedAnswer): void {
  const dir = observedAnswersDir();
  if (!dir) return;
  const key = dedupeKey(answer);
  if (seen.has(key)) return;
  seen.add(key);
  const file = expect.getState().testPath;
  appendFileSync(join(dir, `${process.pid}.jsonl`), `${JSON.stringify({ ...answer, file })}\n`);
}

/** Wraps app.fetch so every /api answer of this app is recorded. */
export function recordAnswers<
  A extends { fetch: (request: Request, ...rest: never[]) => Response | Promise<Response> },
>(app: A): void {
  if (!observedAnswersDir()) return;
  const fetch = app.fetch.bind(app);
  app.fetch = (async (request: Request, ...rest: never[]) => {
    const response = await fetch(request, ...rest);
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/api/')) {
      recordAnswer({
        method: request.method,
        path: pathname,
        status: response.status,
        contentType: (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase(),
      });
    }
    return response;
  }) as A['fetch'];
}
