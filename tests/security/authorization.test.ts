// Authorization matrix: every route of the OpenAPI document × every caller level × both
// surfaces (REST and tRPC), checked against authorization-matrix.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type ApiResponse, type TestApp } from '../setup/harness.js';
import { listProcedures, listRoutes, servedDocument, type CatalogRoute } from '../setup/route-catalog.js';
import { sampleRequest } from '../setup/arbitraries.js';
import {
  authorizationMatrix,
  defaultOutcome,
  organizerHooks,
  type Outcome,
  type RequestParts,
  type RouteRule,
  type SetupContext,
} from './authorization-matrix.js';
import { callerLevels, createCallers, type Caller, type CallerLevel, type CallerSet } from './callers.js';
import { callRoute, errorCodeOf, procedureFor, type Surface } from './surfaces.js';

// Read at collection time so each route is its own test; the app builds the same document.
const doc = servedDocument();
const routes = listRoutes(doc);
const routeByKey = new Map(routes.map((r) => [r.key, r]));

let t: TestApp;
let callers: CallerSet;
beforeAll(async () => {
  t = await createTestApp();
  callers = await createCallers(t, organizerHooks);
});
afterAll(() => t?.close());

function merge(base: RequestParts, extra: Partial<RequestParts> | undefined): RequestParts {
  if (!extra) return base;
  const body =
    extra.body !== undefined && base.body && typeof base.body === 'object' && typeof extra.body === 'object'
      ? { ...(base.body as object), ...(extra.body as object) }
      : (extra.body ?? base.body);
  return { params: { ...base.params, ...extra.params }, query: { ...base.query, ...extra.query }, body };
}

function setupContext(set: CallerSet, caller: Caller): SetupContext {
  return {
    t,
    callers: set,
    caller,
    async create(routeKey, as, extra) {
      const target = routeByKey.get(routeKey);
      if (!target) throw new Error(`setup needs ${routeKey}, which is not mounted`);
      const res = await callRoute(t, 'rest', target, merge(sampleRequest(doc, target), extra), as.token);
      if (res.status >= 300)
        throw new Error(`setup call ${routeKey} answered ${res.status}: ${res.text.slice(0, 300)}`);
      return res.body;
    },
  };
}

async function buildParts(route: CatalogRoute, rule: RouteRule, set: CallerSet, caller: Caller): Promise<RequestParts> {
  let parts = merge(sampleRequest(doc, route), rule.sample);
  if (rule.setup) parts = merge(parts, await rule.setup(setupContext(set, caller)));
  return parts;
}

/** Null when the answer matches the expected outcome, otherwise why not. */
function mismatch(route: CatalogRoute, outcome: Outcome, surface: Surface, res: ApiResponse): string | null {
  const s = res.status;
  const code = errorCodeOf(surface, res);
  const is2xx = s >= 200 && s < 300;
  if (s >= 500 && !(route.mayBeUnconfigured && s === 501)) return `server error ${s}`;
  if (
    !is2xx &&
    surface === 'rest' &&
    (typeof res.body?.error?.code !== 'string' || typeof res.body?.error?.message !== 'string')
  )
    return `non-2xx without the error envelope`;
  switch (outcome) {
    case 'ok':
      if (route.unbuilt || (route.mayBeUnconfigured && s === 501))
        return s === 501 && code === 'not_implemented' ? null : `expected 501 not_implemented`;
      if (!is2xx) return `expected 2xx`;
      if (surface === 'rest' && s !== route.successStatus) return `expected the documented ${route.successStatus}`;
      return null;
    case 'unauthorized':
      return s === 401 && code === 'unauthorized' ? null : 'expected 401 unauthorized';
    case 'forbidden':
      return s === 403 ? null : 'expected 403';
    case 'hidden':
      return s === 404 ? null : 'expected 404';
    case 'denied':
      return s === 403 || s === 404 ? null : 'expected 403 or 404';
    case 'reached':
      if ((s === 401 && code === 'unauthorized') || s === 403) return 'expected to pass authorization';
      return null;
  }
}

