-- Indexes for "approved places in a bounding box, in id order, one page" (GET /api/places?bbox=),
-- used by server/domains/places/list-query.ts; measured in bench/README.md. All are partial
-- (approved only) and covering (they carry the location), so the page's ids come from
-- index-only scans and only the page's own rows are read from the heap.

-- Grid cell of a point: rows and columns of `size`-degree squares, numbered row * 4000 + column.
-- The list query computes the same numbers for the cells a box covers. PostGIS functions are
-- schema-qualified: PostgreSQL 17+ builds indexes with search_path = pg_catalog, pg_temp (and a
-- SET search_path clause would stop the function from being inlined).
CREATE FUNCTION places_cell(location geometry, size float8) RETURNS integer
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT (floor((public.ST_Y(location) + 90) / size)::integer * 4000 + floor((public.ST_X(location) + 180) / size)::integer) $$;
--> statement-breakpoint
-- Small boxes: per 0.25° cell, the ids in order. A page merges the few covered cells by id and
-- stops after one page per cell, whatever the density of the box.
CREATE INDEX places_bbox_cell_idx ON places USING btree (places_cell(location, 0.25::float8), id) INCLUDE (location) WHERE status = 'approved';
--> statement-breakpoint
-- Large boxes, dense: walk the ids in order and filter by the box until a page is full.
CREATE INDEX places_approved_id_cover ON places USING btree (id) INCLUDE (location) WHERE status = 'approved';
--> statement-breakpoint
-- Large boxes, sparse (the walk came up short): every match from GiST, then top-N by id.
-- `location` is INCLUDEd as well as indexed because PostGIS's GiST opclass cannot return its
-- key, and PostgreSQL plans an index-only scan only when every column read is returnable.
CREATE INDEX places_bbox_cover ON places USING gist (location) INCLUDE (id, location) WHERE status = 'approved';
