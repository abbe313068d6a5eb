ALTER TABLE "image_uploads" ADD COLUMN "alt" text;--> statement-breakpoint
ALTER TABLE "image_uploads" ADD COLUMN "width" integer;--> statement-breakpoint
ALTER TABLE "image_uploads" ADD COLUMN "height" integer;--> statement-breakpoint
ALTER TABLE "image_uploads" ADD COLUMN "variants" jsonb;