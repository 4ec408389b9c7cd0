CREATE TABLE "contact_search" (
	"contact_id" bigint PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"search" text NOT NULL
);
--> statement-breakpoint
DROP INDEX "contacts_search_trgm";--> statement-breakpoint
DROP INDEX "contacts_pool";--> statement-breakpoint
CREATE INDEX "contact_search_trgm" ON "contact_search" USING gin ("search" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contacts_pool" ON "contacts" USING btree ("pool_id") WHERE pool_id is not null;--> statement-breakpoint
ALTER TABLE "contacts" DROP COLUMN "search";