CREATE TABLE "realtime_tickets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"token_hash" "bytea" NOT NULL,
	"session_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "realtime_tickets" ADD CONSTRAINT "realtime_tickets_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "realtime_tickets_token_hash_key" ON "realtime_tickets" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "realtime_tickets_session_id_idx" ON "realtime_tickets" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "realtime_tickets_expires_at_idx" ON "realtime_tickets" USING btree ("expires_at");