CREATE TABLE "attendance_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"auto_log_attendance" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_announcement_recipients" (
	"announcement_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "event_announcement_recipients_announcement_id_user_id_pk" PRIMARY KEY("announcement_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "event_announcements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"author_id" uuid,
	"text" text NOT NULL,
	"include_waitlisted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_announcements_text_length" CHECK (char_length("event_announcements"."text") between 1 and 2000)
);
--> statement-breakpoint
ALTER TABLE "event_rsvps" ADD COLUMN "checked_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "action_entries" ADD COLUMN "from_check_in" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "attendance_settings" ADD CONSTRAINT "attendance_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_announcement_recipients" ADD CONSTRAINT "event_announcement_recipients_announcement_id_event_announcements_id_fk" FOREIGN KEY ("announcement_id") REFERENCES "public"."event_announcements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_announcement_recipients" ADD CONSTRAINT "event_announcement_recipients_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_announcements" ADD CONSTRAINT "event_announcements_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_announcements" ADD CONSTRAINT "event_announcements_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_announcement_recipients_user_id_idx" ON "event_announcement_recipients" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "event_announcements_event_id_idx" ON "event_announcements" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "event_announcements_author_id_idx" ON "event_announcements" USING btree ("author_id");