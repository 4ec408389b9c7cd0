CREATE TABLE "email_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"message_id" bigint NOT NULL,
	"contact_id" bigint NOT NULL,
	"event" text NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"detail" text,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"contact_id" bigint NOT NULL,
	"sender_id" integer NOT NULL,
	"broadcast_id" bigint,
	"template_id" bigint,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"body_html" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"consent_basis" text,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dev_mails" ADD COLUMN "message_id" text;--> statement-breakpoint
ALTER TABLE "dev_mails" ADD COLUMN "return_path" text;--> statement-breakpoint
ALTER TABLE "dev_mails" ADD COLUMN "unique_args" jsonb;--> statement-breakpoint
ALTER TABLE "dev_mails" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "dev_mails" ADD COLUMN "events_posted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_messages" ADD CONSTRAINT "email_messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_events_message_event" ON "email_events" USING btree ("message_id","event");--> statement-breakpoint
CREATE INDEX "email_events_contact" ON "email_events" USING btree ("contact_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "email_messages_broadcast_contact" ON "email_messages" USING btree ("broadcast_id","contact_id") WHERE broadcast_id is not null;--> statement-breakpoint
CREATE INDEX "email_messages_contact" ON "email_messages" USING btree ("contact_id","id");--> statement-breakpoint
CREATE INDEX "dev_mails_events_pending" ON "dev_mails" USING btree ("id") WHERE events_posted_at is null and unique_args is not null;