ALTER TABLE "companion_messages" ALTER COLUMN "sources" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "companion_messages" ALTER COLUMN "sources" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "companion_messages" ADD COLUMN "sources_nonce" "bytea";--> statement-breakpoint
ALTER TABLE "companion_messages" ADD COLUMN "sources_ciphertext" "bytea";--> statement-breakpoint
ALTER TABLE "companion_messages" ADD CONSTRAINT "companion_messages_sources_sealed_whole" CHECK (("companion_messages"."sources_nonce" is null) = ("companion_messages"."sources_ciphertext" is null) and ("companion_messages"."sources_ciphertext" is null or "companion_messages"."key_id" is not null));--> statement-breakpoint
ALTER TABLE "companion_messages" ADD CONSTRAINT "companion_messages_sources_sealed_or_legacy" CHECK ("companion_messages"."sources" is null or "companion_messages"."sources_ciphertext" is null);--> statement-breakpoint
-- Hand-written: an empty list tells nothing, so after this a non-null "sources" is exactly a list
-- still in clear, which `npm run messages:rekey` seals (it cannot be done here: the key is not in
-- the database).
UPDATE "companion_messages" SET "sources" = NULL WHERE "sources" = '[]'::jsonb;
