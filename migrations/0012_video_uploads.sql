CREATE TABLE "videos" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"title" text NOT NULL,
	"state" text DEFAULT 'uploading' NOT NULL,
	"max_bytes" bigint NOT NULL,
	"size_bytes" bigint,
	"upload_started_at" timestamp with time zone,
	"upload_token_hash" "bytea" NOT NULL,
	"upload_token_expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "videos_owner_id_idx" ON "videos" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "videos_upload_token_hash_key" ON "videos" USING btree ("upload_token_hash");--> statement-breakpoint
CREATE INDEX "videos_abandoned_idx" ON "videos" USING btree ("upload_token_expires_at") WHERE state = 'uploading';