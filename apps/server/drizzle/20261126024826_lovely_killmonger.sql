CREATE TABLE "call_legs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"call_id" bigint NOT NULL,
	"sid" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'initiated' NOT NULL,
	"duration_s" integer,
	"billed_minutes" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "call_recordings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"call_id" bigint NOT NULL,
	"provider_sid" text NOT NULL,
	"storage_key" text NOT NULL,
	"content_type" text NOT NULL,
	"duration_s" integer,
	"retain_until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"contact_id" bigint,
	"direction" text NOT NULL,
	"from_number" text NOT NULL,
	"to_number" text NOT NULL,
	"caller_city" text,
	"caller_state" text,
	"status" text DEFAULT 'initiated' NOT NULL,
	"provider" text NOT NULL,
	"room" text,
	"recording" text DEFAULT 'off' NOT NULL,
	"max_seconds" integer,
	"disclaimer_at_s" integer,
	"error_code" integer,
	"answered_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"duration_s" integer,
	"warning" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "call_legs" ADD CONSTRAINT "call_legs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_legs" ADD CONSTRAINT "call_legs_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_recordings" ADD CONSTRAINT "call_recordings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_recordings" ADD CONSTRAINT "call_recordings_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "call_legs_sid" ON "call_legs" USING btree ("sid");--> statement-breakpoint
CREATE INDEX "call_legs_call" ON "call_legs" USING btree ("call_id");--> statement-breakpoint
CREATE UNIQUE INDEX "call_recordings_sid" ON "call_recordings" USING btree ("provider_sid");--> statement-breakpoint
CREATE INDEX "call_recordings_call" ON "call_recordings" USING btree ("call_id");--> statement-breakpoint
CREATE INDEX "calls_user_created" ON "calls" USING btree ("company_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "calls_contact" ON "calls" USING btree ("company_id","contact_id");--> statement-breakpoint
CREATE UNIQUE INDEX "calls_one_active_per_user" ON "calls" USING btree ("user_id") WHERE status in ('initiated', 'ringing', 'in-progress');--> statement-breakpoint
CREATE UNIQUE INDEX "calls_room" ON "calls" USING btree ("provider","room");