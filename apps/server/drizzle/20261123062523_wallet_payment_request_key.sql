ALTER TABLE "wallet_payments" ADD COLUMN "request_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_payments_request" ON "wallet_payments" USING btree ("user_id","request_key");