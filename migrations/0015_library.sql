CREATE TABLE "guide_categories" (
	"id" uuid PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "guides" (
	"id" uuid PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"category_id" uuid NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"body" text NOT NULL,
	"body_html" text NOT NULL,
	"render_version" integer NOT NULL,
	"reading_minutes" integer NOT NULL,
	"cover_image" text,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"year" integer,
	"synopsis" text DEFAULT '' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"poster" text,
	"watch_links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"trailer_provider" text,
	"trailer_video_id" text,
	"featured" boolean DEFAULT false NOT NULL,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_document" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "media_items"."title" || ' ' || "media_items"."synopsis")) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watchlist_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"media_item_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "guides" ADD CONSTRAINT "guides_category_id_guide_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."guide_categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watchlist_entries" ADD CONSTRAINT "watchlist_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watchlist_entries" ADD CONSTRAINT "watchlist_entries_media_item_id_media_items_id_fk" FOREIGN KEY ("media_item_id") REFERENCES "public"."media_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "guide_categories_slug_key" ON "guide_categories" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "guides_slug_key" ON "guides" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "guides_category_id_idx" ON "guides" USING btree ("category_id","id");--> statement-breakpoint
CREATE INDEX "guides_published_id_idx" ON "guides" USING btree ("id") WHERE "guides"."published_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "media_items_slug_key" ON "media_items" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "media_items_published_order_idx" ON "media_items" USING btree ("featured","id") WHERE "media_items"."published_at" is not null;--> statement-breakpoint
CREATE INDEX "media_items_published_id_idx" ON "media_items" USING btree ("id") WHERE "media_items"."published_at" is not null;--> statement-breakpoint
CREATE INDEX "media_items_tags_gin" ON "media_items" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "media_items_search_gin" ON "media_items" USING gin ("search_document");--> statement-breakpoint
CREATE UNIQUE INDEX "watchlist_entries_user_media_key" ON "watchlist_entries" USING btree ("user_id","media_item_id");--> statement-breakpoint
CREATE INDEX "watchlist_entries_user_id_idx" ON "watchlist_entries" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "watchlist_entries_media_item_id_idx" ON "watchlist_entries" USING btree ("media_item_id");