CREATE TABLE "domain_event_deliveries" (
	"subscriber" text NOT NULL,
	"event_id" bigint NOT NULL,
	"status" text DEFAULT 'done' NOT NULL,
	"error" text,
	"delivered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "domain_event_deliveries_event_id_subscriber_pk" PRIMARY KEY("event_id","subscriber")
);
--> statement-breakpoint
CREATE TABLE "domain_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"actor_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dispatched_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "domain_event_deliveries" ADD CONSTRAINT "domain_event_deliveries_event_id_domain_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."domain_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "domain_events_pending" ON "domain_events" USING btree ("next_attempt_at","id") WHERE dispatched_at is null;--> statement-breakpoint
CREATE INDEX "domain_events_dispatched" ON "domain_events" USING btree ("dispatched_at") WHERE dispatched_at is not null;