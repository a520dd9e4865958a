CREATE TABLE "carrier_usage" (
	"day" date NOT NULL,
	"token_id" bigint NOT NULL,
	"carrier_kind" text NOT NULL,
	"carrier_id" bigint DEFAULT 0 NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"connections" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "carrier_usage_day_token_id_carrier_kind_carrier_id_country_pk" PRIMARY KEY("day","token_id","carrier_kind","carrier_id","country")
);
--> statement-breakpoint
CREATE TABLE "pool_health" (
	"instance_id" uuid NOT NULL,
	"pool_id" bigint NOT NULL,
	"attempts" bigint DEFAULT 0 NOT NULL,
	"successes" bigint DEFAULT 0 NOT NULL,
	"connect_ms_total" bigint DEFAULT 0 NOT NULL,
	"refusals" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"open" integer DEFAULT 0 NOT NULL,
	"circuit_open_until" timestamp with time zone,
	"open_areas" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pool_health_instance_id_pool_id_pk" PRIMARY KEY("instance_id","pool_id")
);
--> statement-breakpoint
CREATE TABLE "pool_reconciliation" (
	"pool_id" bigint NOT NULL,
	"day" date NOT NULL,
	"provider_bytes" bigint NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pool_reconciliation_pool_id_day_pk" PRIMARY KEY("pool_id","day"),
	CONSTRAINT "pool_reconciliation_bytes" CHECK ("pool_reconciliation"."provider_bytes" >= 0)
);
--> statement-breakpoint
ALTER TABLE "exit_nodes" ADD COLUMN "cost_per_day_fen" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_log_entries" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "usage_log_entries" ADD COLUMN "exit_changed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "pool_health" ADD CONSTRAINT "pool_health_instance_id_gateway_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."gateway_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_health" ADD CONSTRAINT "pool_health_pool_id_pools_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."pools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_reconciliation" ADD CONSTRAINT "pool_reconciliation_pool_id_pools_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."pools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "carrier_usage_carrier_idx" ON "carrier_usage" USING btree ("carrier_kind","carrier_id","day");