CREATE TABLE "friend_invites" (
	"id" uuid PRIMARY KEY NOT NULL,
	"issuer_id" uuid NOT NULL,
	"code_hash" "bytea" NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_reminder_deliveries" (
	"event_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "event_reminder_deliveries_event_id_user_id_pk" PRIMARY KEY("event_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"push_event_reminders" boolean DEFAULT true NOT NULL,
	"push_event_updates" boolean DEFAULT true NOT NULL,
	"push_messages" boolean DEFAULT true NOT NULL,
	"push_friend_invites_accepted" boolean DEFAULT true NOT NULL,
	"push_report_outcomes" boolean DEFAULT true NOT NULL,
	"email_event_reminders" boolean DEFAULT false NOT NULL,
	"email_event_updates" boolean DEFAULT false NOT NULL,
	"email_messages" boolean DEFAULT false NOT NULL,
	"email_friend_invites_accepted" boolean DEFAULT false NOT NULL,
	"email_report_outcomes" boolean DEFAULT false NOT NULL,
	"push_shows_details" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"address" text NOT NULL,
	"p256dh" text,
	"auth" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "friendships" ADD COLUMN "id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "friend_invites" ADD CONSTRAINT "friend_invites_issuer_id_users_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_reminder_deliveries" ADD CONSTRAINT "event_reminder_deliveries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_reminder_deliveries" ADD CONSTRAINT "event_reminder_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "friend_invites_code_hash_key" ON "friend_invites" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "friend_invites_issuer_id_id_idx" ON "friend_invites" USING btree ("issuer_id","id");--> statement-breakpoint
CREATE INDEX "friend_invites_expires_at_idx" ON "friend_invites" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "event_reminder_deliveries_user_id_idx" ON "event_reminder_deliveries" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_address_key" ON "push_subscriptions" USING btree ("address");--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_id_id_idx" ON "push_subscriptions" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "friendships_user_id_id_idx" ON "friendships" USING btree ("user_id","id");