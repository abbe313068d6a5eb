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
import { and, asc, fillPlaceholders, gt, sql, type Placeholder, type Query, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { preparedValueRows, type PreparedRows } from '../../../db/drizzle-internals.js';
import { PLACES_GRID, WGS84_SRID } from '../../../db/constants.js';
import { places, type PlaceStatus, type PlaceType, type VeganLevel } from '../../../db/schema/places.js';
import { type PlaceFields, placeColumns, ratingFields } from './place-row.js';
import type { BoundingBox } from './schemas.js';

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

/** A number bound now, or a placeholder bound when a prepared statement runs. */
type BoxValue = number | Placeholder;
interface BoxValues {
  west: BoxValue;
  south: BoxValue;
  east: BoxValue;
  north: BoxValue;
}

/** `location && box`; a box crossing the antimeridian (west > east) is two envelopes. */
export function bboxCondition(box: BoundingBox): SQL {
  return envelopeCondition(box, box.west > box.east);
}

function envelopeCondition(box: BoxValues, crossesAntimeridian: boolean): SQL {
  const envelope = (west: BoxValue, east: BoxValue) =>
    sql`${places.location} && ST_MakeEnvelope(${west}::float8, ${box.south}::float8, ${east}::float8, ${box.north}::float8, ${sql.raw(String(WGS84_SRID))})`;
  if (!crossesAntimeridian) return envelope(box.west, box.east);
  return sql`(${envelope(box.west, 180)} OR ${envelope(-180, box.east)})`;
}

/** "vegan caf" → 'vegan:* & caf:*'; only letters and digits reach to_tsquery, so it cannot fail. */
export function toPrefixTsquery(q: string): string | null {
  const words =
    q
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 10) ?? [];
  return words.length ? words.map((word) => `${word}:*`).join(' & ') : null;
}

export function searchCondition(q: string): SQL | undefined {
  const query = toPrefixTsquery(q);
  if (query === null) return undefined;
  return sql`places_search_document(${places.name}, ${places.address}, ${places.tags}) @@ to_tsquery('simple', ${query})`;
}

/**
 * Approved places matching the filters, in id order and already in the wire shape, `limit + 1`
 * of them so the caller can tell whether more exist.
 */
export async function listApprovedPlaces(db: DbOrTx, filters: PlaceListFilters): Promise<PlaceFields[]> {
  const statements = approvedPlacesStatements(filters);
  for (const [i, statement] of statements.entries()) {
    const rows = await executable(db, statement).execute(statement.values);
    // Only the answer is mapped, not a short first try.
    if (rows.length > filters.limit || i === statements.length - 1) return rows.map(placeFromValues);
  }
  return [];
}

/**
 * One statement of the list. Its SQL depends only on `shape` (the path taken and which filters
 * are present); the request's own values are bound to its placeholders. Bounding-box statements
 * are built once per shape and prepared on the server (`prepared`), so a request neither
 * rebuilds the SQL (60–100 µs of Node CPU) nor has PostgreSQL parse it again. Each of them has
 * one plan shape whatever the values, so a generic plan cannot go wrong (the tests also run them
 * under plan_cache_mode = force_generic_plan). Text search and unfiltered pages are built per
 * request and not prepared: their best plan depends on the values (how rare the words are).
 */
export interface PlaceListStatement {
  shape: string;
  prepared: boolean;
  build(db: DbOrTx): { toSQL(): Query };
  values: Record<string, unknown>;
}

type ListExecutable = PreparedRows<unknown[]>;
const preparedByDb = new WeakMap<DbOrTx, Map<string, ListExecutable>>();

/** The statement ready to run: prepared once per database handle and shape, or built now. */
function executable(db: DbOrTx, statement: PlaceListStatement): ListExecutable {
  if (!statement.prepared) return listQuery(db, statement.build(db).toSQL(), undefined);
  let cache = preparedByDb.get(db);
  if (!cache) {
    cache = new Map();
    preparedByDb.set(db, cache);
  }
  let prepared = cache.get(statement.shape);
  if (!prepared) {
    prepared = listQuery(db, statement.build(db).toSQL(), `places_list_${statement.shape}`);
    cache.set(statement.shape, prepared);
  }
  return prepared;
}

