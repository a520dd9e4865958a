CREATE TABLE "usdt_amount_holds" (
	"network" text NOT NULL,
	"amount_units" bigint NOT NULL,
	"order_id" text NOT NULL,
	"held_until" timestamp with time zone NOT NULL,
	CONSTRAINT "usdt_amount_holds_network_amount_units_pk" PRIMARY KEY("network","amount_units")
);
--> statement-breakpoint
CREATE TABLE "usdt_transfers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount_units" numeric(78, 0) NOT NULL,
	"status" text NOT NULL,
	"order_id" text,
	"user_id" bigint,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usdt_transfers_amount" CHECK ("usdt_transfers"."amount_units" > 0)
);
--> statement-breakpoint
CREATE TABLE "usdt_watch_cursors" (
	"network" text PRIMARY KEY NOT NULL,
	"position" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pay_orders" ADD COLUMN "crypto_amount_units" bigint;--> statement-breakpoint
ALTER TABLE "pay_orders" ADD COLUMN "crypto_address" text;--> statement-breakpoint
ALTER TABLE "pay_orders" ADD COLUMN "crypto_rate" text;--> statement-breakpoint
CREATE UNIQUE INDEX "usdt_transfers_key" ON "usdt_transfers" USING btree ("network","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "usdt_transfers_status_idx" ON "usdt_transfers" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "pay_orders_crypto_amount_idx" ON "pay_orders" USING btree ("method","crypto_amount_units");