CREATE TABLE "phone_verifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer,
	"contact_id" bigint,
	"phone" text NOT NULL,
	"line_type" text NOT NULL,
	"carrier" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_conversations" (
	"contact_id" bigint PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"phone" text NOT NULL,
	"last_message_id" bigint NOT NULL,
	"last_body" text NOT NULL,
	"last_direction" text NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"unread_count" integer DEFAULT 0 NOT NULL,
	"flagged" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"contact_id" bigint,
	"user_id" integer,
	"direction" text NOT NULL,
	"from_phone" text NOT NULL,
	"to_phone" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"segments" integer DEFAULT 1 NOT NULL,
	"status" text NOT NULL,
	"sid" text,
	"error_code" integer,
	"error_message" text,
	"flagged" boolean DEFAULT false NOT NULL,
	"consent_change" text,
	"consent_basis" text,
	"broadcast_id" bigint,
	"campaign_trigger_id" bigint,
	"charged_cents" integer DEFAULT 0 NOT NULL,
	"send_attempts" integer DEFAULT 0 NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_numbers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer,
	"phone" text NOT NULL,
	"sid" text NOT NULL,
	"registration_status" text DEFAULT 'pending' NOT NULL,
	"registration_checked_at" timestamp with time zone,
	"monthly_price" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "phone_verifications" ADD CONSTRAINT "phone_verifications_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_conversations" ADD CONSTRAINT "sms_conversations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD CONSTRAINT "sms_messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_numbers" ADD CONSTRAINT "sms_numbers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "phone_verifications_phone" ON "phone_verifications" USING btree ("company_id","phone","created_at");--> statement-breakpoint
CREATE INDEX "phone_verifications_recent" ON "phone_verifications" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "sms_conversations_recent" ON "sms_conversations" USING btree ("company_id","last_at");--> statement-breakpoint
CREATE INDEX "sms_messages_thread" ON "sms_messages" USING btree ("company_id","contact_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "sms_messages_sid" ON "sms_messages" USING btree ("sid");--> statement-breakpoint
CREATE UNIQUE INDEX "sms_messages_broadcast_contact" ON "sms_messages" USING btree ("broadcast_id","contact_id") WHERE broadcast_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "sms_numbers_phone" ON "sms_numbers" USING btree ("phone") WHERE released_at is null;--> statement-breakpoint
CREATE INDEX "sms_numbers_company" ON "sms_numbers" USING btree ("company_id","user_id");