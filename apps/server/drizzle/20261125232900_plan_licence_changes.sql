CREATE TABLE "plan_licence_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"licence_id" integer NOT NULL,
	"actor_id" integer NOT NULL,
	"from_user_id" integer,
	"to_user_id" integer,
	"from_allocation" integer NOT NULL,
	"to_allocation" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plan_licence_changes" ADD CONSTRAINT "plan_licence_changes_licence_id_plan_licences_id_fk" FOREIGN KEY ("licence_id") REFERENCES "public"."plan_licences"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_licence_changes_licence" ON "plan_licence_changes" USING btree ("licence_id","id");