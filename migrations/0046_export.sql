CREATE TABLE "data_exports" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"downloaded_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"archive" "bytea",
	"archive_bytes" integer,
	"file_count" integer,
	"token_hash" "bytea",
	CONSTRAINT "data_exports_archive_only_when_ready" CHECK ("data_exports"."archive" is null or "data_exports"."status" = 'ready')
);
--> statement-breakpoint
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_exports_queued_idx" ON "data_exports" USING btree ("requested_at") WHERE "data_exports"."status" in ('queued', 'building');--> statement-breakpoint
CREATE INDEX "data_exports_expires_at_idx" ON "data_exports" USING btree ("expires_at") WHERE "data_exports"."archive" is not null;