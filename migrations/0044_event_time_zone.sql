ALTER TABLE "events" ADD COLUMN "time_zone" text;--> statement-breakpoint
CREATE INDEX "events_time_zone_missing_idx" ON "events" USING btree ("id") WHERE "events"."time_zone" is null;