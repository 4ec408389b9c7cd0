DROP INDEX "users_downline";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "tree_path" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
CREATE INDEX "users_tree_path" ON "users" USING gin ("tree_path");