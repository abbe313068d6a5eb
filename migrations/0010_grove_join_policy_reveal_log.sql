CREATE TABLE "grove_bans" (
	"grove_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "grove_bans_grove_id_user_id_pk" PRIMARY KEY("grove_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "grove_invites" (
	"id" uuid PRIMARY KEY NOT NULL,
	"grove_id" uuid NOT NULL,
	"code_hash" "bytea" NOT NULL,
	"created_by" uuid NOT NULL,
	"uses_left" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "grove_invites_uses_left_nonnegative" CHECK ("grove_invites"."uses_left" >= 0)
);
--> statement-breakpoint
CREATE TABLE "grove_join_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"grove_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_reveals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"first_revealed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "groves" ADD COLUMN "join_policy" text DEFAULT 'approval' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_rsvps" ADD COLUMN "pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "rsvp_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "grove_bans" ADD CONSTRAINT "grove_bans_grove_id_groves_id_fk" FOREIGN KEY ("grove_id") REFERENCES "public"."groves"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grove_bans" ADD CONSTRAINT "grove_bans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grove_invites" ADD CONSTRAINT "grove_invites_grove_id_groves_id_fk" FOREIGN KEY ("grove_id") REFERENCES "public"."groves"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grove_invites" ADD CONSTRAINT "grove_invites_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grove_join_requests" ADD CONSTRAINT "grove_join_requests_grove_id_groves_id_fk" FOREIGN KEY ("grove_id") REFERENCES "public"."groves"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grove_join_requests" ADD CONSTRAINT "grove_join_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_reveals" ADD CONSTRAINT "event_reveals_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_reveals" ADD CONSTRAINT "event_reveals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "grove_bans_user_id_idx" ON "grove_bans" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "grove_invites_code_hash_key" ON "grove_invites" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "grove_invites_grove_id_idx" ON "grove_invites" USING btree ("grove_id");--> statement-breakpoint
CREATE INDEX "grove_invites_created_by_idx" ON "grove_invites" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "grove_join_requests_grove_user_key" ON "grove_join_requests" USING btree ("grove_id","user_id");--> statement-breakpoint
CREATE INDEX "grove_join_requests_user_id_idx" ON "grove_join_requests" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "event_reveals_event_user_key" ON "event_reveals" USING btree ("event_id","user_id");--> statement-breakpoint
CREATE INDEX "event_reveals_user_id_idx" ON "event_reveals" USING btree ("user_id");