CREATE TABLE "job_schedules" (
	"name" text PRIMARY KEY NOT NULL,
	"cron" text NOT NULL,
	"last_slot" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "unique_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_active_unique" ON "jobs" USING btree ("name","unique_key") WHERE unique_key is not null and status in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "jobs_queued_tenant" ON "jobs" USING btree (coalesce("company_id", 0),"id") WHERE status = 'queued';