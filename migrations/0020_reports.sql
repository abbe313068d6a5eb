CREATE TABLE "report_decisions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"report_id" uuid,
	"target_type" text NOT NULL,
	"target_id" uuid,
	"moderator_id" uuid,
	"status" text NOT NULL,
	"action" text,
	"note" text,
	"public_note" text,
	"decided_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"reporter_id" uuid NOT NULL,
	"target_type" text NOT NULL,
	"target_id" uuid,
	"target_author_id" uuid,
	"author_deleted" boolean DEFAULT false NOT NULL,
	"reason" text NOT NULL,
	"details" text,
	"snapshot" jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by_id" uuid,
	"note" text,
	"public_note" text,
	"action" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_decisions" ADD CONSTRAINT "report_decisions_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_decisions" ADD CONSTRAINT "report_decisions_moderator_id_users_id_fk" FOREIGN KEY ("moderator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_target_author_id_users_id_fk" FOREIGN KEY ("target_author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_decided_by_id_users_id_fk" FOREIGN KEY ("decided_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_decisions_report_id_idx" ON "report_decisions" USING btree ("report_id","id");--> statement-breakpoint
CREATE INDEX "report_decisions_moderator_id_idx" ON "report_decisions" USING btree ("moderator_id");--> statement-breakpoint
CREATE INDEX "report_decisions_target_idx" ON "report_decisions" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reports_one_open_per_reporter_key" ON "reports" USING btree ("reporter_id","target_type","target_id") WHERE "reports"."status" = 'open';--> statement-breakpoint
CREATE INDEX "reports_reporter_id_idx" ON "reports" USING btree ("reporter_id","id");--> statement-breakpoint
CREATE INDEX "reports_target_author_id_idx" ON "reports" USING btree ("target_author_id");--> statement-breakpoint
CREATE INDEX "reports_decided_by_id_idx" ON "reports" USING btree ("decided_by_id");--> statement-breakpoint
CREATE INDEX "reports_status_id_idx" ON "reports" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "reports_target_type_id_idx" ON "reports" USING btree ("target_type","id");--> statement-breakpoint
CREATE INDEX "reports_target_idx" ON "reports" USING btree ("target_type","target_id");