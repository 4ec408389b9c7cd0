DROP INDEX "contacts_owner_name";--> statement-breakpoint
DROP INDEX "contacts_company_name";--> statement-breakpoint
CREATE INDEX "contacts_deleted" ON "contacts" USING btree ("company_id","deleted_at") WHERE deleted_at is not null;--> statement-breakpoint
CREATE INDEX "contacts_owner_name" ON "contacts" USING btree ("company_id","owner_id","last_name","first_name","id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "contacts_company_name" ON "contacts" USING btree ("company_id","last_name","first_name","id","owner_id","pool_id") WHERE deleted_at is null;