/**
 * A list statement whose rows come back as value arrays, for placeFromValues to put straight
 * into the wire shape instead of Drizzle's generic row mapping (~30 µs a page of 20,
 * bench/README.md). A name makes it a server-side prepared statement.
 */
function listQuery(db: DbOrTx, query: Query, name: string | undefined): ListExecutable {
  return preparedValueRows(db, query, name);
}

/** Where each placeColumns field sits in a result row (Drizzle selects them in key order). */
const at = Object.fromEntries(Object.keys(placeColumns).map((key, i) => [key, i])) as Record<
  keyof typeof placeColumns,
  number
>;

/**
 * One row of placeColumns values as the API returns it. Like toPlace() (service.ts) it copies
 * only public fields. Both drivers leave timestamps as PostgreSQL's text under Drizzle
 * ("2025-05-01 10:00:00.123+00"), which Date parses.
 */
function placeFromValues(row: unknown[]): PlaceFields {
  return {
    _id: row[at.id] as string,
    slug: row[at.slug] as string,
    name: row[at.name] as string,
    type: row[at.type] as PlaceType,
    veganLevel: row[at.veganLevel] as VeganLevel,
    address: row[at.address] as string,
    hours: row[at.hours] as string | null,
    website: row[at.website] as string,
    tags: row[at.tags] as string[],
    photos: row[at.photos] as string[],
    location: { lng: Number(row[at.lng]), lat: Number(row[at.lat]) },
    status: row[at.status] as PlaceStatus,
    createdAt: new Date(row[at.createdAt] as string | Date).toISOString(),
    ...ratingFields(Number(row[at.reviewCount]), Number(row[at.ratingSum])),
  };
}

/** Placeholders of the bounding-box statements; `values` below fills them. */
const bound = {
  west: sql.placeholder('west'),
  south: sql.placeholder('south'),
  east: sql.placeholder('east'),
  north: sql.placeholder('north'),
  type: sql.placeholder('type'),
  veganLevel: sql.placeholder('veganLevel'),
  after: sql.placeholder('after'),
  cells: sql.placeholder('cells'),
  pageSize: sql.placeholder('pageSize'),
};

/** Which optional parts a bounding-box statement has; each combination is one SQL text. */
interface BoxShape {
  crossesAntimeridian: boolean;
  type: boolean;
  veganLevel: boolean;
  after: boolean;
}

/**
 * The statements behind listApprovedPlaces, to run in order until one returns a full page
 * (`limit + 1` rows); the last one's answer is exact whatever it holds. Mostly just one.
 */
