CREATE TABLE "account_cards" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"processor_customer_id" text,
	"payment_method_id" text NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "account_subscriptions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"plan" text NOT NULL,
	"price" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"charge_id" bigint,
	"current_period_end" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"failure_message" text,
	"renewing" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_charges" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount" bigint NOT NULL,
	"refunded_amount" bigint DEFAULT 0 NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"processor_payment_id" text,
	"card_brand" text,
	"card_last4" text,
	"failure_message" text,
	"request_key" text,
	"ledger_transaction_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "card_charges_amount" CHECK ("card_charges"."amount" > 0),
	CONSTRAINT "card_charges_refund" CHECK ("card_charges"."refunded_amount" >= 0 and "card_charges"."refunded_amount" <= "card_charges"."amount")
);
--> statement-breakpoint
CREATE TABLE "max_plus_subscriptions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"plan" text NOT NULL,
	"payment_type" text DEFAULT 'credit_card' NOT NULL,
	"paid_by" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"charge_id" bigint,
	"current_period_end" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" integer,
	"failure_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price" bigint NOT NULL,
	"pricing" text DEFAULT 'per_order' NOT NULL,
	"months_count" integer,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_items_price" CHECK ("store_items"."price" > 0),
	CONSTRAINT "store_items_pricing" CHECK ("store_items"."pricing" in ('per_order', 'per_contact'))
);
--> statement-breakpoint
CREATE TABLE "store_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"contacts_scope" jsonb,
	"contacts_count" integer,
	"amount" bigint NOT NULL,
	"notes" text,
	"admin_status" text DEFAULT 'new' NOT NULL,
	"charge_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_orders_admin_status" CHECK ("store_orders"."admin_status" in ('new', 'processing', 'fulfilled', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "account_cards" ADD CONSTRAINT "account_cards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_cards" ADD CONSTRAINT "account_cards_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_subscriptions" ADD CONSTRAINT "account_subscriptions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_subscriptions" ADD CONSTRAINT "account_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_subscriptions" ADD CONSTRAINT "account_subscriptions_charge_id_card_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."card_charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_charges" ADD CONSTRAINT "card_charges_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_charges" ADD CONSTRAINT "card_charges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "max_plus_subscriptions" ADD CONSTRAINT "max_plus_subscriptions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "max_plus_subscriptions" ADD CONSTRAINT "max_plus_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "max_plus_subscriptions" ADD CONSTRAINT "max_plus_subscriptions_paid_by_users_id_fk" FOREIGN KEY ("paid_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "max_plus_subscriptions" ADD CONSTRAINT "max_plus_subscriptions_charge_id_card_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."card_charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_items" ADD CONSTRAINT "store_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_orders" ADD CONSTRAINT "store_orders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_orders" ADD CONSTRAINT "store_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_orders" ADD CONSTRAINT "store_orders_item_id_store_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."store_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_orders" ADD CONSTRAINT "store_orders_charge_id_card_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."card_charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_subscriptions_live" ON "account_subscriptions" USING btree ("user_id") WHERE "account_subscriptions"."status" in ('pending', 'active', 'cancelled');--> statement-breakpoint
CREATE INDEX "account_subscriptions_charge" ON "account_subscriptions" USING btree ("charge_id");--> statement-breakpoint
CREATE UNIQUE INDEX "card_charges_processor" ON "card_charges" USING btree ("processor_payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "card_charges_request" ON "card_charges" USING btree ("user_id","kind","request_key");--> statement-breakpoint
CREATE INDEX "card_charges_user" ON "card_charges" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "max_plus_subscriptions_live" ON "max_plus_subscriptions" USING btree ("user_id") WHERE "max_plus_subscriptions"."status" in ('pending', 'active');--> statement-breakpoint
CREATE INDEX "max_plus_subscriptions_charge" ON "max_plus_subscriptions" USING btree ("charge_id");--> statement-breakpoint
CREATE INDEX "store_items_company" ON "store_items" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "store_orders_company" ON "store_orders" USING btree ("company_id","id");--> statement-breakpoint
CREATE INDEX "store_orders_user" ON "store_orders" USING btree ("user_id","id");