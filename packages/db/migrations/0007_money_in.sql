CREATE TABLE "charge_options" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"amount_fen" bigint NOT NULL,
	"gift_fen" bigint DEFAULT 0 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "charge_options_amounts" CHECK ("charge_options"."amount_fen" > 0 AND "charge_options"."gift_fen" >= 0)
);
--> statement-breakpoint
CREATE TABLE "pay_notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"method" text NOT NULL,
	"order_id" text,
	"result" text NOT NULL,
	"reason" text,
	"ip" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pay_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"method" text NOT NULL,
	"mode" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"amount_fen" bigint NOT NULL,
	"gift_fen" bigint DEFAULT 0 NOT NULL,
	"fee_fen" bigint NOT NULL,
	"price_fen" bigint NOT NULL,
	"value_fen" bigint NOT NULL,
	"option_version" integer,
	"is_sandbox" boolean DEFAULT false NOT NULL,
	"pay_url" text,
	"qr_code" text,
	"provider_tx_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"is_paid_late" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pay_orders_amounts" CHECK ("pay_orders"."amount_fen" > 0 AND "pay_orders"."price_fen" = "pay_orders"."amount_fen" + "pay_orders"."fee_fen" AND "pay_orders"."value_fen" = "pay_orders"."amount_fen" + "pay_orders"."gift_fen")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "charge_options_version_amount_key" ON "charge_options" USING btree ("version","amount_fen");--> statement-breakpoint
CREATE INDEX "pay_notifications_order_idx" ON "pay_notifications" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "pay_notifications_created_idx" ON "pay_notifications" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "pay_orders_user_idx" ON "pay_orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "pay_orders_pending_idx" ON "pay_orders" USING btree ("status","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "pay_orders_provider_tx_key" ON "pay_orders" USING btree ("method","provider_tx_id");--> statement-breakpoint
CREATE TRIGGER pay_orders_touch BEFORE UPDATE ON "pay_orders" FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
