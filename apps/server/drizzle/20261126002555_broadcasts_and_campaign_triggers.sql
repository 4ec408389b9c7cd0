CREATE TABLE "broadcast_recipients" (
	"broadcast_id" bigint NOT NULL,
	"contact_id" bigint NOT NULL,
	"sender_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"address" text,
	"basis" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"retry_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "broadcast_recipients_broadcast_id_contact_id_pk" PRIMARY KEY("broadcast_id","contact_id")
);
--> statement-breakpoint
CREATE TABLE "broadcasts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"channel" text NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"purpose" text DEFAULT 'marketing' NOT NULL,
	"products" text[] DEFAULT '{}'::text[] NOT NULL,
	"content" jsonb NOT NULL,
	"title" text NOT NULL,
	"trigger_id" bigint,
	"selection" jsonb NOT NULL,
	"send_at" timestamp with time zone,
	"total" integer DEFAULT 0 NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"removed" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"fingerprint" text,
	"dedupe_key" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" integer
);
--> statement-breakpoint
CREATE TABLE "campaign_triggers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"body" text,
	"trigger_type" text NOT NULL,
	"category" text DEFAULT 'other' NOT NULL,
	"trigger" text DEFAULT 'manual' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"compliant" boolean DEFAULT false NOT NULL,
	"global" boolean DEFAULT true NOT NULL,
	"auto_trigger" boolean DEFAULT false NOT NULL,
	"show_on_bulk" boolean DEFAULT true NOT NULL,
	"show_on_conversation" boolean DEFAULT false NOT NULL,
	"show_on_event" boolean DEFAULT false NOT NULL,
	"recurrence" text DEFAULT 'none' NOT NULL,
	"email_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"corporation_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"sms_trigger_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"file_key" text,
	"file_name" text,
	"file_type" text,
	"file_size" integer,
	"last_run_on" date,
	"created_by" integer,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_templates" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"subject" text NOT NULL,
	"body_html" text NOT NULL,
	"category" text DEFAULT 'other' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_broadcast_id_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."broadcasts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_triggers" ADD CONSTRAINT "campaign_triggers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broadcast_recipients_status" ON "broadcast_recipients" USING btree ("broadcast_id","status","contact_id");--> statement-breakpoint
CREATE INDEX "broadcasts_company_user" ON "broadcasts" USING btree ("company_id","user_id","id");--> statement-breakpoint
CREATE INDEX "broadcasts_fingerprint" ON "broadcasts" USING btree ("company_id","fingerprint","created_at") WHERE fingerprint is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "broadcasts_dedupe" ON "broadcasts" USING btree ("company_id","dedupe_key") WHERE dedupe_key is not null;--> statement-breakpoint
CREATE INDEX "campaign_triggers_company" ON "campaign_triggers" USING btree ("company_id","id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "email_templates_company" ON "email_templates" USING btree ("company_id","id") WHERE deleted_at is null;