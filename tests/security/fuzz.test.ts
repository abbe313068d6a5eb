// Input fuzzing of every route in the OpenAPI document, through REST and tRPC, with random and
// hostile inputs built from the route's own schemas (tests/setup/arbitraries.ts).
// Invariants: never a 5xx (501 on unbuilt routes aside), always the error shape on non-2xx,
// never a stack trace or SQL in a body, and a rejected write leaves every table unchanged.
// Deterministic: FUZZ_SEED (fixed default) and FUZZ_RUNS per route; scripts/fuzz-campaign.ts
// runs long campaigns with other seeds.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type ApiResponse, type TestApp } from '../setup/harness.js';
import { listRoutes, servedDocument, type CatalogRoute } from '../setup/route-catalog.js';
import { fuzzRequest, hostileCursors, sampleRequest } from '../setup/arbitraries.js';
import { resolveSchema } from '../setup/route-catalog.js';
import { createCallers } from './callers.js';
import { changedTables, snapshotTables } from './db-snapshot.js';
import { callRoute, errorCodeOf, type Surface } from './surfaces.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const ONLY = process.env.FUZZ_ROUTE; // substring of a route key, for campaigns on one route
/** FUZZ_STATS=1 prints the answers' statuses per route (is the fuzzer getting past validation?). */
const stats = new Map<string, Record<number, number>>();

const doc = servedDocument();
const routes = listRoutes(doc).filter((r) => !ONLY || r.key.includes(ONLY));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  if (process.env.FUZZ_STATS) for (const [key, counts] of stats) console.log(`${key}: ${JSON.stringify(counts)}`);
  await t?.close();
});

const stackTrace = [/\n\s+at\s/, /\bat \S+ \(\S+:\d+:\d+\)/, /node_modules/, /\.(ts|js|mjs):\d+:\d+/];
const sqlText = [
  /syntax error at or near/i,
  /relation "[^"]*"/i,
  /column "[^"]*"/i,
  /violates \w+ constraint/i,
  /duplicate key value/i,
  /PostgresError/,
  /DrizzleQueryError|Failed query/i,
  /\bselect\b[^"]{0,120}\bfrom\b\s+"?\w+"?\s+(where|limit|order)\b/i,
];

/** Why the answer breaks an invariant, or null. */
function invariantViolation(route: CatalogRoute, surface: Surface, res: ApiResponse): string | null {
  const s = res.status;
  if (s >= 500 && !(route.mayBeUnconfigured && s === 501)) return `server error ${s}`;
  if (stackTrace.some((re) => re.test(res.text))) return 'stack trace in the body';
  const ok = s >= 200 && s < 300;
  if (!ok) {
    if (
      surface === 'rest' &&
      (typeof res.body?.error?.code !== 'string' ||
        typeof res.body?.error?.message !== 'string' ||
        Object.keys(res.body).length !== 1)
    )
      return 'non-2xx without the error envelope';
    if (surface === 'trpc' && typeof errorCodeOf(surface, res) !== 'string') return 'tRPC error without data.code';
    if (sqlText.some((re) => re.test(res.text))) return 'SQL text in the body';
  }
  return null;
}

describe.each(routes.map((r) => [r.key, r] as const))('fuzz %s', (_key, route) => {
  it(`holds the invariants for ${RUNS} random and hostile requests`, {
    timeout: Math.max(90_000, RUNS * 3000),
  }, async () => {
    // Fresh callers per route: a fuzzed DELETE /api/me or logout may consume them.
    const callers = await createCallers(t);
    const tokens = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom<string | undefined>(callers.member.token, callers.admin.token) },
      {
        weight: 1,
        arbitrary: fc.constantFrom<string | undefined>(undefined, callers.revoked.token, 'not-a-token', 'a'.repeat(52)),
      },
    );
    await fc.assert(
      fc.asyncProperty(
        fuzzRequest(doc, route),
        tokens,
        fc.constantFrom<Surface>(...route.surfaces),
        async (request, token, surface) => {
          const before = route.write ? await snapshotTables(t.deps.database) : null;
          const res = await callRoute(t, surface, route, request, token);
          const counts = stats.get(route.key) ?? {};
          counts[res.status] = (counts[res.status] ?? 0) + 1;
          stats.set(route.key, counts);
          const violation = invariantViolation(route, surface, res);
          if (violation) throw new Error(`${violation}: ${surface} ${res.status} ${res.text.slice(0, 400)}`);
          const rejected = res.status >= 400;
          if (before && rejected) {
            const changed = changedTables(before, await snapshotTables(t.deps.database));
            if (changed.length)
              throw new Error(
                `rejected write (${res.status} ${res.text.slice(0, 200)}) changed tables: ${changed.join(', ')}`,
              );
          }
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });
});

describe('cursors', () => {
  const lists = routes.filter(
    (r) =>
      r.method === 'GET' && r.queryParams.some((p) => p.name === 'cursor') && !r.unbuilt && r.pathParams.length === 0,
  );
  it('finds the built list routes', () => {
    expect(lists.map((r) => r.key)).toContain('GET /api/places');
  });
  it.each(lists.map((r) => [r.key, r] as const))(
    '%s answers 400 invalid_cursor to a malformed cursor',
    async (_key, route) => {
      const callers = await createCallers(t);
      const token =
        route.auth === 'public' ? undefined : route.auth === 'admin' ? callers.admin.token : callers.member.token;
      for (const cursor of hostileCursors) {
        const res = await callRoute(t, 'rest', route, { params: {}, query: { cursor }, body: undefined }, token);
        if (cursor === '') continue; // an empty cursor may mean "first page"
        expect(res.status, `cursor ${JSON.stringify(cursor.slice(0, 40))}: ${res.text.slice(0, 200)}`).toBe(400);
        expect(['invalid_cursor', 'validation_failed']).toContain(res.body.error.code);
        if (cursor.length <= 64)
          expect(res.body.error.code, `cursor ${JSON.stringify(cursor.slice(0, 40))}`).toBe('invalid_cursor');
      }
    },
  );
});

describe('NUL characters (PostgreSQL cannot store them)', () => {
  // Found by the fuzzer: a NUL in a stored or looked-up string reached PostgreSQL and answered 500.
  const targets = routes.filter((r) => !r.unbuilt && (r.body || r.pathParams.length));
  it.each(targets.map((r) => [r.key, r] as const))(
    '%s answers < 500 with a NUL in each string field',
    async (_key, route) => {
      const callers = await createCallers(t);
      const token =
        route.auth === 'admin' ? callers.admin.token : route.auth === 'public' ? undefined : callers.member.token;
      const base = sampleRequest(doc, route);
      const variants: { params: Record<string, unknown>; body: unknown; field: string }[] = [];
      for (const p of route.pathParams)
        variants.push({ params: { ...base.params, [p.name]: 'a\u0000b' }, body: base.body, field: p.name });
      for (const [name, prop] of Object.entries(resolveSchema(doc, route.body ?? {}).properties ?? {})) {
        if (resolveSchema(doc, prop).type !== 'string') continue;
        variants.push({ params: base.params, body: { ...(base.body as object), [name]: 'a\u0000b' }, field: name });
      }
      for (const v of variants) {
        for (const surface of route.surfaces) {
          const res = await callRoute(t, surface, route, { params: v.params, query: base.query, body: v.body }, token);
          expect(
            invariantViolation(route, surface, res),
            `${surface} ${v.field}: ${res.status} ${res.text.slice(0, 200)}`,
          ).toBeNull();
        }
      }
    },
  );
});
