CREATE TABLE "push_outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "push_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"recipient_id" uuid,
	"actor_id" uuid,
	"change" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"not_before" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "push_outbox" ADD CONSTRAINT "push_outbox_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "push_outbox_not_before_idx" ON "push_outbox" USING btree ("not_before","id");--> statement-breakpoint
CREATE INDEX "push_outbox_recipient_id_idx" ON "push_outbox" USING btree ("recipient_id") WHERE "push_outbox"."recipient_id" is not null;--> statement-breakpoint
CREATE INDEX "push_outbox_friend_subject_idx" ON "push_outbox" USING btree ("subject_id") WHERE "push_outbox"."kind" = 'friendInviteAccepted';;--> statement-breakpoint
-- Hand-written: the pushes still waiting in the three queues move to the outbox (oldest first, so
-- the identity keeps their order), then the queues go. Forward-only.
INSERT INTO "push_outbox" ("kind", "subject_id", "recipient_id", "actor_id", "change", "not_before", "created_at")
SELECT "kind", "subject_id", "recipient_id", "actor_id", "change", "queued_at", "queued_at" FROM (
  SELECT 'message' AS "kind", "message_id" AS "subject_id", NULL::uuid AS "recipient_id", NULL::uuid AS "actor_id",
         NULL::text AS "change", "queued_at" FROM "message_push_queue"
  UNION ALL
  SELECT 'eventUpdate', "event_id", NULL::uuid, "actor_id", "change", "queued_at" FROM "event_push_queue"
  UNION ALL
  SELECT CASE "kind" WHEN 'friendInvitesAccepted' THEN 'friendInviteAccepted' ELSE 'reportOutcome' END,
         "subject_id", "user_id", NULL::uuid, NULL::text, "queued_at" FROM "member_push_queue"
) AS "queued" ORDER BY "queued_at";--> statement-breakpoint
DROP TABLE "event_push_queue" CASCADE;--> statement-breakpoint
DROP TABLE "member_push_queue" CASCADE;--> statement-breakpoint
DROP TABLE "message_push_queue" CASCADE;
