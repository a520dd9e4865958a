CREATE TABLE "pay_method_settings" (
	"method" text PRIMARY KEY NOT NULL,
	"is_enabled" boolean NOT NULL,
	"updated_by" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"amount_fen" bigint NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_versions_amount" CHECK ("price_versions"."amount_fen" > 0)
);
--> statement-breakpoint
ALTER TABLE "charge_options" ADD COLUMN "effective_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "charge_options" ADD COLUMN "created_by" bigint;--> statement-breakpoint
ALTER TABLE "proxy_orders" ADD COLUMN "price_versions" jsonb;--> statement-breakpoint
CREATE INDEX "price_versions_key_idx" ON "price_versions" USING btree ("key","effective_at","id");--> statement-breakpoint
CREATE INDEX "charge_options_effective_idx" ON "charge_options" USING btree ("effective_at","version");