CREATE TABLE "member_push_queue" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "member_push_queue" ADD CONSTRAINT "member_push_queue_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_push_queue_user_id_idx" ON "member_push_queue" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "member_push_queue_subject_id_idx" ON "member_push_queue" USING btree ("subject_id");--> statement-breakpoint
CREATE INDEX "event_push_queue_event_id_idx" ON "event_push_queue" USING btree ("event_id");