CREATE TABLE "places" (
	"id" uuid PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"vegan_level" text NOT NULL,
	"address" text NOT NULL,
	"hours" text,
	"website" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"photos" text[] DEFAULT '{}'::text[] NOT NULL,
	"location" geometry(Point,4326) NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"submitter_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "places" ADD CONSTRAINT "places_submitter_id_users_id_fk" FOREIGN KEY ("submitter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "places_slug_key" ON "places" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "places_location_gist" ON "places" USING gist ("location");--> statement-breakpoint
CREATE INDEX "places_status_id_idx" ON "places" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "places_submitter_id_idx" ON "places" USING btree ("submitter_id");