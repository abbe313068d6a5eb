// The served OpenAPI document is the contract: it lints clean (Redocly's rules, redocly.yaml),
// every request body has an example the server really accepts, strict inputs say
// `additionalProperties: false`, and every operation declares the statuses its kind can answer.
// (That the suite never sees an undeclared answer is checked at the end of every run:
// observed-answers.setup.ts.)
import { forEachOpenApiProcedure, getInputOutputParsers } from 'trpc-to-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RouteMeta } from '../../server/trpc/init.js';
import { appRouter } from '../../server/composition.js';
import { createTestApp, type TestApp } from '../setup/harness.js';
import { formatProblem, lintOpenApiDocument } from './lint-openapi.js';
import { undeclaredAnswers } from './check-answers.js';

interface Operation {
  requestBody?: { content?: Record<string, { schema?: Record<string, unknown>; example?: unknown }> };
  responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }>;
  security?: unknown[];
}
type Paths = Record<string, Record<string, Operation>>;

let t: TestApp;
let doc: { paths: Paths; security?: unknown[] };
beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.request('GET', '/api/openapi.json')).body;
});
afterAll(() => t.close());

interface Route {
  method: string;
  path: string;
  meta: RouteMeta;
  input: z.ZodType | undefined;
  operation: () => Operation;
}

function routes(): Route[] {
  const list: Route[] = [];
  forEachOpenApiProcedure(appRouter._def.procedures, ({ meta, procedure }) => {
    const m = meta as RouteMeta & { openapi: NonNullable<RouteMeta['openapi']> };
    const method = m.openapi.method.toLowerCase();
    list.push({
      method,
      path: m.openapi.path,
      meta: m,
      input: getInputOutputParsers(procedure as never).inputParser as z.ZodType | undefined,
      operation: () => doc.paths[m.openapi.path]![method]!,
    });
  });
  return list;
}

describe('the served OpenAPI document', () => {
  it('lints with zero errors (Redocly recommended rules + redocly.yaml)', async () => {
    const problems = await lintOpenApiDocument(doc);
    expect(problems.filter((p) => p.severity === 'error').map(formatProblem)).toEqual([]);
  });

  it('has an example on every request body, and the server accepts it', () => {
    const missing: string[] = [];
    for (const route of routes()) {
      const media = route.operation().requestBody?.content?.['application/json'];
      if (!media) continue;
      if (media.example === undefined) missing.push(`${route.method} ${route.path}`);
      const example = (route.input?.meta()?.examples as unknown[] | undefined)?.[0];
      const parsed = route.input?.safeParse(example);
      expect(parsed?.success, `${route.method} ${route.path}: ${parsed?.error?.message}`).toBe(true);
    }
    expect(missing, 'request bodies without an example (input meta `examples`)').toEqual([]);
  });

  it('says additionalProperties: false for every body whose input rejects unknown keys', () => {
    for (const route of routes()) {
      const schema = route.operation().requestBody?.content?.['application/json']?.schema;
      if (!schema || !(route.input instanceof z.ZodObject)) continue;
      const strict = (route.input._zod.def as { catchall?: unknown }).catchall instanceof z.ZodNever;
      expect(schema.additionalProperties === false, `${route.method} ${route.path}`).toBe(strict);
    }
  });

  it('declares the statuses every route of its kind can answer, with the envelope', () => {
    for (const route of routes()) {
      const where = `${route.method} ${route.path}`;
      const { responses } = route.operation();
      const declared = Object.keys(responses);
      expect(declared, where).toContain(String(route.meta.successStatus ?? 200));
      for (const status of ['500', '503']) expect(declared, where).toContain(status);
      if (route.path.includes('{')) expect(declared, where).toContain('404');
      if (route.meta.auth === 'admin') expect(declared, where).toContain('403');
      if (route.meta.unbuilt) expect(declared, where).toContain('501');
      if (route.method !== 'get' && route.method !== 'delete') {
        for (const status of ['400', '413', '415']) expect(declared, where).toContain(status);
      }
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) >= 400) expect(response.content?.['application/json'], `${where} ${status}`).toBeDefined();
      }
      expect(responses['503']!.headers?.['Retry-After'], where).toBeDefined();
    }
  });

  it('declares 401 wherever a token is read, and invalid_credentials / rate limits on sign-in', () => {
    const op = (method: string, path: string) => doc.paths[path]![method]!;
    // A stale token answers 401 even on public routes.
    for (const path of ['/api/places', '/api/events', '/api/stats', '/api/groves/{grove}'])
      expect(op('get', path).responses['401'], path).toBeDefined();
    // Sign-in routes ignore the header (security: []) but answer 401 invalid_credentials.
    expect(op('post', '/api/auth/register').security).toEqual([]);
    expect(op('post', '/api/auth/register').responses['401']).toBeUndefined();
    expect(Object.keys(op('post', '/api/auth/register').responses)).toEqual(
      expect.arrayContaining(['201', '400', '409', '413', '415', '429', '500', '503']),
    );
    expect(Object.keys(op('post', '/api/auth/login').responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '413', '415', '429', '500', '503']),
    );
    expect(op('post', '/api/auth/magic-link/verify').responses['401']).toBeDefined();
    expect(op('post', '/api/auth/login').responses['429']!.headers?.['Retry-After']).toBeDefined();
    expect(doc.security).toEqual([{}, { bearer: [] }]);
  });

  it('declares the optional details of validation_failed in the ErrorEnvelope', () => {
    const envelope = (doc as unknown as { components: { schemas: Record<string, any> } }).components.schemas
      .ErrorEnvelope;
    expect(envelope.properties.error.required).toEqual(['code', 'message']);
    expect(envelope.properties.error.properties.details.items.required).toEqual(['path', 'message']);
  });

  it('has one path per template: GET and PATCH /api/events/{event} and /api/groves/{grove}', () => {
    const shapes = Object.keys(doc.paths).map((p) => p.replace(/\{[^}]+\}/g, '{}'));
    expect(shapes.length).toBe(new Set(shapes).size);
    expect(Object.keys(doc.paths['/api/events/{event}']!).sort()).toEqual(['get', 'patch']);
    expect(Object.keys(doc.paths['/api/groves/{grove}']!).sort()).toEqual(['get', 'patch']);
  });
});

describe('the observed-answers check (observed-answers.setup.ts)', () => {
  it('flags a status or content type the operation does not declare, and allows 404/405 off the document', () => {
    const answer = (method: string, path: string, status: number, contentType = 'application/json') => ({
      method,
      path,
      status,
      contentType,
    });
    expect(
      undeclaredAnswers(doc, [
        answer('POST', '/api/auth/login', 401),
        answer('GET', '/api/places', 200),
        answer('HEAD', '/api/places', 200),
        answer('GET', '/api/no-such-thing', 404),
        answer('PUT', '/api/me', 405),
        answer('GET', '/api/admin/places/pending', 200),
        answer('GET', '/api/calendar/abc.ics', 200, 'text/calendar'),
      ]),
    ).toEqual([]);
    const problems = undeclaredAnswers(doc, [
      answer('GET', '/api/places', 418),
      answer('GET', '/api/places', 200, 'text/html'),
      answer('PUT', '/api/me', 200),
      answer('GET', '/api/no-such-thing', 200),
    ]);
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/GET \/api\/places does not declare 418/);
  });
});
