CREATE TABLE "event_shift_signups" (
	"id" uuid PRIMARY KEY NOT NULL,
	"shift_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_shifts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"capacity" integer NOT NULL,
	"role" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_shifts_capacity_positive" CHECK ("event_shifts"."capacity" >= 1),
	CONSTRAINT "event_shifts_ends_after_start" CHECK ("event_shifts"."ends_at" > "event_shifts"."starts_at")
);
--> statement-breakpoint
ALTER TABLE "event_shift_signups" ADD CONSTRAINT "event_shift_signups_shift_id_event_shifts_id_fk" FOREIGN KEY ("shift_id") REFERENCES "public"."event_shifts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_shift_signups" ADD CONSTRAINT "event_shift_signups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_shifts" ADD CONSTRAINT "event_shifts_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_shift_signups_shift_user_key" ON "event_shift_signups" USING btree ("shift_id","user_id");--> statement-breakpoint
CREATE INDEX "event_shift_signups_user_id_idx" ON "event_shift_signups" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "event_shifts_event_id_idx" ON "event_shifts" USING btree ("event_id","starts_at","id");