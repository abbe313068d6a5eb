// Walks SPEC.md's endpoint tables (tests/conformance/spec-routes.ts) against the running app:
// every route is in the OpenAPI document at its exact method and path with the spec's auth
// level, and every mounted-but-unbuilt route answers 501 only after auth and validation pass,
// through REST and through the typed tRPC client.
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRestRoutes } from '../../server/http/rest.js';
import { compilePath, listProcedures, normalizePath } from '../../server/trpc/trpc-internals.js';
import type { RouteMeta } from '../../server/trpc/init.js';
import { appRouter } from '../../server/composition.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import {
  expectedLater,
  routeKey,
  sampleTrpcInput,
  sampleUrl,
  specRoutes,
  type Sample,
  type SpecRoute,
} from './spec-routes.js';

interface Operation {
  operationId?: string;
  security?: unknown[];
  'x-auth'?: string;
  'x-unbuilt'?: boolean;
}
type Paths = Record<string, Record<string, Operation>>;

let t: TestApp;
let paths: Paths;
let member: TestMember;
let admin: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.request('GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  paths = res.body.paths as Paths;
  [member, admin] = await Promise.all([
    createMember(t, { prefix: 'conf' }),
    createMember(t, { admin: true, prefix: 'confadm' }),
  ]);
});
afterAll(() => t?.close());

const operationOf = (route: Pick<SpecRoute, 'method' | 'path'>): Operation | undefined =>
  paths[route.path]?.[route.method.toLowerCase()];
const documentedRoutes = specRoutes.filter((r) => r.inDocument !== false);
/**
 * Rows the server still mounts unbuilt. The spec's status column stays "501" for routes built
 * since; those are tested by their domains' own tests, and their samples here are only kept as
 * documentation of valid and invalid input.
 */
const isUnbuiltProcedure = (route: SpecRoute): boolean =>
  listProcedures(appRouter).some(
    (p) => p.meta?.openapi?.method === route.method && p.meta.openapi.path === route.path && p.meta.unbuilt === true,
  );
const unbuiltRows = specRoutes.filter((r) => r.valid && isUnbuiltProcedure(r));
const specByKey = new Map(specRoutes.map((r) => [routeKey(r), r]));

/** The token of a caller who passes the route's auth level (organizer checks live in services). */
function callerFor(route: SpecRoute): string | undefined {
  if (route.auth === 'public') return undefined;
  return route.auth === 'admin' ? admin.token : member.token;
}

function send(route: SpecRoute, sample: Sample, token: string | undefined) {
  const sendsBody = route.method !== 'GET' && route.method !== 'DELETE';
  return t.request(route.method, sampleUrl(route, sample), {
    token,
    body: sendsBody ? (sample.body ?? {}) : undefined,
  });
}

describe('the spec tables as data', () => {
  it('lists each route once', () => {
    expect(new Set(specRoutes.map(routeKey)).size).toBe(specRoutes.length);
  });

  it('has valid and invalid samples for every route still unbuilt', () => {
    const missing = specRoutes.filter(
      (r) => r.status === '501' && isUnbuiltProcedure(r) && !expectedLater.has(routeKey(r)) && (!r.valid || !r.invalid),
    );
    expect(missing.map(routeKey)).toEqual([]);
  });

  it('gives an invalid sample wherever the route takes any input', () => {
    const noInvalid = unbuiltRows.filter(
      (r) => r.invalid!.length === 0 && (r.path.includes('{') || r.valid!.body || r.valid!.query),
    );
    expect(noInvalid.map(routeKey)).toEqual([]);
  });
});

describe('every spec route is in the OpenAPI document', () => {
  it.each(documentedRoutes.map((r) => [routeKey(r), r] as const))('%s: method, path and auth', (_key, route) => {
    const op = operationOf(route);
    if (!op) {
      // Only routes another milestone is still mounting may be missing.
      expect(expectedLater.has(routeKey(route)), `${routeKey(route)} is not in the OpenAPI document`).toBe(true);
      return;
    }
    expect(op['x-auth']).toBe(route.auth);
    if (route.auth === 'public') expect(op.security ?? []).toEqual([]);
    else expect(op.security?.length ?? 0).toBeGreaterThan(0);
    if (route.status === 'impl')
      expect(op['x-unbuilt'], `${routeKey(route)} is implemented per the spec`).toBeUndefined();
  });

  it('serves /healthz outside the document', async () => {
    const res = await t.request('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it('serves /readyz (readiness, beyond the spec; docs/operations.md, "Health for a balancer") outside the document too', async () => {
    const res = await t.request('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    const doc = (await t.request('GET', '/api/openapi.json')).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((path) => /healthz|readyz/.test(path))).toEqual([]);
  });

  it('marks unbuilt only routes of the spec, each with samples here (or awaiting its milestone)', () => {
    const stray: string[] = [];
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!op['x-unbuilt']) continue;
        const key = `${method.toUpperCase()} ${path}`;
        const row = specByKey.get(key);
        if (!row || (!row.valid && !expectedLater.has(key))) stray.push(key);
      }
    }
    expect(stray).toEqual([]);
  });

  it('routes every path to its own procedure (no static segment swallowed by an earlier {param})', () => {
    const routes = listRestRoutes(appRouter);
    const wrong: string[] = [];
    for (const route of routes) {
      const own = routes.find((r) => r.procedurePath === route.procedurePath)!;
      const meta = procedureMeta(route.procedurePath);
      const concrete = normalizePath(meta.openapi!.path.replace(/\{[^}]+\}/g, 'sample-value-1'));
      const first = routes.find((r) => r.method === route.method && r.pattern.test(concrete));
      if (first !== own) wrong.push(`${route.method} ${meta.openapi!.path} is answered by ${first?.procedurePath}`);
    }
    // And the spec's own sample paths, which use realistic ids and slugs.
    for (const row of unbuiltRows) {
      const concrete = normalizePath(sampleUrl(row, { params: row.valid!.params }));
      const first = routes.find((r) => r.method === row.method && r.pattern.test(concrete));
      if (
        !first ||
        !compilePath(row.path).pattern.test(concrete) ||
        procedureMeta(first.procedurePath).openapi!.path !== row.path
      )
        wrong.push(`${routeKey(row)} is answered by ${first?.procedurePath}`);
    }
    expect(wrong).toEqual([]);
  });
});

