ALTER TABLE "webhook_events" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "retry_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "webhook_events_pending" ON "webhook_events" USING btree ("provider","id") WHERE processed_at is null;