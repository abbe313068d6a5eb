CREATE TABLE "friend_invites" (
	"id" uuid PRIMARY KEY NOT NULL,
	"issuer_id" uuid NOT NULL,
	"code_hash" "bytea" NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "friendships" ADD COLUMN "id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "friend_invites" ADD CONSTRAINT "friend_invites_issuer_id_users_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "friend_invites_code_hash_key" ON "friend_invites" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "friend_invites_issuer_id_id_idx" ON "friend_invites" USING btree ("issuer_id","id");--> statement-breakpoint
CREATE INDEX "friend_invites_expires_at_idx" ON "friend_invites" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "friendships_user_id_id_idx" ON "friendships" USING btree ("user_id","id");