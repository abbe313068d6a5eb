CREATE TABLE "known_devices" (
	"user_id" uuid NOT NULL,
	"family" text NOT NULL,
	"first_seen_on" date NOT NULL,
	CONSTRAINT "known_devices_user_id_family_pk" PRIMARY KEY("user_id","family")
);
--> statement-breakpoint
CREATE TABLE "sign_in_alert_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"token_hash" "bytea" NOT NULL,
	"user_id" uuid NOT NULL,
	"family" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "device" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_seen_on" date;--> statement-breakpoint
ALTER TABLE "known_devices" ADD CONSTRAINT "known_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_alert_tokens" ADD CONSTRAINT "sign_in_alert_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sign_in_alert_tokens_token_hash_key" ON "sign_in_alert_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sign_in_alert_tokens_user_id_idx" ON "sign_in_alert_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sign_in_alert_tokens_expires_at_idx" ON "sign_in_alert_tokens" USING btree ("expires_at");