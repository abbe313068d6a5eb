CREATE TABLE "event_guest_reveals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"guest_rsvp_id" uuid NOT NULL,
	"email_hint" text NOT NULL,
	"first_revealed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_guest_rsvps" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"email" text NOT NULL,
	"status" text NOT NULL,
	"locale" text,
	"confirm_token_hash" "bytea",
	"confirm_expires_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"withdraw_token_hash" "bytea",
	"pending" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_guest_reveals" ADD CONSTRAINT "event_guest_reveals_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_guest_rsvps" ADD CONSTRAINT "event_guest_rsvps_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_guest_reveals_event_guest_key" ON "event_guest_reveals" USING btree ("event_id","guest_rsvp_id");--> statement-breakpoint
CREATE UNIQUE INDEX "event_guest_rsvps_event_email_key" ON "event_guest_rsvps" USING btree ("event_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "event_guest_rsvps_confirm_token_key" ON "event_guest_rsvps" USING btree ("confirm_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "event_guest_rsvps_withdraw_token_key" ON "event_guest_rsvps" USING btree ("withdraw_token_hash");--> statement-breakpoint
CREATE INDEX "event_guest_rsvps_event_status_idx" ON "event_guest_rsvps" USING btree ("event_id","status") WHERE "event_guest_rsvps"."confirmed_at" is not null;--> statement-breakpoint
CREATE INDEX "event_guest_rsvps_unconfirmed_idx" ON "event_guest_rsvps" USING btree ("confirm_expires_at") WHERE "event_guest_rsvps"."confirmed_at" is null;