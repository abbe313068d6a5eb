-- Text search over a place's name, address and tags. array_to_string is only STABLE in
-- general, but for text[] it is immutable, so this wrapper may be declared IMMUTABLE and
-- indexed. 'simple' config: no stemming, identical on PGlite and PostgreSQL 15.
-- COST 5000 tells the planner that recomputing the document per row is expensive, so a
-- selective `q` uses the GIN index instead of filtering rows walked in id order.
CREATE FUNCTION places_search_document(name text, address text, tags text[]) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 5000
  AS $$ SELECT to_tsvector('simple'::regconfig, coalesce(name, '') || ' ' || coalesce(address, '') || ' ' || coalesce(array_to_string(tags, ' '), '')) $$;
--> statement-breakpoint
CREATE INDEX places_search_gin ON places USING gin (places_search_document(name, address, tags));
