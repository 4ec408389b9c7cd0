ALTER TABLE "import_attempts" ADD COLUMN "number" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_attempts" ADD COLUMN "number" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Attempts made before this migration are numbered 1, 2, ... within their company, in the order they were made
-- (docs/decisions/per-company-numbers.md), before the unique index can hold.
UPDATE "import_attempts" a SET "number" = n.rn
  FROM (SELECT id, row_number() OVER (PARTITION BY company_id ORDER BY id) AS rn FROM "import_attempts") n
  WHERE n.id = a.id;--> statement-breakpoint
UPDATE "transfer_attempts" a SET "number" = n.rn
  FROM (SELECT id, row_number() OVER (PARTITION BY company_id ORDER BY id) AS rn FROM "transfer_attempts") n
  WHERE n.id = a.id;--> statement-breakpoint
CREATE UNIQUE INDEX "import_attempts_company_number" ON "import_attempts" USING btree ("company_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "transfer_attempts_company_number" ON "transfer_attempts" USING btree ("company_id","number");
