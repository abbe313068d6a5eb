ALTER TABLE "conversations" ADD COLUMN "title_key_id" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "title_nonce" "bytea";--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "title_ciphertext" "bytea";--> statement-breakpoint
ALTER TABLE "report_decisions" ADD COLUMN "keep_evidence" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "sealed_key_id" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "sealed_nonce" "bytea";--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "sealed_ciphertext" "bytea";--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "sealed_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "sealed_delete_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "reports_sealed_delete_at_idx" ON "reports" USING btree ("sealed_delete_at") WHERE "reports"."sealed_delete_at" is not null;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_title_sealed_whole" CHECK (("conversations"."title_key_id" is null) = ("conversations"."title_ciphertext" is null) and ("conversations"."title_nonce" is null) = ("conversations"."title_ciphertext" is null));--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_title_sealed_or_legacy" CHECK ("conversations"."title" is null or "conversations"."title_ciphertext" is null);--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_sealed_whole" CHECK (("reports"."sealed_key_id" is null) = ("reports"."sealed_ciphertext" is null) and ("reports"."sealed_nonce" is null) = ("reports"."sealed_ciphertext" is null));--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_sealed_has_retention" CHECK ("reports"."sealed_ciphertext" is null or "reports"."sealed_delete_at" is not null);--> statement-breakpoint
-- Hand-written: reports of messages filed before this migration hold the message's text in clear
-- in "snapshot". They get the retention rule of new reports (server/domains/reports/retention.ts):
-- the text's own expiry is the message's (when the message is gone, the longest it could have
-- lived: 90 days after it was sent), and it is deleted then, or 30 days after a decision if that
-- comes first. The sweep deletes it when due; `npm run messages:rekey` seals what is left (the key
-- is not in the database, so sealing cannot happen here).
UPDATE "reports" SET "sealed_expires_at" = coalesce(
    (SELECT m."expires_at" FROM "messages" m WHERE m."id" = "reports"."target_id"),
    ("reports"."snapshot" ->> 'sentAt')::timestamptz + interval '90 days',
    "reports"."created_at" + interval '90 days')
  WHERE "target_type" = 'message' AND ("snapshot" ->> 'text') IS NOT NULL;--> statement-breakpoint
UPDATE "reports" SET "sealed_delete_at" = CASE WHEN "decided_at" IS NULL THEN "sealed_expires_at"
    ELSE least("sealed_expires_at", "decided_at" + interval '30 days') END
  WHERE "target_type" = 'message' AND ("snapshot" ->> 'text') IS NOT NULL;
