CREATE TABLE "calendar_event_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"event_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"actor_id" integer,
	"action" text NOT NULL,
	"title" text NOT NULL,
	"changes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calendar_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"contact_id" bigint,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"location" text,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"all_day" boolean DEFAULT false NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"snoozed_until" timestamp with time zone,
	"done_at" timestamp with time zone,
	"products" text[] DEFAULT '{}'::text[] NOT NULL,
	"soa_request_id" bigint,
	"soa_exception" text,
	"reminder_minutes" integer,
	"remind_at" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "medicare_registrations" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"registered" boolean NOT NULL,
	"npn" text,
	"plan_year" integer,
	"registered_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "soa_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"contact_id" bigint NOT NULL,
	"token_hash" text NOT NULL,
	"token_sealed" text NOT NULL,
	"channel" text NOT NULL,
	"sent_to" text,
	"products_offered" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'sent' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"products" text[] DEFAULT '{}'::text[] NOT NULL,
	"signature_name" text,
	"signature_image" text,
	"beneficiary_address" text,
	"beneficiary_phone" text,
	"signed_at" timestamp with time zone,
	"signed_ip" text,
	"signed_user_agent" text,
	"completed_at" timestamp with time zone,
	"rejected_at" timestamp with time zone,
	"reject_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calendar_event_changes" ADD CONSTRAINT "calendar_event_changes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_events" ADD CONSTRAINT "calendar_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_events" ADD CONSTRAINT "calendar_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_events" ADD CONSTRAINT "calendar_events_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medicare_registrations" ADD CONSTRAINT "medicare_registrations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medicare_registrations" ADD CONSTRAINT "medicare_registrations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "soa_requests" ADD CONSTRAINT "soa_requests_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "soa_requests" ADD CONSTRAINT "soa_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "soa_requests" ADD CONSTRAINT "soa_requests_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_event_changes_user" ON "calendar_event_changes" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "calendar_event_changes_event" ON "calendar_event_changes" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "calendar_events_user_start" ON "calendar_events" USING btree ("user_id","starts_at");--> statement-breakpoint
CREATE INDEX "calendar_events_queue" ON "calendar_events" USING btree ("user_id","due_at") WHERE done_at is null;--> statement-breakpoint
CREATE INDEX "calendar_events_contact" ON "calendar_events" USING btree ("contact_id","starts_at") WHERE contact_id is not null;--> statement-breakpoint
CREATE INDEX "calendar_events_reminders" ON "calendar_events" USING btree ("remind_at") WHERE remind_at is not null and reminded_at is null and done_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "soa_requests_token" ON "soa_requests" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "soa_requests_user" ON "soa_requests" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "soa_requests_contact" ON "soa_requests" USING btree ("contact_id","signed_at");