-- `q` on GET /api/events (server/domains/events/search.ts): text search over an event's title
-- and description, word prefixes, 'simple' config (no stemming; identical on PGlite and
-- PostgreSQL), like places. The document is a stored generated column, not an expression: a
-- list walking start-time order (a common word) tests it per row for ~1 µs instead of running
-- to_tsvector again (~40 µs a row, measured: bench/README.md); a rare word reads the GIN index.
-- It is not in db/schema (nothing selects it; Drizzle's `select events.*` stays as it was).
-- Additive: older servers never name the column, PostgreSQL fills it on every write.
ALTER TABLE "events" ADD COLUMN "search_document" tsvector
  GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, coalesce("title", '') || ' ' || coalesce("description", ''))) STORED;
--> statement-breakpoint
CREATE INDEX "events_search_gin" ON "events" USING gin ("search_document");
--> statement-breakpoint
-- The two btree indexes serve `area` with `from` (db/schema/events.ts).
CREATE INDEX "events_area_starts_at_idx" ON "events" USING btree (lower("area"),"starts_at","id");--> statement-breakpoint
CREATE INDEX "events_host_grove_starts_at_idx" ON "events" USING btree ("host_grove_id","starts_at","id");