ALTER TABLE "federation_blocked_hosts" ADD COLUMN "id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "federation_blocked_hosts" ADD COLUMN "reason" text;--> statement-breakpoint
CREATE UNIQUE INDEX "federation_blocked_hosts_id_key" ON "federation_blocked_hosts" USING btree ("id");