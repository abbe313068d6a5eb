// Calls one catalog route through either surface: REST (/api) or raw tRPC over HTTP (/trpc),
// so every security suite checks both with the same request parts.
import type { ApiResponse, TestApp } from '../setup/harness.js';
import { buildUrl, listProcedures, type CatalogRoute } from '../setup/route-catalog.js';

export type Surface = 'rest' | 'trpc';

const procedureByRouteKey = new Map<string, { path: string; type: string }>();
for (const p of listProcedures()) {
  if (p.meta?.openapi)
    procedureByRouteKey.set(`${p.meta.openapi.method} ${p.meta.openapi.path}`, { path: p.path, type: p.type });
}

export function procedureFor(route: CatalogRoute) {
  return procedureByRouteKey.get(route.key);
}

export interface CallParts {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  rawBody?: string;
}

export async function callRoute(
  t: TestApp,
  surface: Surface,
  route: CatalogRoute,
  parts: CallParts,
  token?: string,
): Promise<ApiResponse> {
  if (surface === 'rest') {
    const url = buildUrl(route.path, parts.params, parts.query);
    return t.request(route.method, url, {
      token,
      body: parts.rawBody === undefined ? parts.body : undefined,
      rawBody: parts.rawBody,
      headers: parts.rawBody !== undefined ? { 'content-type': 'application/json' } : {},
    });
  }
  const procedure = procedureFor(route);
  if (!procedure || !route.surfaces.includes('trpc')) throw new Error(`no tRPC procedure for ${route.key}`);
  const body = parts.body && typeof parts.body === 'object' && !Array.isArray(parts.body) ? parts.body : {};
  const input = { ...(body as object), ...parts.query, ...parts.params };
  if (procedure.type === 'query') {
    return t.request('GET', `/trpc/${procedure.path}?input=${encodeURIComponent(JSON.stringify(input))}`, { token });
  }
  return t.request('POST', `/trpc/${procedure.path}`, { token, body: input });
}

/** The error code of either surface's error shape. */
export function errorCodeOf(surface: Surface, response: ApiResponse): string | undefined {
  if (surface === 'rest') return response.body?.error?.code;
  return response.body?.error?.data?.code;
}
