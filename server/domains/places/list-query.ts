// The public place list query, in one place: the bounding-box / filter / text-search SQL that
// the benchmark tunes indexes for. It reads approved places only, in `_id` order after a cursor.
//
// Indexes it relies on (db/schema/places.ts, migrations/*_places_search.sql, *_places_bbox_index.sql):
//   places_status_id_idx      btree (status, id)              unfiltered pages in id order
//   places_search_gin         GIN (places_search_document(…))  for `q`
//   places_bbox_cell_idx      btree (places_cell(location, 0.25), id) INCLUDE (location), approved only
//   places_approved_id_cover  btree (id) INCLUDE (location), approved only
//   places_bbox_cover         GiST (location) INCLUDE (id, location), approved only
// A bbox page picks its ids from the last three with index-only scans, then reads just those
// rows; bench/README.md has the measurements and what lost.
import { and, asc, gt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { places, type PlaceStatus, type PlaceType, type VeganLevel } from '../../../db/schema/places.js';
import type { BoundingBox } from './schemas.js';

/** Every column a response needs; the location comes out as numbers, never as raw geometry. */
export const placeColumns = {
  id: places.id,
  slug: places.slug,
  name: places.name,
  type: places.type,
  veganLevel: places.veganLevel,
  address: places.address,
  hours: places.hours,
  website: places.website,
  tags: places.tags,
  photos: places.photos,
  lng: sql<number>`ST_X(${places.location})`.mapWith(Number),
  lat: sql<number>`ST_Y(${places.location})`.mapWith(Number),
  status: places.status,
  createdAt: places.createdAt,
};

/** One place row as every place query returns it (service.ts turns it into the wire shape). */
export interface PlaceRow {
  id: string;
  slug: string;
  name: string;
  type: PlaceType;
  veganLevel: VeganLevel;
  address: string;
  hours: string | null;
  website: string;
  tags: string[];
  photos: string[];
  lng: number;
  lat: number;
  status: PlaceStatus;
  createdAt: Date;
}

export interface PlaceListFilters {
  bbox?: BoundingBox;
  type?: PlaceType;
  veganLevel?: VeganLevel;
  /** Raw search text; turned into a prefix tsquery here. */
  q?: string;
  /** Last `_id` of the previous page. */
  after?: string;
  limit: number;
}

/** `location && box`; a box crossing the antimeridian (west > east) is two envelopes. */
export function bboxCondition(box: BoundingBox): SQL {
  const envelope = (west: number, east: number) => sql`${places.location} && ST_MakeEnvelope(${west}::float8, ${box.south}::float8, ${east}::float8, ${box.north}::float8, 4326)`;
  if (box.west <= box.east) return envelope(box.west, box.east);
  return sql`(${envelope(box.west, 180)} OR ${envelope(-180, box.east)})`;
}

/** "vegan caf" → 'vegan:* & caf:*'; only letters and digits reach to_tsquery, so it cannot fail. */
export function toPrefixTsquery(q: string): string | null {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu)?.slice(0, 10) ?? [];
  return words.length ? words.map((word) => `${word}:*`).join(' & ') : null;
}

export function searchCondition(q: string): SQL | undefined {
  const query = toPrefixTsquery(q);
  if (query === null) return undefined;
  return sql`places_search_document(${places.name}, ${places.address}, ${places.tags}) @@ to_tsquery('simple', ${query})`;
}

/** Approved places matching the filters, in id order, `limit + 1` rows so the caller can tell if more exist. */
export async function listApprovedPlaces(db: DbOrTx, filters: PlaceListFilters): Promise<PlaceRow[]> {
  const queries = approvedPlacesQueries(db, filters);
  for (const [i, query] of queries.entries()) {
    const rows = await query;
    if (rows.length > filters.limit || i === queries.length - 1) return rows;
  }
  return [];
}

/** A statement of the list; bench/ reads its SQL with toSQL() and runs it outside Drizzle. */
export type PlaceListQuery = PromiseLike<PlaceRow[]> & { toSQL(): { sql: string; params: unknown[] } };

/**
 * The statements behind listApprovedPlaces, to run in order until one returns a full page
 * (`limit + 1` rows); the last one's answer is exact whatever it holds. Mostly just one.
 */
export function approvedPlacesQueries(db: DbOrTx, filters: PlaceListFilters): PlaceListQuery[] {
  const filterConditions = [
    filters.bbox ? bboxCondition(filters.bbox) : undefined,
    filters.type ? sql`${places.type} = ${filters.type}` : undefined,
    filters.veganLevel ? sql`${places.veganLevel} = ${filters.veganLevel}` : undefined,
    filters.q ? searchCondition(filters.q) : undefined,
  ];
  const where = and(
    // A literal, not a parameter, so the planner can match partial indexes on status.
    sql`${places.status} = 'approved'`,
    ...filterConditions,
    filters.after ? gt(places.id, filters.after) : undefined,
  )!;
  // No box, or text search (its GIN index is the selective one): one plain statement.
  if (!filters.bbox || filters.q) return [db.select(placeColumns).from(places).where(where).orderBy(asc(places.id)).limit(filters.limit + 1)];
  // Otherwise the page's ids come from index-only scans, then only those rows are read. `= any(array(…))`
  // computes the ids once and fetches them by primary key; it plans faster than `in (…)`.
  const byIds = (ids: SQL) => db.select(placeColumns).from(places).where(sql`${places.id} = any(array(${ids}))`).orderBy(asc(places.id));
  const cells = coveredCells(filters.bbox);
  if (cells) return [byIds(smallBoxPageIds(filters, cells))];
  return [byIds(walkPageIds(filters, and(...filterConditions)!)), byIds(searchPageIds(filters, where))];
}

