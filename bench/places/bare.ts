// The bare baseline: Hono + postgres.js, no tRPC, no OpenAPI adapter, no zod, no middleware.
// It answers `GET /api/places?bbox=w,s,e,n[&limit=n]` with the same JSON as the real API.
//
// mode 'design': the SQL the API runs, taken from approvedPlacesQueries(...).toSQL(), so the two
//   can never drift; executed directly with postgres.js, unprepared, as Drizzle executes it.
// mode 'naive': the original query (GiST `&&` + ORDER BY id LIMIT), the "before" of the index work.
import { Hono } from 'hono';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import * as schema from '../../db/schema/index.js';
import { and, asc, sql } from 'drizzle-orm';
import { places } from '../../db/schema/places.js';
import { approvedPlacesQueries, bboxCondition, placeColumns } from '../../server/domains/places/list-query.js';
import type { BoundingBox } from '../../server/domains/places/schemas.js';
import { encodeCursor } from '../../server/lib/pagination.js';

export type BareMode = 'design' | 'naive';

/**
 * The list query as first written (before the bbox migration): `location && box`, approved,
 * ORDER BY id LIMIT n; the planner picks a GiST bitmap scan + sort, or walks the primary key.
 * Built with Drizzle like the design query, so both sides pay the same to build their SQL.
 */
export function naiveQuery(db: Builder, box: BoundingBox, limit: number) {
  return db
    .select(placeColumns)
    .from(places)
    .where(and(sql`${places.status} = 'approved'`, bboxCondition(box)))
    .orderBy(asc(places.id))
    .limit(limit + 1)
    .toSQL();
}

function parseBox(value: string | undefined): BoundingBox | null {
  const parts = (value ?? '').split(',').map(Number);
  if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n))) return null;
  const [west, south, east, north] = parts as [number, number, number, number];
  return { west, south, east, north };
}

type Builder = ReturnType<typeof drizzle.mock<typeof schema>>;
type Row = [string, string, string, string, string, string, string | null, string, string[], string[], number, number, string, Date];

export function createBareApp(url: string, mode: BareMode, poolMax = 10) {
  const client = postgres(url, { max: poolMax, onnotice: () => {} });
  // Drizzle is used only to build the design SQL text; it never touches this client's parsers.
  const builder = drizzle.mock({ schema, casing: 'snake_case' });
  const app = new Hono();
  app.get('/api/places', async (c) => {
    const box = parseBox(c.req.query('bbox'));
    if (!box) return c.json({ error: { code: 'validation_failed', message: 'bbox' } }, 400);
    const limit = Math.min(100, Math.max(1, Number(c.req.query('limit') ?? 20) || 20));
    // The design may need a second statement (see listApprovedPlaces): the same loop here.
    const queries = mode === 'naive' ? [naiveQuery(builder, box, limit)] : approvedPlacesQueries(builder, { bbox: box, limit }).map((q) => q.toSQL());
    let rows: Row[] = [];
    for (const query of queries) {
      // Unprepared, like Drizzle's postgres-js driver runs every query without a name.
      rows = (await client.unsafe(query.sql, query.params as postgres.ParameterOrJSON<never>[], { prepare: false }).values()) as unknown as Row[];
      if (rows.length > limit) break;
    }
    const items = rows.slice(0, limit).map((r) => ({
      _id: r[0], slug: r[1], name: r[2], type: r[3], veganLevel: r[4], address: r[5], hours: r[6], website: r[7], tags: r[8], photos: r[9],
      location: { lng: Number(r[10]), lat: Number(r[11]) }, status: r[12], createdAt: new Date(r[13]).toISOString(),
    }));
    const last = items[items.length - 1];
    return c.json({ items, nextCursor: rows.length > limit && last ? encodeCursor(last._id) : null });
  });
  return { app, close: () => client.end({ timeout: 5 }) };
}
