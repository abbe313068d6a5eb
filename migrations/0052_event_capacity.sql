CREATE SEQUENCE "public"."event_rsvps_waitlist_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "event_rsvps" ADD COLUMN "waitlist_order" bigint;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "capacity" integer;--> statement-breakpoint
CREATE INDEX "event_rsvps_waitlist_idx" ON "event_rsvps" USING btree ("event_id","waitlist_order") WHERE "event_rsvps"."waitlist_order" is not null;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_capacity_positive" CHECK ("events"."capacity" is null or "events"."capacity" >= 1);