CREATE TABLE "exit_nodes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"egress" text NOT NULL,
	"host" text DEFAULT '' NOT NULL,
	"port" integer DEFAULT 0 NOT NULL,
	"username" text,
	"password" text,
	"country" text NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"exit_ip" text,
	"status" text DEFAULT 'active' NOT NULL,
	"holder_token_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_catalogue" (
	"key" text PRIMARY KEY NOT NULL,
	"amount_fen" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proxy_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"action" text NOT NULL,
	"product" text NOT NULL,
	"category" text NOT NULL,
	"billing" text NOT NULL,
	"quantity" integer NOT NULL,
	"amount" text NOT NULL,
	"cost_fen" bigint NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proxy_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"product" text NOT NULL,
	"category" text NOT NULL,
	"billing" text NOT NULL,
	"network" text NOT NULL,
	"country" text NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"username" text NOT NULL,
	"password" text NOT NULL,
	"status" text DEFAULT 'enabled' NOT NULL,
	"deleted_at" timestamp with time zone,
	"auto_renew" boolean DEFAULT false NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"exit_node_id" bigint,
	"traffic_limit_bytes" bigint,
	"traffic_used_bytes" bigint DEFAULT 0 NOT NULL,
	"traffic_leased_bytes" bigint DEFAULT 0 NOT NULL,
	"period_days" integer DEFAULT 0 NOT NULL,
	"period_price_fen" bigint DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"order_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spider_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"token_id" bigint NOT NULL,
	"params" text NOT NULL,
	"line_count" integer NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "token_usage" (
	"token_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "token_usage_token_id_bucket_pk" PRIMARY KEY("token_id","bucket")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "exit_nodes_endpoint_key" ON "exit_nodes" USING btree ("kind","egress","host","port",coalesce("username", ''),"country","state","city");--> statement-breakpoint
CREATE INDEX "exit_nodes_area_idx" ON "exit_nodes" USING btree ("kind","country","state","city");--> statement-breakpoint
CREATE INDEX "exit_nodes_holder_idx" ON "exit_nodes" USING btree ("holder_token_id");--> statement-breakpoint
CREATE UNIQUE INDEX "proxy_orders_idempotency_key" ON "proxy_orders" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "proxy_orders_user_idx" ON "proxy_orders" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "proxy_tokens_username_key" ON "proxy_tokens" USING btree ("username");--> statement-breakpoint
CREATE INDEX "proxy_tokens_user_idx" ON "proxy_tokens" USING btree ("user_id","product","billing","id");--> statement-breakpoint
CREATE INDEX "proxy_tokens_updated_idx" ON "proxy_tokens" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "proxy_tokens_expiry_idx" ON "proxy_tokens" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "spider_records_user_idx" ON "spider_records" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "token_usage_user_idx" ON "token_usage" USING btree ("user_id","bucket");--> statement-breakpoint
CREATE OR REPLACE FUNCTION touch_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := clock_timestamp();
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER proxy_tokens_touch BEFORE UPDATE ON "proxy_tokens" FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
--> statement-breakpoint
CREATE TRIGGER exit_nodes_touch BEFORE UPDATE ON "exit_nodes" FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
