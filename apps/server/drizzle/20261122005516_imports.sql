CREATE TABLE "import_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"owner_id" integer,
	"kind" text DEFAULT 'list' NOT NULL,
	"contact_type" text DEFAULT 'lead' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"file_name" text NOT NULL,
	"file_size" bigint DEFAULT 0 NOT NULL,
	"file_path" text,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"checkpoint" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"error" text,
	"result" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"job_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "import_rows" (
	"attempt_id" bigint NOT NULL,
	"row_no" integer NOT NULL,
	"action" text,
	"reasons" text,
	"contact_id" bigint,
	"first_name" text,
	"last_name" text,
	"email" text,
	"phone" text,
	"secondary_phone" text,
	"date_of_birth" text,
	"gender" text,
	"language" text,
	"address" text,
	"address2" text,
	"city" text,
	"state" text,
	"zip" text,
	"county" text,
	"medicare_number" text,
	"part_a_effective" text,
	"part_b_effective" text,
	"tags" text,
	"attachment" text,
	"extra" jsonb,
	"raw" jsonb,
	CONSTRAINT "import_rows_attempt_id_row_no_pk" PRIMARY KEY("attempt_id","row_no")
);
--> statement-breakpoint
CREATE TABLE "import_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "import_attempts" ADD CONSTRAINT "import_attempts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_attempts" ADD CONSTRAINT "import_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_attempts" ADD CONSTRAINT "import_attempts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_settings" ADD CONSTRAINT "import_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_settings" ADD CONSTRAINT "import_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_attempts_company" ON "import_attempts" USING btree ("company_id","id");--> statement-breakpoint
CREATE INDEX "import_attempts_status" ON "import_attempts" USING btree ("status") WHERE "import_attempts"."status" in ('pending', 'processing');--> statement-breakpoint
CREATE INDEX "import_settings_user" ON "import_settings" USING btree ("company_id","user_id");