// ---- Bounding-box pages ------------------------------------------------------------------------
// "Approved places in a box, in id order, one page" is the expensive query: with 1,000,000 places
// a city box holds thousands of them, and GiST + sort by id reads every one from the heap.
// Instead, the page's ids come from index-only scans that stop early, in one of two shapes:

/** Grid of places_cell(location, 0.25) (see the bbox migration). */
export const CELL_DEGREES = 0.25;
/** A box covering more cells than this is a large box. A 0.2° city box covers at most 4. */
export const MAX_CELLS = 16;
/**
 * Approved rows a large-box page walks in id order before it falls back to the GiST search:
 * sqrt(16 × table rows) from the planner's row count, within 4096..16384. A walk that long finds
 * a page when the box holds more than about 21 / budget of all places; a box with fewer is cheap
 * to search with GiST. Below 4096 the second statement costs more than the rows it saves.
 */
const WALK_BUDGET = sql.raw(`(select least(16384, greatest(4096, sqrt(greatest(reltuples, 0) * 16)))::bigint from pg_class where oid = 'places'::regclass)`);
/** Cells cover the box plus this margin: `&&` compares float4-rounded boxes, a hair wider. */
const CELL_MARGIN = 1e-4;

/** The places_cell numbers of the cells a box touches, or null when there are more than MAX_CELLS. */
export function coveredCells(box: BoundingBox): number[] | null {
  const index = (degrees: number, offset: number) => Math.floor((degrees + offset) / CELL_DEGREES);
  const firstRow = index(Math.max(-90, box.south - CELL_MARGIN), 90);
  const lastRow = index(Math.min(90, box.north + CELL_MARGIN), 90);
  const spans = box.west <= box.east ? [[box.west, box.east] as const] : [[box.west, 180] as const, [-180, box.east] as const];
  const columns = new Set<number>();
  for (const [west, east] of spans) {
    const last = index(Math.min(180, east + CELL_MARGIN), 180);
    for (let column = index(Math.max(-180, west - CELL_MARGIN), 180); column <= last; column++) columns.add(column);
  }
  if ((lastRow - firstRow + 1) * columns.size > MAX_CELLS) return null;
  const cells: number[] = [];
  for (let row = firstRow; row <= lastRow; row++) for (const column of columns) cells.push(row * 4000 + column);
  return cells;
}

/**
 * Small box: for each covered cell, its first page of matches in id order (index-only on
 * places_bbox_cell_idx, which is in id order within a cell), then the first page of those.
 * About one page per cell is read, however many places the box holds. The cells travel as one
 * array parameter, so every small box shares one statement text (and its prepared plan). The box
 * test sits in coalesce() so the planner neither picks GiST here nor trusts PostGIS's row
 * estimate (far too low for clustered points).
 */
function smallBoxPageIds(filters: PlaceListFilters, cells: number[]): SQL {
  const n = filters.limit + 1;
  const extra = and(
    filters.type ? sql`${places.type} = ${filters.type}` : undefined,
    filters.veganLevel ? sql`${places.veganLevel} = ${filters.veganLevel}` : undefined,
    filters.after ? gt(places.id, filters.after) : undefined,
  );
  return sql`select page.id from unnest(${`{${cells.join(',')}}`}::integer[]) as cell(n)
    cross join lateral (
      select ${places.id} from ${places} where ${places.status} = 'approved'
        and places_cell(${places.location}, ${sql.raw(String(CELL_DEGREES))}::float8) = cell.n
        and coalesce(${bboxCondition(filters.bbox!)}, false)${extra ? sql` and ${extra}` : sql``}
      order by ${places.id} limit ${n}
    ) page
    order by page.id limit ${n}`;
}

/**
 * Large box, first: the first WALK_BUDGET approved ids after the cursor, in id order, filtered by
 * the box (index-only on places_approved_id_cover). A full page from it is exact, since nothing
 * earlier in id order was skipped; it is quick exactly when the box is dense, which large boxes
 * mostly are. The walk carries only the columns the filters read (index-only without type/veganLevel).
 */
function walkPageIds(filters: PlaceListFilters, boxAndFilters: SQL): SQL {
  const walkColumns = [sql`${places.id}`, sql`${places.location}`];
  if (filters.type) walkColumns.push(sql`${places.type}`);
  if (filters.veganLevel) walkColumns.push(sql`${places.veganLevel}`);
  const after = filters.after ? sql` and ${gt(places.id, filters.after)}` : sql``;
  return sql`select ${places.id} from (
      select ${sql.join(walkColumns, sql`, `)} from ${places}
      where ${places.status} = 'approved'${after} order by ${places.id} limit ${WALK_BUDGET}
    ) ${places} where ${boxAndFilters} order by ${places.id} limit ${filters.limit + 1}`;
}

/**
 * Large box, when the walk came up short (so the box holds few places): every match from GiST
 * (index-only on places_bbox_cover), top-N by id. `offset 0` keeps the planner from walking the
 * id order again: it would whenever PostGIS overestimates the box, and read the whole table for
 * a handful of rows.
 */
function searchPageIds(filters: PlaceListFilters, where: SQL): SQL {
  return sql`select id from (select ${places.id} from ${places} where ${where} offset 0) matches order by id limit ${filters.limit + 1}`;
}
