CREATE TABLE "image_uploads" (
	"key" text PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"content_type" text NOT NULL,
	"content_length" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attached_at" timestamp with time zone,
	"clean_content_type" text
);
--> statement-breakpoint
ALTER TABLE "image_uploads" ADD CONSTRAINT "image_uploads_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "image_uploads_owner_id_idx" ON "image_uploads" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "image_uploads_unattached_idx" ON "image_uploads" USING btree ("created_at") WHERE attached_at is null;