CREATE TABLE "post_tags" (
	"tag" text NOT NULL,
	"post_id" uuid NOT NULL,
	CONSTRAINT "post_tags_tag_post_id_pk" PRIMARY KEY("tag","post_id")
);
--> statement-breakpoint
ALTER TABLE "post_tags" ADD CONSTRAINT "post_tags_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_tags_post_id_idx" ON "post_tags" USING btree ("post_id");