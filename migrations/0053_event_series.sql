CREATE TABLE "event_series" (
	"id" uuid PRIMARY KEY NOT NULL,
	"rule" text NOT NULL,
	"time_zone" text NOT NULL,
	"start_wall" text NOT NULL,
	"duration_seconds" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "series_id" uuid;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "occurrence_wall" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "series_overridden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_series_id_event_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."event_series"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_series_starts_at_idx" ON "events" USING btree ("series_id","starts_at","id") WHERE "events"."series_id" is not null;