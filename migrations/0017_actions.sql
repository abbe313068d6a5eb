CREATE TABLE "action_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"occurred_on" date NOT NULL,
	"minutes" integer,
	"note" text,
	"place_id" uuid,
	"place_name" text,
	"event_id" uuid,
	"event_title" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "action_entries_minutes_quarter_hours" CHECK ("action_entries"."minutes" is null or ("action_entries"."minutes" between 15 and 1440 and "action_entries"."minutes" % 15 = 0)),
	CONSTRAINT "action_entries_hours_required" CHECK ("action_entries"."kind" not in ('outreach', 'volunteer_shift') or "action_entries"."minutes" is not null),
	CONSTRAINT "action_entries_place_only_volunteer" CHECK ("action_entries"."kind" = 'volunteer_shift' or ("action_entries"."place_id" is null and "action_entries"."place_name" is null)),
	CONSTRAINT "action_entries_event_only_attended" CHECK ("action_entries"."kind" = 'event_attended' or ("action_entries"."event_id" is null and "action_entries"."event_title" is null))
);
--> statement-breakpoint
CREATE TABLE "action_totals" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"actions" integer DEFAULT 0 NOT NULL,
	"minutes" integer DEFAULT 0 NOT NULL,
	"aggregate_opt_in" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "action_totals_nonnegative" CHECK ("action_totals"."actions" >= 0 and "action_totals"."minutes" >= 0)
);
--> statement-breakpoint
ALTER TABLE "action_entries" ADD CONSTRAINT "action_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_entries" ADD CONSTRAINT "action_entries_place_id_places_id_fk" FOREIGN KEY ("place_id") REFERENCES "public"."places"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_entries" ADD CONSTRAINT "action_entries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_totals" ADD CONSTRAINT "action_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "action_entries_user_id_id_idx" ON "action_entries" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "action_entries_user_event_key" ON "action_entries" USING btree ("user_id","event_id") WHERE "action_entries"."event_id" is not null;--> statement-breakpoint
CREATE INDEX "action_entries_event_id_idx" ON "action_entries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "action_entries_place_id_idx" ON "action_entries" USING btree ("place_id");--> statement-breakpoint
CREATE INDEX "action_totals_contributing_idx" ON "action_totals" USING btree ("user_id") WHERE "action_totals"."aggregate_opt_in" and "action_totals"."actions" > 0;