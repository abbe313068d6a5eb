CREATE TABLE "place_list_items" (
	"list_id" uuid NOT NULL,
	"place_id" uuid NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "place_list_items_list_id_place_id_pk" PRIMARY KEY("list_id","place_id")
);
--> statement-breakpoint
CREATE TABLE "place_lists" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"is_public" boolean DEFAULT false NOT NULL,
	"show_handle" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "place_reviews" (
	"id" uuid PRIMARY KEY NOT NULL,
	"place_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"rating" smallint NOT NULL,
	"text" text NOT NULL,
	"month_visited" text,
	"show_handle" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone,
	CONSTRAINT "place_reviews_rating_range" CHECK ("place_reviews"."rating" between 1 and 5),
	CONSTRAINT "place_reviews_month_format" CHECK ("place_reviews"."month_visited" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$')
);
--> statement-breakpoint
ALTER TABLE "places" ADD COLUMN "review_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "places" ADD COLUMN "rating_sum" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "place_list_items" ADD CONSTRAINT "place_list_items_list_id_place_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."place_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "place_list_items" ADD CONSTRAINT "place_list_items_place_id_places_id_fk" FOREIGN KEY ("place_id") REFERENCES "public"."places"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "place_lists" ADD CONSTRAINT "place_lists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "place_reviews" ADD CONSTRAINT "place_reviews_place_id_places_id_fk" FOREIGN KEY ("place_id") REFERENCES "public"."places"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "place_reviews" ADD CONSTRAINT "place_reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "place_list_items_place_id_idx" ON "place_list_items" USING btree ("place_id");--> statement-breakpoint
CREATE UNIQUE INDEX "place_lists_slug_key" ON "place_lists" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "place_lists_user_id_id_idx" ON "place_lists" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "place_reviews_place_id_user_id_key" ON "place_reviews" USING btree ("place_id","user_id");--> statement-breakpoint
CREATE INDEX "place_reviews_place_id_id_idx" ON "place_reviews" USING btree ("place_id","id");--> statement-breakpoint
CREATE INDEX "place_reviews_user_id_idx" ON "place_reviews" USING btree ("user_id");