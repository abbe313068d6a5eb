CREATE INDEX "events_starts_at_id_idx" ON "events" USING btree ("starts_at","id");--> statement-breakpoint
CREATE INDEX "events_duration_idx" ON "events" USING btree (("ends_at" - "starts_at"));