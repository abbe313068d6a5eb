CREATE TABLE "federation_actors" (
	"id" uuid PRIMARY KEY NOT NULL,
	"grove_id" uuid,
	"organization_id" uuid,
	"enabled" boolean,
	"public_keys" jsonb NOT NULL,
	"private_keys_key_id" text NOT NULL,
	"private_keys_nonce" "bytea" NOT NULL,
	"private_keys_ciphertext" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "federation_actors_one_owner" CHECK (("federation_actors"."grove_id" is null) <> ("federation_actors"."organization_id" is null))
);
--> statement-breakpoint
CREATE TABLE "federation_blocked_hosts" (
	"host" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "federation_followers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"actor_id" uuid NOT NULL,
	"follower_uri" text NOT NULL,
	"host" text NOT NULL,
	"inbox" text NOT NULL,
	"shared_inbox" text,
	"follow_activity_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "federation_kv" (
	"key" text[] PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "federation_queue" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "federation_queue_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"message" jsonb NOT NULL,
	"ordering_key" text,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "federation_actors" ADD CONSTRAINT "federation_actors_grove_id_groves_id_fk" FOREIGN KEY ("grove_id") REFERENCES "public"."groves"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "federation_actors" ADD CONSTRAINT "federation_actors_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "federation_followers" ADD CONSTRAINT "federation_followers_actor_id_federation_actors_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."federation_actors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "federation_actors_grove_id_key" ON "federation_actors" USING btree ("grove_id");--> statement-breakpoint
CREATE UNIQUE INDEX "federation_actors_organization_id_key" ON "federation_actors" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "federation_followers_actor_follower_key" ON "federation_followers" USING btree ("actor_id","follower_uri");--> statement-breakpoint
CREATE INDEX "federation_followers_host_idx" ON "federation_followers" USING btree ("host");--> statement-breakpoint
CREATE INDEX "federation_kv_expires_at_idx" ON "federation_kv" USING btree ("expires_at") WHERE "federation_kv"."expires_at" is not null;--> statement-breakpoint
CREATE INDEX "federation_queue_run_at_idx" ON "federation_queue" USING btree ("run_at","id");