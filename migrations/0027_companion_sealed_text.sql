ALTER TABLE "companion_messages" ALTER COLUMN "content" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "companion_conversations" ADD COLUMN "title_key_id" text;--> statement-breakpoint
ALTER TABLE "companion_conversations" ADD COLUMN "title_nonce" "bytea";--> statement-breakpoint
ALTER TABLE "companion_conversations" ADD COLUMN "title_ciphertext" "bytea";--> statement-breakpoint
ALTER TABLE "companion_messages" ADD COLUMN "key_id" text;--> statement-breakpoint
ALTER TABLE "companion_messages" ADD COLUMN "nonce" "bytea";--> statement-breakpoint
ALTER TABLE "companion_messages" ADD COLUMN "ciphertext" "bytea";--> statement-breakpoint
ALTER TABLE "companion_conversations" ADD CONSTRAINT "companion_conversations_title_sealed_whole" CHECK (("companion_conversations"."title_key_id" is null) = ("companion_conversations"."title_ciphertext" is null) and ("companion_conversations"."title_nonce" is null) = ("companion_conversations"."title_ciphertext" is null));--> statement-breakpoint
ALTER TABLE "companion_conversations" ADD CONSTRAINT "companion_conversations_title_sealed_or_legacy" CHECK ("companion_conversations"."title" is null or "companion_conversations"."title_ciphertext" is null);--> statement-breakpoint
ALTER TABLE "companion_messages" ADD CONSTRAINT "companion_messages_sealed_whole" CHECK (("companion_messages"."key_id" is null) = ("companion_messages"."ciphertext" is null) and ("companion_messages"."nonce" is null) = ("companion_messages"."ciphertext" is null));--> statement-breakpoint
ALTER TABLE "companion_messages" ADD CONSTRAINT "companion_messages_sealed_or_legacy" CHECK (("companion_messages"."content" is null) <> ("companion_messages"."ciphertext" is null));