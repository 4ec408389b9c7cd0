CREATE TABLE "plan_licences" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"product" text NOT NULL,
	"subscription_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"user_id" integer,
	"allocation" integer DEFAULT 0 NOT NULL,
	"paid" boolean DEFAULT false NOT NULL,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_licences_allocation" CHECK ("plan_licences"."allocation" >= 0)
);
--> statement-breakpoint
CREATE TABLE "plan_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"product" text NOT NULL,
	"subscription_id" integer NOT NULL,
	"order_type" text NOT NULL,
	"kind" text NOT NULL,
	"quantity" integer NOT NULL,
	"amount" bigint NOT NULL,
	"refunded_amount" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"payment_method" text NOT NULL,
	"card_brand" text,
	"card_last4" text,
	"processor_payment_id" text,
	"ledger_transaction_id" bigint,
	"failure_message" text,
	"placed_by" integer NOT NULL,
	"request_key" text,
	"paid_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_orders_status" CHECK ("plan_orders"."status" in ('pending', 'paid', 'failed', 'cancelled', 'refunded')),
	CONSTRAINT "plan_orders_amounts" CHECK ("plan_orders"."amount" >= 0 and "plan_orders"."refunded_amount" between 0 and "plan_orders"."amount"),
	CONSTRAINT "plan_orders_quantity" CHECK ("plan_orders"."quantity" >= 1)
);
--> statement-breakpoint
CREATE TABLE "plan_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"product" text NOT NULL,
	"plan_id" integer NOT NULL,
	"kind" text NOT NULL,
	"owner_id" integer NOT NULL,
	"seats" integer DEFAULT 1 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"auto_renew" boolean DEFAULT true NOT NULL,
	"payment_method" text NOT NULL,
	"price" integer NOT NULL,
	"units" integer NOT NULL,
	"unit_price" integer NOT NULL,
	"current_period_start" timestamp with time zone,
	"current_period_end" timestamp with time zone,
	"activated_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" integer,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_subscriptions_product" CHECK ("plan_subscriptions"."product" in ('sms', 'dialer')),
	CONSTRAINT "plan_subscriptions_kind" CHECK ("plan_subscriptions"."kind" in ('company', 'manager', 'self')),
	CONSTRAINT "plan_subscriptions_status" CHECK ("plan_subscriptions"."status" in ('pending', 'active', 'cancelled', 'expired')),
	CONSTRAINT "plan_subscriptions_seats" CHECK ("plan_subscriptions"."seats" >= 1 and ("plan_subscriptions"."kind" <> 'self' or "plan_subscriptions"."seats" = 1))
);
--> statement-breakpoint
CREATE TABLE "usage_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"product" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"tier" text NOT NULL,
	"enterprise" boolean DEFAULT false NOT NULL,
	"price" integer NOT NULL,
	"units" integer NOT NULL,
	"unit_price" integer NOT NULL,
	"min_seats" integer DEFAULT 1 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_plans_product" CHECK ("usage_plans"."product" in ('sms', 'dialer')),
	CONSTRAINT "usage_plans_tier" CHECK ("usage_plans"."tier" in ('standard', 'premium', 'custom')),
	CONSTRAINT "usage_plans_amounts" CHECK ("usage_plans"."price" >= 0 and "usage_plans"."units" >= 0 and "usage_plans"."unit_price" >= 0 and "usage_plans"."min_seats" >= 1)
);
--> statement-breakpoint
CREATE TABLE "usage_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"product" text NOT NULL,
	"quantity" integer NOT NULL,
	"ref" text NOT NULL,
	"month" date NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_records_quantity" CHECK ("usage_records"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "usage_totals" (
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"product" text NOT NULL,
	"month" date NOT NULL,
	"quantity" bigint NOT NULL,
	CONSTRAINT "usage_totals_user_id_product_month_pk" PRIMARY KEY("user_id","product","month")
);
--> statement-breakpoint
ALTER TABLE "plan_licences" ADD CONSTRAINT "plan_licences_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_licences" ADD CONSTRAINT "plan_licences_subscription_id_plan_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."plan_subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_licences" ADD CONSTRAINT "plan_licences_order_id_plan_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."plan_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_licences" ADD CONSTRAINT "plan_licences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_orders" ADD CONSTRAINT "plan_orders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_orders" ADD CONSTRAINT "plan_orders_subscription_id_plan_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."plan_subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_orders" ADD CONSTRAINT "plan_orders_placed_by_users_id_fk" FOREIGN KEY ("placed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_subscriptions" ADD CONSTRAINT "plan_subscriptions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_subscriptions" ADD CONSTRAINT "plan_subscriptions_plan_id_usage_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."usage_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_subscriptions" ADD CONSTRAINT "plan_subscriptions_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_plans" ADD CONSTRAINT "usage_plans_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_licences_subscription" ON "plan_licences" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "plan_licences_user" ON "plan_licences" USING btree ("user_id","product") WHERE "plan_licences"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "plan_orders_company" ON "plan_orders" USING btree ("company_id","product","id");--> statement-breakpoint
CREATE INDEX "plan_orders_subscription" ON "plan_orders" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "plan_orders_placed_by" ON "plan_orders" USING btree ("placed_by","product");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_orders_request" ON "plan_orders" USING btree ("placed_by","product","request_key");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_orders_processor" ON "plan_orders" USING btree ("processor_payment_id");--> statement-breakpoint
CREATE INDEX "plan_subscriptions_company" ON "plan_subscriptions" USING btree ("company_id","product","id");--> statement-breakpoint
CREATE INDEX "plan_subscriptions_owner" ON "plan_subscriptions" USING btree ("owner_id","product");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_subscriptions_one_self" ON "plan_subscriptions" USING btree ("owner_id","product") WHERE "plan_subscriptions"."kind" = 'self' and "plan_subscriptions"."status" in ('pending', 'active');--> statement-breakpoint
CREATE UNIQUE INDEX "plan_subscriptions_one_company" ON "plan_subscriptions" USING btree ("company_id","product") WHERE "plan_subscriptions"."kind" = 'company' and "plan_subscriptions"."status" in ('pending', 'active');--> statement-breakpoint
CREATE INDEX "plan_subscriptions_due" ON "plan_subscriptions" USING btree ("current_period_end") WHERE "plan_subscriptions"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "usage_plans_name" ON "usage_plans" USING btree ("company_id","product",lower("name")) WHERE "usage_plans"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "usage_records_ref" ON "usage_records" USING btree ("company_id","product","ref");--> statement-breakpoint
CREATE INDEX "usage_records_user" ON "usage_records" USING btree ("user_id","product","month");--> statement-breakpoint
CREATE INDEX "usage_totals_company" ON "usage_totals" USING btree ("company_id","product","month");