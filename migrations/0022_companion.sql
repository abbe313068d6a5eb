CREATE TABLE "companion_conversations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"title" text,
	"pinned" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"activity_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companion_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"conversation_id" uuid NOT NULL,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companion_conversations" ADD CONSTRAINT "companion_conversations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "companion_messages" ADD CONSTRAINT "companion_messages_conversation_id_companion_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."companion_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "companion_conversations_user_activity_key" ON "companion_conversations" USING btree ("user_id","activity_id");--> statement-breakpoint
CREATE INDEX "companion_conversations_user_pinned_idx" ON "companion_conversations" USING btree ("user_id","activity_id") WHERE "companion_conversations"."pinned";--> statement-breakpoint
CREATE INDEX "companion_messages_conversation_id_idx" ON "companion_messages" USING btree ("conversation_id","id");