ALTER TABLE "import_attempts" ADD COLUMN "unchanged" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "import_rows" ADD COLUMN "matched_by" text;--> statement-breakpoint
ALTER TABLE "import_rows" ADD COLUMN "same_person" boolean;--> statement-breakpoint
ALTER TABLE "import_rows" ADD COLUMN "changes" jsonb;--> statement-breakpoint
ALTER TABLE "import_rows" ADD COLUMN "kept" jsonb;--> statement-breakpoint
ALTER TABLE "import_rows" ADD COLUMN "tags_added" jsonb;--> statement-breakpoint
ALTER TABLE "import_rows" ADD COLUMN "undo" jsonb;