describe('authorization table', () => {
  it('lists every mounted route, at the level the document declares', () => {
    expect(routes.length).toBeGreaterThan(0);
    const missing = routes
      .filter((r) => !authorizationMatrix[r.key])
      .map((r) => `${r.key} (x-auth ${r.auth}${r.unbuilt ? ', unbuilt' : ''})`);
    expect(missing, 'routes missing from tests/security/authorization-matrix.ts').toEqual([]);
    const wrongLevel = routes
      .filter((r) => authorizationMatrix[r.key] && authorizationMatrix[r.key]!.auth !== r.auth)
      .map((r) => `${r.key}: table ${authorizationMatrix[r.key]!.auth}, document ${r.auth}`);
    expect(wrongLevel, 'auth level in the table differs from the route meta').toEqual([]);
  });

  it('has no entry for a route that is not mounted (renamed or removed routes)', () => {
    const stale = Object.keys(authorizationMatrix).filter((key) => !routeByKey.has(key));
    expect(stale, 'entries in tests/security/authorization-matrix.ts without a route').toEqual([]);
  });

  it('every tRPC procedure declares an auth level and a REST path', () => {
    const problems = listProcedures()
      .filter((p) => !p.meta?.auth || !p.meta.openapi)
      .map((p) => `${p.path}: ${!p.meta?.auth ? 'no meta.auth' : 'no meta.openapi'}`);
    expect(problems).toEqual([]);
    for (const route of routes.filter((r) => r.surfaces.includes('trpc')))
      expect(procedureFor(route), route.key).toBeDefined();
    // Raw Hono routes (REST only) are the API's non-JSON answers (feeds) and the ActivityPub
    // paths outside /api: a JSON route of the API is always a procedure, on both surfaces.
    for (const route of routes.filter((r) => !r.surfaces.includes('trpc')))
      expect(route.json && route.path.startsWith('/api/'), `${route.key} is JSON under /api but no procedure`).toBe(
        false,
      );
  });

  it('protect in the document matches the auth level', () => {
    const paths = doc.paths as Record<string, Record<string, { security?: unknown[] }>>;
    const wrong = routes
      .filter((r) => (r.auth === 'public') !== !paths[r.path]![r.method.toLowerCase()]!.security?.length)
      .map((r) => r.key);
    expect(wrong, 'set openapi.protect to match meta.auth').toEqual([]);
  });
});

describe.each(routes.map((r) => [r.key, r] as const))('%s', (_key, route) => {
  it('answers each caller level as the table says, on each of its surfaces (REST, tRPC)', async () => {
    const rule = authorizationMatrix[route.key];
    if (!rule) return; // reported by the completeness test above
    const calls = (callerLevels as readonly CallerLevel[]).flatMap((level) =>
      route.surfaces.map((surface) => ({ level, surface })),
    );
    // Independent calls run together; destructive ones each get a fresh set of callers.
    const results = await Promise.all(
      calls.map(async ({ level, surface }) => {
        const outcome = rule.expect?.[level] ?? defaultOutcome(route.auth, route.unbuilt, level);
        const set = rule.destructive ? await createCallers(t) : callers;
        const caller = set[level];
        let parts: RequestParts;
        try {
          parts = await buildParts(route, rule, set, caller);
        } catch (error) {
          return `${level} ${surface}: setup failed: ${(error as Error).message}`;
        }
        const res = await callRoute(t, surface, route, parts, caller.token);
        const why = mismatch(route, outcome, surface, res);
        if (!why) return null;
        const hint =
          res.status === 400 && (outcome === 'ok' || outcome === 'reached')
            ? ' (the generated sample is invalid: add `sample` or `setup` to the table)'
            : '';
        return `${level} ${surface}: ${why}${hint}; got ${res.status} ${res.text.slice(0, 200)}`;
      }),
    );
    const failures = results.filter((r): r is string => r !== null);
    expect(failures).toEqual([]);
  });

  const rule = authorizationMatrix[route.key];
  if (rule?.capability)
    it('is a capability URL: a live secret answers whatever the Authorization header; any other answers 404', async () => {
      const capability = rule.capability!;
      const failures: string[] = [];
      for (const level of callerLevels) {
        const caller = callers[level];
        const ctx = setupContext(callers, caller);
        const live = merge(sampleRequest(doc, route), await capability.live(ctx));
        const res = await callRoute(t, 'rest', route, live, caller.token);
        const why = capability.check(res);
        if (why) failures.push(`${level} with a live secret: ${why}; got ${res.status} ${res.text.slice(0, 120)}`);
        for (const [what, parts] of Object.entries(await capability.dead(ctx))) {
          const miss = await callRoute(t, 'rest', route, merge(live, parts), caller.token);
          if (miss.status !== 404 || miss.body?.error?.code !== 'not_found')
            failures.push(
              `${level} with ${what}: expected the 404 envelope, got ${miss.status} ${miss.text.slice(0, 120)}`,
            );
        }
      }
      expect(failures).toEqual([]);
    });
});
