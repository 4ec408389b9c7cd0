ALTER TABLE "contacts" ALTER COLUMN "number" SET DEFAULT 0;--> statement-breakpoint
DROP SEQUENCE "public"."contacts_number_seq";