export function approvedPlacesStatements(filters: PlaceListFilters): PlaceListStatement[] {
  const { bbox } = filters;
  // No box, or text search (its GIN index is the selective one): one plain statement.
  if (!bbox || filters.q) {
    const where = and(
      // A literal, not a parameter, so the planner can match partial indexes on status.
      sql`${places.status} = 'approved'`,
      bbox ? bboxCondition(bbox) : undefined,
      filters.type ? sql`${places.type} = ${filters.type}` : undefined,
      filters.veganLevel ? sql`${places.veganLevel} = ${filters.veganLevel}` : undefined,
      filters.q ? searchCondition(filters.q) : undefined,
      filters.after ? gt(places.id, filters.after) : undefined,
    )!;
    return [
      {
        shape: 'plain',
        prepared: false,
        values: {},
        build: (db) =>
          db
            .select(placeColumns)
            .from(places)
            .where(where)
            .orderBy(asc(places.id))
            .limit(filters.limit + 1),
      },
    ];
  }
  const shape: BoxShape = {
    crossesAntimeridian: bbox.west > bbox.east,
    type: !!filters.type,
    veganLevel: !!filters.veganLevel,
    after: !!filters.after,
  };
  const flags = `${+shape.crossesAntimeridian}${+shape.type}${+shape.veganLevel}${+shape.after}`;
  const values: Record<string, unknown> = { ...bbox, pageSize: filters.limit + 1 };
  if (filters.type) values.type = filters.type;
  if (filters.veganLevel) values.veganLevel = filters.veganLevel;
  if (filters.after) values.after = filters.after;
  // The page's ids come from index-only scans, then only those rows are read. `= any(array(…))`
  // computes the ids once and fetches them by primary key; it plans faster than `in (…)`.
  const byIds = (db: DbOrTx, ids: SQL) =>
    db.select(placeColumns).from(places).where(sql`${places.id} = any(array(${ids}))`).orderBy(asc(places.id));
  const cells = coveredCells(bbox);
  if (cells)
    return [
      {
        shape: `cells_${flags}`,
        prepared: true,
        values: { ...values, cells: `{${cells.join(',')}}` },
        build: (db) => byIds(db, smallBoxPageIds(shape)),
      },
    ];
  return [
    { shape: `walk_${flags}`, prepared: true, values, build: (db) => byIds(db, walkPageIds(shape)) },
    { shape: `search_${flags}`, prepared: true, values, build: (db) => byIds(db, searchPageIds(shape)) },
  ];
}

/** A statement's SQL with the request's values in its parameters (for bench/ and EXPLAIN in tests). */
export function statementSql(db: DbOrTx, statement: PlaceListStatement): Query {
  const query = statement.build(db).toSQL();
  return { sql: query.sql, params: fillPlaceholders(query.params, statement.values) };
}

// ---- Bounding-box pages ------------------------------------------------------------------------
// "Approved places in a box, in id order, one page" is the expensive query: with 1,000,000 places
// a city box holds thousands of them, and GiST + sort by id reads every one from the heap.
// Instead, the page's ids come from index-only scans that stop early, in one of two shapes:

/** Grid of places_cell(location, 0.25) (see the bbox migration). */
export const CELL_DEGREES = PLACES_GRID.cellDegrees;
/** A box covering more cells than this is a large box. A 0.2° city box covers at most 4. */
export const MAX_CELLS = 16;
/**
 * Approved rows a large-box page walks in id order before it falls back to the GiST search:
 * sqrt(16 × table rows) from the planner's row count, within 4096..16384. A walk that long finds
 * a page when the box holds more than about 21 / budget of all places; a box with fewer is cheap
 * to search with GiST. Below 4096 the second statement costs more than the rows it saves.
 */
const WALK_BUDGET = sql.raw(
  `(select least(16384, greatest(4096, sqrt(greatest(reltuples, 0) * 16)))::bigint from pg_class where oid = 'places'::regclass)`,
);
/** Cells cover the box plus this margin: `&&` compares float4-rounded boxes, a hair wider. */
const CELL_MARGIN = 1e-4;

/** The places_cell numbers of the cells a box touches, or null when there are more than MAX_CELLS. */
export function coveredCells(box: BoundingBox): number[] | null {
  const index = (degrees: number, offset: number) => Math.floor((degrees + offset) / CELL_DEGREES);
  const firstRow = index(Math.max(-90, box.south - CELL_MARGIN), 90);
  const lastRow = index(Math.min(90, box.north + CELL_MARGIN), 90);
  const spans =
    box.west <= box.east ? [[box.west, box.east] as const] : [[box.west, 180] as const, [-180, box.east] as const];
  const columnRanges = spans.map(
    ([west, east]) =>
      [index(Math.max(-180, west - CELL_MARGIN), 180), index(Math.min(180, east + CELL_MARGIN), 180)] as const,
  );
  // Counted before listing, so a continent box does not enumerate hundreds of cells to find it is large.
  const width = columnRanges.reduce((sum, [first, last]) => sum + last - first + 1, 0);
  if ((lastRow - firstRow + 1) * width > MAX_CELLS) return null;
  const columns = new Set<number>();
  for (const [first, last] of columnRanges) for (let column = first; column <= last; column++) columns.add(column);
  const cells: number[] = [];
  for (let row = firstRow; row <= lastRow; row++)
    for (const column of columns) cells.push(row * PLACES_GRID.rowStride + column);
  return cells;
}

