-- `q` on GET /api/events (server/domains/events/search.ts): text search over an event's title
-- and description, like places_search_document (0003_places_search): 'simple' config, no
-- stemming, identical on PGlite and PostgreSQL; COST 5000 so a selective `q` reads the GIN
-- index instead of recomputing the document for every row walked in start-time order.
-- Additive only (a function and an index): older servers ignore both.
CREATE FUNCTION events_search_document(title text, description text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 5000
  AS $$ SELECT to_tsvector('simple'::regconfig, coalesce(title, '') || ' ' || coalesce(description, '')) $$;
--> statement-breakpoint
CREATE INDEX events_search_gin ON events USING gin (events_search_document(title, description));
