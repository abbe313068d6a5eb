ALTER TABLE "magic_link_tokens" ADD COLUMN "link_provider" text;--> statement-breakpoint
ALTER TABLE "magic_link_tokens" ADD COLUMN "link_subject" text;--> statement-breakpoint
ALTER TABLE "magic_link_tokens" ADD CONSTRAINT "magic_link_tokens_link_pair" CHECK (("magic_link_tokens"."link_provider" is null) = ("magic_link_tokens"."link_subject" is null));