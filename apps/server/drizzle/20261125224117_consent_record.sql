CREATE TABLE "consent_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"contact_id" bigint,
	"channel" text NOT NULL,
	"sender_id" integer DEFAULT 0 NOT NULL,
	"address" text,
	"from_status" text,
	"to_status" text NOT NULL,
	"source" text NOT NULL,
	"detail" text,
	"actor_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consent_suppressions" (
	"company_id" integer NOT NULL,
	"channel" text NOT NULL,
	"address" text NOT NULL,
	"reason" text NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"detail" text,
	CONSTRAINT "consent_suppressions_company_id_channel_address_pk" PRIMARY KEY("company_id","channel","address")
);
--> statement-breakpoint
CREATE TABLE "contact_consents" (
	"contact_id" bigint NOT NULL,
	"channel" text NOT NULL,
	"sender_id" integer DEFAULT 0 NOT NULL,
	"company_id" integer NOT NULL,
	"status" text NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	"detail" text,
	"recorded_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_consents_contact_id_channel_sender_id_pk" PRIMARY KEY("contact_id","channel","sender_id")
);
--> statement-breakpoint
CREATE TABLE "permissions_to_contact" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"contact_id" bigint NOT NULL,
	"products" text[] NOT NULL,
	"granted_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"detail" text,
	"recorded_by" integer,
	"revoked_at" timestamp with time zone,
	"revoked_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "consent_events" ADD CONSTRAINT "consent_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_suppressions" ADD CONSTRAINT "consent_suppressions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_consents" ADD CONSTRAINT "contact_consents_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_consents" ADD CONSTRAINT "contact_consents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permissions_to_contact" ADD CONSTRAINT "permissions_to_contact_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permissions_to_contact" ADD CONSTRAINT "permissions_to_contact_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consent_events_contact" ON "consent_events" USING btree ("contact_id","id") WHERE contact_id is not null;--> statement-breakpoint
CREATE INDEX "consent_events_company" ON "consent_events" USING btree ("company_id","id");--> statement-breakpoint
CREATE INDEX "permissions_to_contact_contact" ON "permissions_to_contact" USING btree ("contact_id","expires_at");