// Numbers the schema, the migrations' SQL and the code must agree on. Migrations are SQL files
// (generated or custom) and cannot import these, so each names the migration that spells it;
// tests/foundation/db-constants.test.ts checks the database still agrees.

/** Spatial reference of every geometry column: WGS 84 longitude/latitude (geometry(Point,4326)). */
export const WGS84_SRID = 4326;

/**
 * The place grid of migrations/0005_places_bbox_index.sql: places_cell(location, size) numbers
 * `size`-degree squares row * 4000 + column, and places_bbox_cell_idx is built with size 0.25.
 * The list query (server/domains/places/list-query.ts) computes the same cell numbers.
 */
export const PLACES_GRID = {
  cellDegrees: 0.25,
  rowStride: 4000,
} as const;