/** `location && box` with the box as placeholders (`west`, `south`, `east`, `north`). */
export function placeholderBoxCondition(crossesAntimeridian: boolean): SQL {
  return envelopeCondition(bound, crossesAntimeridian);
}

/** The box and the optional filters of a bounding-box statement, as placeholders. */
function boxConditions(shape: BoxShape) {
  return {
    box: placeholderBoxCondition(shape.crossesAntimeridian),
    type: shape.type ? sql`${places.type} = ${bound.type}` : undefined,
    veganLevel: shape.veganLevel ? sql`${places.veganLevel} = ${bound.veganLevel}` : undefined,
    after: shape.after ? gt(places.id, bound.after) : undefined,
  };
}

/**
 * Small box: for each covered cell, its first page of matches in id order (index-only on
 * places_bbox_cell_idx, which is in id order within a cell), then the first page of those.
 * About one page per cell is read, however many places the box holds. The cells travel as one
 * array parameter, so every small box of a shape shares one statement. The box test sits in
 * coalesce() so the planner neither picks GiST here nor trusts PostGIS's row estimate (far too
 * low for clustered points).
 */
function smallBoxPageIds(shape: BoxShape): SQL {
  const conditions = boxConditions(shape);
  const extra = and(conditions.type, conditions.veganLevel, conditions.after);
  return sql`select page.id from unnest(${bound.cells}::integer[]) as cell(n)
    cross join lateral (
      select ${places.id} from ${places} where ${places.status} = 'approved'
        and places_cell(${places.location}, ${sql.raw(String(CELL_DEGREES))}::float8) = cell.n
        and coalesce(${conditions.box}, false)${extra ? sql` and ${extra}` : sql``}
      order by ${places.id} limit ${bound.pageSize}
    ) page
    order by page.id limit ${bound.pageSize}`;
}

/**
 * Large box, first: the first WALK_BUDGET approved ids after the cursor, in id order, filtered by
 * the box (index-only on places_approved_id_cover). A full page from it is exact, since nothing
 * earlier in id order was skipped; it is quick exactly when the box is dense, which large boxes
 * mostly are. The walk carries only the columns the filters read (index-only without type/veganLevel).
 */
function walkPageIds(shape: BoxShape): SQL {
  const conditions = boxConditions(shape);
  const walkColumns = [sql`${places.id}`, sql`${places.location}`];
  if (shape.type) walkColumns.push(sql`${places.type}`);
  if (shape.veganLevel) walkColumns.push(sql`${places.veganLevel}`);
  const after = conditions.after ? sql` and ${conditions.after}` : sql``;
  return sql`select ${places.id} from (
      select ${sql.join(walkColumns, sql`, `)} from ${places}
      where ${places.status} = 'approved'${after} order by ${places.id} limit ${WALK_BUDGET}
    ) ${places} where ${and(conditions.box, conditions.type, conditions.veganLevel)} order by ${places.id} limit ${bound.pageSize}`;
}

/**
 * Large box, when the walk came up short (so the box holds few places): every match from GiST
 * (index-only on places_bbox_cover), top-N by id. `offset 0` keeps the planner from walking the
 * id order again: it would whenever PostGIS overestimates the box, and read the whole table for
 * a handful of rows.
 */
function searchPageIds(shape: BoxShape): SQL {
  const conditions = boxConditions(shape);
  const where = and(
    sql`${places.status} = 'approved'`,
    conditions.box,
    conditions.type,
    conditions.veganLevel,
    conditions.after,
  );
  return sql`select id from (select ${places.id} from ${places} where ${where} offset 0) matches order by id limit ${bound.pageSize}`;
}
