// The OpenAPI document at /api/openapi.json (the reference at /api/docs: tests/http/docs.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRestProcedures } from '../../server/trpc/trpc-internals.js';
import type { RouteMeta } from '../../server/trpc/init.js';
import { appRouter } from '../../server/composition.js';
import { createTestApp, type TestApp } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function registeredRoutes() {
  const routes: { method: string; path: string; meta: RouteMeta }[] = [];
  for (const { meta } of listRestProcedures(appRouter))
    routes.push({ method: meta.openapi.method.toLowerCase(), path: meta.openapi.path, meta });
  return routes;
}

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3 document with every registered path and method', async () => {
    const res = await t.request('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    const routes = registeredRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(10);
    for (const { method, path, meta } of routes) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation['x-auth']).toBe(meta.auth ?? 'public');
      const success = String(meta.successStatus ?? 200);
      expect(operation.responses[success], `${method} ${path} ${success}`).toBeDefined();
      for (const [status, response] of Object.entries(
        operation.responses as Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>,
      )) {
        if (Number(status) >= 400)
          expect(response.content?.['application/json']?.schema?.$ref, `${method} ${path} ${status}`).toBe(
            '#/components/schemas/ErrorEnvelope',
          );
      }
    }
    expect(doc.paths['/api/auth/register'].post.responses['201']).toBeDefined();
    expect(doc.paths['/api/auth/magic-link'].post.responses['202']).toBeDefined();
    expect(doc.components.schemas.ErrorEnvelope).toBeDefined();
    // Every $ref points at something that exists.
    for (const ref of JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? []) {
      expect(doc.components.schemas[ref.slice(22, -1)], ref).toBeDefined();
    }
  });

  it('is the document built at boot (same object the app holds)', async () => {
    const res = await t.request('GET', '/api/openapi.json');
    expect(res.body).toEqual(JSON.parse(JSON.stringify(t.openApiDocument)));
  });
});
