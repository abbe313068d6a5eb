// The bare baseline: Hono + postgres.js, no tRPC, no OpenAPI adapter, no zod, no middleware.
// It answers `GET /api/places?bbox=w,s,e,n[&limit=n]` with the same JSON as the real API.
//
// mode 'design': the statements the API runs, taken from approvedPlacesStatements(...) (SQL text
//   built once per shape with toSQL(), so the two can never drift), executed with postgres.js
//   exactly as Drizzle executes them: prepared on the server where the API prepares them.
// mode 'naive': the original query (GiST `&&` + ORDER BY id LIMIT), the "before" of the index
//   work, also built once per shape (Drizzle placeholders) and run unprepared, as the API ran it:
//   prepared, its generic plan would be one plan for city and continent boxes alike.
// mode 'naive-prepared': the naive statements prepared like the design's, to show what that does
//   to them (servers.ts uses it when BENCH_NAIVE_PREPARED=1).
import { Hono } from 'hono';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import * as schema from '../../db/schema/index.js';
import { and, asc, fillPlaceholders, sql } from 'drizzle-orm';
import { places } from '../../db/schema/places.js';
import {
  approvedPlacesStatements,
  placeholderBoxCondition,
  type PlaceListStatement,
} from '../../server/domains/places/list-query.js';
import { placeColumns } from '../../server/domains/places/place-row.js';
import type { DbOrTx } from '../../db/client.js';
import type { BoundingBox } from '../../server/domains/places/schemas.js';
import { encodeCursor } from '../../server/lib/pagination.js';
import { imageRefUrl } from '../../server/domains/uploads/image-refs.js';
import { imageOutputsFor } from '../../server/domains/uploads/image-output.js';

export type BareMode = 'design' | 'naive' | 'naive-prepared';

/**
 * The list query as first written (before the bbox migration): `location && box`, approved,
 * ORDER BY id LIMIT n; the planner picks a GiST bitmap scan + sort, or walks the primary key.
 * A statement with placeholders for the box and the page size, in two shapes (antimeridian or not).
 */
export function naiveStatement(box: BoundingBox, limit: number, prepared: boolean): PlaceListStatement {
  const crossesAntimeridian = box.west > box.east;
  return {
    shape: `naive_${+crossesAntimeridian}`,
    prepared,
    values: { ...box, pageSize: limit + 1 },
    build: (db) =>
      db
        .select(placeColumns)
        .from(places)
        .where(and(sql`${places.status} = 'approved'`, placeholderBoxCondition(crossesAntimeridian)))
        .orderBy(asc(places.id))
        .limit(sql.placeholder('pageSize')),
  };
}

function parseBox(value: string | undefined): BoundingBox | null {
  const parts = (value ?? '').split(',').map(Number);
  if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n))) return null;
  const [west, south, east, north] = parts as [number, number, number, number];
  return { west, south, east, north };
}

type Row = [
  string,
  string,
  string,
  string,
  string,
  string,
  string | null,
  string,
  string[],
  string[],
  number,
  number,
  string,
  Date,
  number,
  number,
];

/**
 * `publicUrl` must be the API's PUBLIC_URL: an uploaded photo's URL is built from it, as the API
 * builds `photoUrls` (withPhotoUrls in server/domains/places/service.ts).
 */
export function createBareApp(url: string, mode: BareMode, publicUrl: string, poolMax = 10) {
  const config = { PUBLIC_URL: publicUrl };
  const client = postgres(url, { max: poolMax, onnotice: () => {} });
  // Drizzle is used only to build the design SQL text; it never touches this client's parsers.
  const builder = drizzle.mock({ schema, casing: 'snake_case' });
  const app = new Hono();
  // SQL text and placeholder params per statement shape, built on first use.
  const templates = new Map<string, { sql: string; params: unknown[] }>();
  const template = (shape: string, build: () => { sql: string; params: unknown[] }) => {
    let found = templates.get(shape);
    if (!found) {
      found = build();
      templates.set(shape, found);
    }
    return found;
  };
  app.get('/api/places', async (c) => {
    const box = parseBox(c.req.query('bbox'));
    if (!box) return c.json({ error: { code: 'validation_failed', message: 'bbox' } }, 400);
    const limit = Math.min(100, Math.max(1, Number(c.req.query('limit') ?? 20) || 20));
    // The design may need a second statement (see listApprovedPlaces): the same loop here.
    const statements =
      mode !== 'design'
        ? [naiveStatement(box, limit, mode === 'naive-prepared')]
        : approvedPlacesStatements({ bbox: box, limit });
    let rows: Row[] = [];
    for (const statement of statements) {
      const query = template(statement.shape, () => statement.build(builder as unknown as DbOrTx).toSQL());
      const params = fillPlaceholders(query.params, statement.values) as postgres.ParameterOrJSON<never>[];
      rows = (await client.unsafe(query.sql, params, { prepare: statement.prepared }).values()) as unknown as Row[];
      if (rows.length > limit) break;
    }
    const items = rows.slice(0, limit).map((r) => ({
      _id: r[0],
      slug: r[1],
      name: r[2],
      type: r[3],
      veganLevel: r[4],
      address: r[5],
      hours: r[6],
      website: r[7],
      tags: r[8],
      photos: r[9],
      // In the output schema's field order (the API's output validation writes fields in it).
      photoUrls: r[9].flatMap((ref) => imageRefUrl(config, ref) ?? []),
      // The bench's photos are https addresses: no upload details to look up (the API skips the query too).
      photoImages: imageOutputsFor(config, r[9], new Map()),
      location: { lng: Number(r[10]), lat: Number(r[11]) },
      status: r[12],
      createdAt: new Date(r[13]).toISOString(),
      averageRating: r[14] > 0 ? Math.round((r[15] / r[14]) * 100) / 100 : null,
      reviewCount: r[14],
    }));
    const last = items[items.length - 1];
    return c.json({ items, nextCursor: rows.length > limit && last ? encodeCursor(last._id) : null });
  });
  return { app, close: () => client.end({ timeout: 5 }) };
}
