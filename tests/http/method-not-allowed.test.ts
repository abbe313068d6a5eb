// Every documented path answers a method it does not have with 405 `method_not_allowed` and an
// `Allow` header naming the ones it has, never 404 "No route": the REST routes and the raw
// ones mounted beside the adapter (calendar feed, action log export, companion chat stream).
// Before issue #21 the calendar feed path answered 404 to POST, PUT, PATCH and DELETE.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** A concrete path for a template: each parameter a value of the right shape where one is declared. */
function concrete(template: string): string {
  return template.replace(/\{[^}]+\}/g, (name) =>
    name === '{token}' ? 'a'.repeat(52) : '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6',
  );
}

describe('a method a documented path does not have', () => {
  it('answers 405 with Allow listing the methods it has, on every path of the document', async () => {
    const problems: string[] = [];
    for (const [template, item] of Object.entries(t.openApiDocument.paths ?? {})) {
      // The ActivityPub paths do not exist while federation is off (the test app's default): 404
      // to every method, as docs/federation.md says; tests/federation checks them on.
      if (/^\/(ap|\.well-known)\//.test(template)) continue;
      const declared = methods.filter((m) => (item as Record<string, unknown>)[m] !== undefined);
      for (const method of methods.filter((m) => !declared.includes(m))) {
        const res = await t.request(method.toUpperCase(), concrete(template));
        const allow = (res.headers.get('allow') ?? '').split(/,\s*/).map((m) => m.toLowerCase());
        if (res.status !== 405 || !declared.every((m) => allow.includes(m)))
          problems.push(`${method.toUpperCase()} ${template}: ${res.status} Allow: ${res.headers.get('allow')}`);
        else expect(res.body.error.code).toBe('method_not_allowed');
      }
    }
    expect(problems).toEqual([]);
  });
});