// Every spec route is built today; a route mounted unbuilt later is checked here again.
if (unbuiltRows.length > 0)
  describe('unbuilt routes over REST', () => {
    it.each(unbuiltRows.map((r) => [routeKey(r), r] as const))(
      '%s: 501 with valid input, 400 with invalid, auth first',
      async (_key, route) => {
        expect(operationOf(route)?.['x-unbuilt'], `${routeKey(route)} should be mounted as unbuilt`).toBe(true);
        const token = callerFor(route);

        const ok = await send(route, route.valid!, token);
        expect(ok.status, `${routeKey(route)} valid: ${ok.text}`).toBe(501);
        expect(ok.body).toEqual({ error: { code: 'not_implemented', message: expect.any(String) } });

        for (const sample of route.invalid!) {
          const bad = await send(route, sample, token);
          expect(bad.status, `${routeKey(route)} invalid ${JSON.stringify(sample)}: ${bad.text}`).toBe(400);
          expect(bad.body.error.code).toBe('validation_failed');
        }

        if (route.auth !== 'public') {
          const anonymous = await send(route, route.valid!, undefined);
          expect(anonymous.status).toBe(401);
          expect(anonymous.body.error.code).toBe('unauthorized');
          // Auth is checked before validation: an anonymous caller learns nothing about the schema.
          const anonymousInvalid = await send(route, route.invalid![0] ?? route.valid!, undefined);
          expect(anonymousInvalid.status).toBe(401);
        }
        if (route.auth === 'admin') {
          const notAdmin = await send(route, route.valid!, member.token);
          expect(notAdmin.status).toBe(403);
          expect(notAdmin.body.error.code).toBe('forbidden');
        }
        if (route.auth === 'public') {
          // A dead token is refused even on public routes (the client learns its session is gone),
          // except by sign-in routes, which ignore it so that signing in again always works.
          const dead = await send(route, route.valid!, 'a'.repeat(52));
          expect(dead.status).toBe(route.signIn ? 501 : 401);
        }
      },
    );
  });

// ---- tRPC ----

const procedures = listProcedures(appRouter);

function procedureMeta(path: string): RouteMeta {
  return procedures.find((p) => p.path === path)!.meta!;
}

function procedureFor(route: SpecRoute): { path: string; type: 'query' | 'mutation' } {
  const entry = procedures.find((p) => p.meta?.openapi?.method === route.method && p.meta.openapi.path === route.path);
  if (!entry) throw new Error(`no procedure for ${routeKey(route)}`);
  return { path: entry.path, type: entry.type === 'query' ? 'query' : 'mutation' };
}

/** Calls a procedure by its dotted path on the typed client (the path comes from data). */
function callTrpc(
  token: string | undefined,
  path: string,
  type: 'query' | 'mutation',
  input: unknown,
): Promise<unknown> {
  let target: any = t.trpc(token);
  for (const part of path.split('.')) target = target[part];
  return type === 'query' ? target.query(input) : target.mutate(input);
}

async function trpcErrorCode(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  return (error as TRPCClientError<any>).data?.code as string;
}

if (unbuiltRows.length > 0)
  describe('unbuilt routes through the typed tRPC client', () => {
    it.each(unbuiltRows.map((r) => [routeKey(r), r] as const))(
      '%s: not_implemented, validation_failed, unauthorized',
      async (_key, route) => {
        const { path, type } = procedureFor(route);
        const token = callerFor(route);
        expect(await trpcErrorCode(callTrpc(token, path, type, sampleTrpcInput(route.valid!)))).toBe('not_implemented');
        const invalid = route.invalid![0];
        if (invalid)
          expect(await trpcErrorCode(callTrpc(token, path, type, sampleTrpcInput(invalid)))).toBe('validation_failed');
        if (route.auth !== 'public')
          expect(await trpcErrorCode(callTrpc(undefined, path, type, sampleTrpcInput(route.valid!)))).toBe(
            'unauthorized',
          );
      },
    );
  });

describe('an unconfigured feature through the typed tRPC client', () => {
  // Every route is built now; a feature this server has not configured still answers 501, typed.
  it('answers not_implemented through the typed client for an unconfigured sign-in provider', async () => {
    const calls: (() => Promise<unknown>)[] = [
      () => t.trpc().auth.google.mutate({ idToken: 'jwt' }),
      () => t.trpc().auth.apple.mutate({ identityToken: 'jwt', nonce: 'n' }),
    ];
    for (const call of calls) expect(await trpcErrorCode(call())).toBe('not_implemented');
  });
});
